import { Alert, Box, Button, Card, Checkbox, FormControlLabel, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import {
  CreateButton, DeleteButton, Form, Loading, RecordContextProvider, SaveButton, Toolbar, useCanAccess, useDataProvider, useNotify,
  useResourceContext, useTranslate,
} from 'react-admin';
import { CLEAR_SECRETS_KEY, type ConfigGroup, type ConfigIndex, type ConfigItem } from '../../../../../contract/config-values.js';
import type { ResourceDefinition, Row } from '../../../../../schema/definition.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { SchemaInput } from '../../../inputs/SchemaInput.js';
import { currentPermissions } from '../../../../providers/permissions.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';
import { configDefinitionOf } from './config-fields.js';
import { MAIL_GROUP, TestMailButton } from './TestMailButton.js';

interface GroupFormProps {
  resource: string;
  definition: ResourceDefinition;
  group: ConfigGroup;
  canEdit: boolean;
  canDelete: boolean;
  canTestMail: boolean;
  onChanged(): void;
}

/**
 * Under a password item that holds a value: says so (the value is never shown), and offers to clear it
 * on save. Leaving the field empty keeps the stored password; only the ticked box empties it.
 */
function StoredSecret({ item }: { item: ConfigItem }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const clearing = useWatch({ name: CLEAR_SECRETS_KEY }) as string[] | undefined;
  const ticked = clearing?.includes(item.name) ?? false;
  const toggle = (on: boolean) => {
    const others = (clearing ?? []).filter((name) => name !== item.name);
    setValue(CLEAR_SECRETS_KEY, on ? [...others, item.name] : others, { shouldDirty: true });
  };
  return (
    <Box sx={{ mt: -1, mb: 1 }}>
      <Typography variant="caption" color="text.secondary" component="p">{translate('config.secretStored')}</Typography>
      <FormControlLabel control={<Checkbox size="small" checked={ticked} onChange={(event) => toggle(event.target.checked)} />} label={translate('config.clearSecret')} />
    </Box>
  );
}

/** One tab: the group's items as one form, saved together through `edit` as `{<name>: <value>}`. */
function GroupForm({ resource, definition, group, canEdit, canDelete, canTestMail, onChanged }: GroupFormProps) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const items = useMemo(() => group.list ?? [], [group]);
  const groupDefinition = useMemo(() => configDefinitionOf(definition, items), [definition, items]);
  const defaultValues = useMemo(() => Object.fromEntries(items.map((item) => [item.name, item.value])), [items]);
  const names = useMemo(() => new Set(items.map((item) => item.name)), [items]);
  const testMail = canTestMail && group.name === MAIL_GROUP;

  const save = async (values: Row) => {
    // the "clear" boxes are a form value too, so ticking one enables saving; unticked, nothing is sent
    const { [CLEAR_SECRETS_KEY]: clear, ...settings } = values;
    const data = Array.isArray(clear) && clear.length > 0 ? { ...settings, [CLEAR_SECRETS_KEY]: clear } : settings;
    try {
      await dataProvider.action(resource, 'edit', { data });
    } catch (error) {
      const onFields = serverFieldErrors(error, names);
      if (onFields) return onFields;
      notify(errorMessageOf(error), { type: 'error' });
      return undefined;
    }
    notify('config.saved', { type: 'success' });
    onChanged();
    return undefined;
  };

  if (items.length === 0) return <Typography sx={{ p: 3 }} color="text.secondary">{translate('config.empty')}</Typography>;
  return (
    <Form key={group.name} defaultValues={defaultValues} onSubmit={save} noValidate>
      <Stack sx={{ px: 3, pt: 2 }}>
        {groupDefinition.fields.map((field, position) => (
          // On a phone the item's name and its delete button wrap under the field, which keeps the width.
          <Stack key={field.name} direction="row" useFlexGap sx={{ alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' }, columnGap: 1 }}>
            <Box sx={{ flex: { xs: '1 1 100%', sm: 1 }, minWidth: 0 }}>
              <SchemaInput field={field} definition={groupDefinition} mode="edit" hint={items[position].tip || undefined} />
              {items[position].isSet && canEdit && <StoredSecret item={items[position]} />}
            </Box>
            <Typography variant="caption" color="text.secondary" sx={{ width: { sm: 180 }, flex: { xs: 1, sm: 'none' }, pt: { xs: 0.5, sm: 2 }, fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {field.name}
            </Typography>
            <Box sx={{ width: { sm: 96 }, pt: { xs: 0, sm: 1 } }}>
              {canDelete && items[position].allow_del === 1 && (
                <RecordContextProvider value={{ id: items[position].id }}>
                  <DeleteButton
                    resource={resource}
                    mutationMode="pessimistic"
                    redirect={false}
                    mutationOptions={{
                      onSuccess: () => {
                        notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
                        onChanged();
                      },
                    }}
                  />
                </RecordContextProvider>
              )}
            </Box>
          </Stack>
        ))}
      </Stack>
      {(canEdit || testMail) && (
        <Toolbar sx={{ bgcolor: 'transparent', px: 3, gap: 1 }}>
          {canEdit && <SaveButton />}
          {testMail && <TestMailButton resource={resource} settings={names} />}
        </Toolbar>
      )}
    </Form>
  );
}

/**
 * The system configuration screen (docs/wire-contract.md#site-configuration): a tab per config group, each a form of its items
 * with the widget of their type, under the quick-entrance buttons of `config_quick_entrance`. Items are
 * added with the generated create form; only items added that way can be deleted.
 */
export function ConfigPage({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext() ?? '';
  const dataProvider = useDataProvider<ActionDataProvider>();
  const translate = useTranslate();
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const { canAccess: canCreate } = useCanAccess({ resource, action: 'create' });
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
  // Its node is not seeded (as in BuildAdmin): super administrators, or whoever is given that rule.
  const { canAccess: canTestMailNode } = useCanAccess({ resource, action: 'sendTestMail' });
  const canTestMail = canTestMailNode === true || currentPermissions().super;
  const { data, error, isPending, refetch } = useQuery({
    queryKey: [resource, 'configIndex'],
    queryFn: async () => (await dataProvider.action<ConfigIndex>(resource, 'index')).data,
  });
  const [chosen, setChosen] = useState<string | undefined>(undefined);

  if (isPending) return <Loading />;
  if (error || !data) {
    return (
      <Alert severity="error" sx={{ mt: 2 }} action={<Button onClick={() => void refetch()}>{translate('config.retry')}</Button>}>
        {translate('config.loadFailed')}
      </Alert>
    );
  }
  const groups = Object.values(data.list);
  const current = groups.find((group) => group.name === chosen) ?? groups[0];
  return (
    <>
      {data.quickEntrance.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }} aria-label={translate('config.quickEntrance')} role="group">
          {data.quickEntrance.map((entrance) => (
            <Button key={`${entrance.key}-${entrance.value}`} variant="outlined" size="small" component={RouterLink} to={`/${entrance.value.replace(/^\/+/, '')}`}>
              {entrance.key}
            </Button>
          ))}
        </Stack>
      )}
      <Card sx={{ mt: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', pr: 2 }}>
          <Tabs
            value={current?.name ?? false}
            onChange={(_event, value: string) => setChosen(value)}
            variant="scrollable"
            aria-label={translate('config.groups')}
            sx={{ flex: 1 }}
          >
            {groups.map((group) => (
              <Tab key={group.name} value={group.name} label={group.title} />
            ))}
          </Tabs>
          {canCreate && <CreateButton resource={resource} label="config.add" />}
        </Stack>
        {current && (
          <GroupForm
            key={current.name}
            resource={resource}
            definition={definition}
            group={current}
            canEdit={canEdit === true}
            canDelete={canDelete === true}
            canTestMail={canTestMail}
            onChanged={() => void refetch()}
          />
        )}
      </Card>
    </>
  );
}
