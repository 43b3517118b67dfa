import { Alert, Box, FormControl, FormHelperText, FormLabel, Link, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useDataProvider, useInput, useLocale, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { presetNotesFor, type ProviderAddresses, type ProviderPreset } from '../../../../../contract/provider-tool.js';
import type { SurveyProviderRow } from '../../../../../generated/resources.js';
import { fieldOf, type ResourceDefinition } from '../../../../../schema/definition.js';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { enumChoices, optionLabel } from '../../../fields/enum-options.js';
import { keepValue } from '../../../inputs/input-props.js';
import { errorMessageOf } from '../../error-report.js';
import { useSchemaTranslate } from '../../schema-i18n.js';
import { CopyField } from '../../../../components/CopyField.js';

/**
 * The provider form's preset: choosing one fills every column the preset describes (its recipe, parameter
 * names, exit codes, reversal rule, answer, wall settings) from the provider's published guide; a column the
 * preset leaves out goes back to its default, so nothing of an earlier choice lingers. The operator adds the
 * secret and may change anything. The preset's source document and notes show under it, and, once the
 * provider is saved, the addresses to hand to the provider, each with a copy button.
 */

/** The columns a preset speaks for (recipe.md's provider columns that describe the provider, not our policy). */
export const PRESET_COLUMNS = [
  'kind', 'rid_param', 'member_param', 'status_param', 'exit_map', 'amount_param', 'transaction_param', 'reason_param',
  'reversal', 'test_param', 'test_value', 'signature', 'sig_param', 'credit_on', 'answer_status', 'answer_type',
  'answer_body', 'exit_placeholder', 'wall_url', 'wall_credit', 'amount_in',
] as const;

const CUSTOM = 'custom';

/** Column → value the preset gives it (or the column's default), for the columns this form has. */
export function presetValues(definition: ResourceDefinition, preset: ProviderPreset): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const names = new Set<string>([...PRESET_COLUMNS, ...Object.keys(preset.fields)]);
  for (const name of names) {
    const field = fieldOf(definition, name);
    if (!field || field.readOnly || name === 'secret') continue;
    const given = name === 'kind' ? (preset.fields.kind ?? preset.kind) : preset.fields[name];
    const value = given !== undefined ? given : field.default;
    if (value !== undefined) values[name] = structuredClone(value);
  }
  return values;
}

function usePresets(resource: string) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const locale = useLocale();
  return useQuery({
    queryKey: [resource, 'presets', locale],
    queryFn: async () => (await dataProvider.action<{ list: ProviderPreset[] }>(resource, 'presets')).data.list,
    staleTime: Infinity,
  });
}

/** Where the preset's settings come from, and what the operator sets up at the provider. */
function PresetSource({ preset }: { preset: ProviderPreset }) {
  // The notes follow the parameter names as the operator has them, not as the preset first filled them.
  const values = useWatch<Record<string, unknown>>();
  const tr = usePrefixedTranslate('survey.providerForm');
  return (
    <Box sx={{ mt: 1 }} data-testid="preset-source">
      <Typography variant="body2">
        {tr('source')}:{' '}
        {preset.source.url ? (
          <Link href={preset.source.url} target="_blank" rel="noopener noreferrer">{preset.source.document}</Link>
        ) : (
          preset.source.document
        )}
        {preset.source.date && <> ({tr('sourceRead', { date: preset.source.date })})</>}
      </Typography>
      {preset.notes && (
        <>
          <Typography variant="body2" component="h4" sx={{ fontWeight: 600, mt: 1 }}>{tr('notes')}</Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{presetNotesFor(preset.notes, values)}</Typography>
        </>
      )}
    </Box>
  );
}

