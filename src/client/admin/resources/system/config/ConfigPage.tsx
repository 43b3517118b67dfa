import { Alert, Box, Button, Card, Checkbox, FormControlLabel, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import {
  CreateButton, DeleteButton, Form, Loading, RecordContextProvider, SaveButton, Toolbar, useCanAccess, useDataProvider, useLocale, useNotify,
  useResourceContext, useTranslate,
} from 'react-admin';
import { CLEAR_SECRETS_KEY, durationBoundsOf, type ConfigGroup, type ConfigIndex, type ConfigItem } from '../../../../../contract/config-values.js';
import { durationText } from '../../../../../contract/durations.js';
import type { FieldDefinition, ResourceDefinition, Row } from '../../../../../schema/definition.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { DurationInput } from '../../../inputs/DurationInput.js';
import { isRequiredOn, SchemaInput } from '../../../inputs/SchemaInput.js';
import { SwitchField } from '../../../inputs/SwitchInput.js';
import { configLabelColumnSx } from '../../form-layout.js';
import { authProvider, reloadShell } from '../../../bootstrap-store.js';
import { currentPermissions } from '../../../../providers/permissions.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';
import { configDefinitionOf } from './config-fields.js';
import { MAIL_GROUP, TestMailButton } from './TestMailButton.js';
import { CodeChannels } from './CodeChannels.js';
import { ConfigGroupsInput } from './ConfigGroupsInput.js';

/** The item listing the groups (the tabs) of this screen. */
const CONFIG_GROUP_ITEM = 'config_group';

interface GroupFormProps {
  resource: string;
  definition: ResourceDefinition;
  group: ConfigGroup;
  /** every group's title in the reader's language, and the groups holding items (the groups' editor) */
  titles: Record<string, string>;
  inUse: ReadonlySet<string>;
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
  const clearing = useWatch<{ [CLEAR_SECRETS_KEY]?: string[] }, typeof CLEAR_SECRETS_KEY>({ name: CLEAR_SECRETS_KEY });
  const ticked = clearing?.includes(item.name) ?? false;
  const toggle = (on: boolean) => {
    const others = (clearing ?? []).filter((name) => name !== item.name);
    setValue(CLEAR_SECRETS_KEY, on ? [...others, item.name] : others, { shouldDirty: true });
  };
  return (
    <Box sx={{ mt: -1, mb: 1 }} data-field-column>
      <Typography variant="caption" color="text.secondary" component="p">{translate('config.secretStored')}</Typography>
      <FormControlLabel control={<Checkbox size="small" checked={ticked} onChange={(event) => toggle(event.target.checked)} />} label={translate('config.clearSecret')} />
    </Box>
  );
}

/** A value as the reader reads it: a switch on or off, a duration in words, a list joined, an empty value said so. */
function shownValue(item: ConfigItem, value: unknown, translate: (key: string) => string, locale: string): string {
  if (item.type === 'switch') return translate(value === true ? 'config.override.on' : 'config.override.off');
  if (durationBoundsOf(item.name) && Number.isSafeInteger(Number(value)) && Number(value) > 0) return durationText(Number(value), locale);
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value ?? '');
  return text === '' ? translate('config.override.none') : text;
}

/**
 * An item an environment variable decides: the value that applies, which the form cannot change (it is
 * not part of the form, so saving the group never writes it), and which variable sets it.
 */
