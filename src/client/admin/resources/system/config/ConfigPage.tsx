import { Alert, Box, Button, Card, Checkbox, FormControlLabel, Stack, Switch, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
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
import { authProvider, reloadShell } from '../../../bootstrap-store.js';
import { currentPermissions } from '../../../../providers/permissions.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';
import { configDefinitionOf } from './config-fields.js';
import { MAIL_GROUP, TestMailButton } from './TestMailButton.js';
import { CodeChannels } from './CodeChannels.js';

interface GroupFormProps {
  resource: string;
  definition: ResourceDefinition;
  group: ConfigGroup;
  canEdit: boolean;
  canDelete: boolean;
  canTestMail: boolean;
  onChanged(): void;
  /** a test message went (or failed): the channels' health changed, the form's values did not */
  onTested(): void;
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

/** A value as the reader reads it: a switch on or off, a list joined, an empty value said so. */
function shownValue(type: string, value: unknown, translate: (key: string) => string): string {
  if (type === 'switch') return translate(value === true ? 'config.override.on' : 'config.override.off');
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value ?? '');
  return text === '' ? translate('config.override.none') : text;
}

/**
 * An item an environment variable decides: the value that applies, which the form cannot change (it is
 * not part of the form, so saving the group never writes it), and which variable sets it.
 */
function OverriddenSetting({ item, override }: { item: ConfigItem; override: NonNullable<ConfigItem['override']> }) {
  const translate = useTranslate();
  const noticeId = useId();
  const notice = (
    <Alert id={noticeId} severity="info" sx={{ mt: 0.5, mb: 1 }}>
      {translate('config.override.overridden', { variable: override.variable, stored: shownValue(item.type, item.value, translate) })}
    </Alert>
  );
  return (
    <Box sx={{ mt: 1, mb: 1 }} data-overridden={item.name}>
      {item.type === 'switch' ? (
        <FormControlLabel
          disabled
          control={<Switch checked={override.value === true} slotProps={{ input: { 'aria-describedby': noticeId } }} />}
          label={`${item.title}: ${shownValue(item.type, override.value, translate)}`}
        />
      ) : (
        <TextField
          disabled
          fullWidth
          label={item.title}
          value={shownValue(item.type, override.value, translate)}
          slotProps={{ htmlInput: { 'aria-describedby': noticeId } }}
        />
      )}
      {notice}
      {item.tip && <Typography variant="caption" color="text.secondary" component="p">{item.tip}</Typography>}
    </Box>
  );
}

/** One tab: the group's items as one form, saved together through `edit` as `{<name>: <value>}`. */
function GroupForm({ resource, definition, group, canEdit, canDelete, canTestMail, onChanged, onTested }: GroupFormProps) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const items = useMemo(() => group.list ?? [], [group]);
  const groupDefinition = useMemo(() => configDefinitionOf(definition, items), [definition, items]);
  // an item the environment decides is shown, not edited: the form holds only the others
  const defaultValues = useMemo(() => Object.fromEntries(items.filter((item) => !item.override).map((item) => [item.name, item.value])), [items]);
  const names = useMemo(() => new Set(items.filter((item) => !item.override).map((item) => item.name)), [items]);
  const testMail = canTestMail && group.name === MAIL_GROUP;

  const save = async (values: Row) => {
    // the "clear" boxes are a form value too, so ticking one enables saving; unticked, nothing is sent
    const { [CLEAR_SECRETS_KEY]: clear, ...fields } = values;
    const settings = Object.fromEntries(Object.entries(fields).filter(([name]) => names.has(name)));
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
    // a new site name shows in the shell's brand and the page titles at once, not after a reload
    if ('site_name' in settings) void reloadShell(() => authProvider.loadBootstrap());
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
              {items[position].override ? (
                <OverriddenSetting item={items[position]} override={items[position].override} />
              ) : (
                <SchemaInput field={field} definition={groupDefinition} mode="edit" hint={items[position].tip || undefined} />
              )}
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
          {testMail && <TestMailButton resource={resource} settings={names} onTested={onTested} />}
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
  const { canAccess: canTestSmsNode } = useCanAccess({ resource, action: 'sendTestSms' });
  const canTestSms = canTestSmsNode === true || currentPermissions().super;
  const { data, error, isPending, refetch } = useQuery({
    queryKey: [resource, 'configIndex'],
    queryFn: async () => (await dataProvider.action<ConfigIndex>(resource, 'index')).data,
  });
  // the channels' health is read again after a test message on its own, so a form's unsaved values stay
  const channels = useQuery({
    queryKey: [resource, 'codeChannels'],
    queryFn: async () => (await dataProvider.action<ConfigIndex>(resource, 'index')).data.channels ?? [],
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
      {channels.data && channels.data.length > 0 && <CodeChannels channels={channels.data} resource={resource} canTestSms={canTestSms} onTested={() => void channels.refetch()} />}
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
            onChanged={() => {
              void refetch();
              void channels.refetch();
            }}
            onTested={() => void channels.refetch()}
          />
        )}
      </Card>
    </>
  );
}