/** The callback address, and the exit URLs (project) or the wall address (wall), with copy buttons. */
export function ProviderAddressList({ definition }: { definition: ResourceDefinition }) {
  const t = useSchemaTranslate();
  const record = useRecordContext<ProviderAddresses & { id?: unknown }>();
  const kind = useWatch<SurveyProviderRow, 'kind'>({ name: 'kind' });
  const wallUrl = useWatch<SurveyProviderRow, 'wall_url'>({ name: 'wall_url' });
  const headingId = useId();
  const tr = usePrefixedTranslate('survey.providerForm.addresses');
  const exitMap = fieldOf(definition, 'exit_map');
  const copied = tr('copied');
  const field = (label: string, value: string) => <CopyField key={label} label={label} value={value} copyLabel={tr('copy', { name: label })} copiedLabel={copied} />;
  const exits = kind === 'wall' ? [] : Object.entries(record?.exit_urls ?? {});
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <Typography id={headingId} variant="subtitle2" component="h3">{tr('title')}</Typography>
      {record?.callback_url ? field(tr('callback'), record.callback_url) : (
        <Typography variant="body2" color="text.secondary">{tr('unsaved')}</Typography>
      )}
      {exits.map(([outcome, url]) => field(tr('exit', { outcome: exitMap ? t(optionLabel(exitMap, outcome)) : outcome }), url))}
      {kind === 'wall' && wallUrl ? field(tr('wall'), wallUrl) : null}
    </Box>
  );
}

/** The `preset` column: a choice among the presets the server knows, which fills the form. */
export function PresetInput({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const { setValue } = useFormContext();
  const { field: input } = useInput({ source: 'preset', parse: keepValue });
  const presets = usePresets(resource);
  const [filled, setFilled] = useState<ProviderPreset | undefined>(undefined);
  const helpId = useId();
  const column = fieldOf(definition, 'preset');
  const label = column ? t(column.title) : 'Preset';
  const tr = usePrefixedTranslate('survey.providerForm');

  // The server's list (titles in the admin's language); until it is in, the schema's own labels.
  const choices = presets.data?.map((preset) => ({ id: preset.id, name: preset.title }))
    ?? (column ? enumChoices(column).map((choice) => ({ id: String(choice.id), name: t(choice.name) })) : []);
  const value = String(input.value ?? '') || CUSTOM;
  const chosen = presets.data?.find((preset) => preset.id === value);

  const choose = (id: string) => {
    input.onChange(id);
    const preset = presets.data?.find((item) => item.id === id);
    // A preset that describes nothing (a bare "custom") leaves the form as it is.
    if (!preset || Object.keys(preset.fields).length === 0) {
      setFilled(undefined);
      return;
    }
    for (const [name, given] of Object.entries(presetValues(definition, preset))) setValue(name, given, { shouldDirty: true, shouldValidate: false });
    setFilled(preset);
  };

  return (
    <FormControl sx={{ mb: 2 }} fullWidth>
      <FormLabel id={`${helpId}-label`} sx={{ mb: 1 }}>{label}</FormLabel>
      <Box>
        {/* named by the label beside it (above it on a phone): no second label inside the outline */}
        <TextField
          select
          size="small"
          id={`${helpId}-select`}
          value={choices.some((choice) => choice.id === value) ? value : ''}
          onChange={(event) => choose(event.target.value)}
          onBlur={input.onBlur}
          fullWidth
          slotProps={{ select: { labelId: `${helpId}-label`, SelectDisplayProps: { 'aria-describedby': `${helpId}-help` } as object } }}
        >
          {choices.map((choice) => (
            <MenuItem key={choice.id} value={choice.id}>{choice.name}</MenuItem>
          ))}
        </TextField>
        {column?.help && <FormHelperText id={`${helpId}-help`} sx={{ mx: 0 }}>{t(column.help)}</FormHelperText>}
        {presets.error ? (
          <Alert severity="warning" sx={{ mt: 1 }}>{tr('presetsFailed', { message: translate(errorMessageOf(presets.error), { _: errorMessageOf(presets.error) }) })}</Alert>
        ) : null}
        {filled && (
          <Alert severity="info" sx={{ mt: 1 }} role="status">
            {tr('presetFilled', { title: filled.title })}
          </Alert>
        )}
        {chosen && Object.keys(chosen.fields).length === 0 && (
          <FormHelperText sx={{ mx: 0 }}>{tr('presetNone')}</FormHelperText>
        )}
        {chosen?.source.document && <PresetSource preset={chosen} />}
        <ProviderAddressList definition={definition} />
      </Box>
    </FormControl>
  );
}