function OverriddenSetting({ item, override }: { item: ConfigItem; override: NonNullable<ConfigItem['override']> }) {
  const translate = useTranslate();
  const locale = useLocale();
  const noticeId = useId();
  const fieldId = useId();
  return (
    <>
      {item.type === 'switch' ? (
        <SwitchField
          id={fieldId}
          label={item.title}
          checked={override.value === true}
          disabled
          describedBy={noticeId}
          after={<Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 0.5 }}>{shownValue(item, override.value, translate, locale)}</Typography>}
        />
      ) : (
        <TextField
          id={fieldId}
          disabled
          fullWidth
          size="small"
          label={item.title}
          value={shownValue(item, override.value, translate, locale)}
          sx={{ mb: 1 }}
          slotProps={{ htmlInput: { 'aria-describedby': noticeId } }}
        />
      )}
      <Alert id={noticeId} severity="info" sx={{ mb: 1 }} data-field-column>
        {translate('config.override.overridden', { variable: override.variable, stored: shownValue(item, item.value, translate, locale) })}
      </Alert>
      {item.tip && <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1, mx: 1.75 }} data-field-column>{item.tip}</Typography>}
    </>
  );
}

/** The input of one item: its type's widget, a duration in its unit, the groups by their titles. */
function ItemInput({ item, field, definition, titles, inUse }: { item: ConfigItem; field: FieldDefinition; definition: ResourceDefinition; titles: Record<string, string>; inUse: ReadonlySet<string> }) {
  const required = isRequiredOn(definition, field, 'edit');
  const hint = item.tip || undefined;
  if (item.name === CONFIG_GROUP_ITEM) return <ConfigGroupsInput source={item.name} label={item.title} required={required} helperText={hint} titles={titles} inUse={inUse} />;
  const duration = durationBoundsOf(item.name);
  if (duration) return <DurationInput source={item.name} label={item.title} bounds={duration} required={required} helperText={hint} />;
  return <SchemaInput field={field} definition={definition} mode="edit" hint={hint} />;
}

/** One tab: the group's items as one form, saved together through `edit` as `{<name>: <value>}`. */
function GroupForm({ resource, definition, group, titles, inUse, canEdit, canDelete, canTestMail, onChanged, onTested }: GroupFormProps) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const items = useMemo(() => group.list ?? [], [group]);
  const groupDefinition = useMemo(() => configDefinitionOf(definition, items, translate), [definition, items, translate]);
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
      {/* an item's name is for code, not for the reader: each shows its label and help only */}
      <Box sx={{ px: { xs: 2, sm: 3 }, pt: 2 }}>
        <Stack sx={configLabelColumnSx}>
          {groupDefinition.fields.map((field, position) => {
            const item = items[position];
            return (
              <Box key={field.name} data-config-item={item.name} {...(item.override ? { 'data-overridden': item.name } : {})}>
                {item.override ? (
                  <OverriddenSetting item={item} override={item.override} />
                ) : (
                  <ItemInput item={item} field={field} definition={groupDefinition} titles={titles} inUse={inUse} />
                )}
                {item.isSet && canEdit && <StoredSecret item={item} />}
                {canDelete && item.allow_del === 1 && (
                  <Box data-field-column sx={{ mb: 1 }}>
                    <RecordContextProvider value={{ id: item.id }}>
                      <DeleteButton
                        resource={resource}
                        mutationMode="pessimistic"
                        redirect={false}
                        label={translate('config.deleteItem', { title: item.title })}
                        mutationOptions={{
                          onSuccess: () => {
                            notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
                            onChanged();
                          },
                        }}
                      />
                    </RecordContextProvider>
                  </Box>
                )}
              </Box>
            );
          })}
        </Stack>
      </Box>
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
  const inUse = new Set(groups.filter((group) => (group.list ?? []).length > 0).map((group) => group.name));
  const current = groups.find((group) => group.name === chosen) ?? groups[0];
  // Below 900 px the add button floats 60 px above the bottom (56 px tall), and below 600 px the save bar is
  // fixed at the bottom: room under the last item keeps its help line clear of both when scrolled to the end.
  const bottomRoom = canCreate ? { xs: 16, md: 0 } : { xs: 10, sm: 0 };
  return (
    <Box sx={{ pb: bottomRoom }} data-testid="config-screen">
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
            titles={data.configGroup}
            inUse={inUse}
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
    </Box>
  );
}
