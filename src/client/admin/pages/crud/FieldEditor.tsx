import { useEffect, useState } from 'react';
import { Box, Button, Checkbox, FormControlLabel, FormGroup, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { useLocaleState, useTranslate } from 'react-admin';
import { isOneOf } from '../../../../contract/checks.js';
import { crudApi } from './crud-api.js';
import { CHOICE_TYPES, DESIGN_TYPES, FIELD_FORMATS, labelIn, SINGLE_CHOICE_TYPES, NAME_PATTERN, OPERATOR_KEYS, OPERATORS, OPTION_COLORS, REMOTE_TYPES, SIZED_TYPES, type DesignType, type FieldDraft, type OptionDesign } from './design-model.js';

/** One field's settings: name, both labels, type, checks, default, list column and form visibility. */

const GRID = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

function OptionsEditor({ options, onChange }: { options: OptionDesign[]; onChange(options: OptionDesign[]): void }) {
  const translate = useTranslate();
  const set = (index: number, patch: Partial<OptionDesign>) => onChange(options.map((option, at) => (at === index ? { ...option, ...patch } : option)));
  return (
    <Stack spacing={1} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, m: 0 }}>
      <Typography component="legend" variant="body2" sx={{ px: 0.5 }}>
        {translate('crud.field.options')}
      </Typography>
      {options.map((option, index) => (
        <Box key={index} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', md: '1fr 1.3fr 1.3fr 1fr auto' }, alignItems: 'center' }}>
          <TextField size="small" label={translate('crud.field.optionValue')} value={option.value} onChange={(event) => set(index, { value: event.target.value.trim() })} slotProps={{ htmlInput: { maxLength: 40, 'aria-label': translate('crud.field.choice.value', { n: index + 1 }) } }} />
          <TextField size="small" label={translate('crud.field.labelZh')} value={option['zh-cn']} onChange={(event) => set(index, { 'zh-cn': event.target.value })} slotProps={{ htmlInput: { 'aria-label': translate('crud.field.choice.zh', { n: index + 1 }) } }} />
          <TextField size="small" label={translate('crud.field.labelEn')} value={option.en} onChange={(event) => set(index, { en: event.target.value })} slotProps={{ htmlInput: { 'aria-label': translate('crud.field.choice.en', { n: index + 1 }) } }} />
          <TextField size="small" select label={translate('crud.field.color')} value={option.color} onChange={(event) => { if (isOneOf(OPTION_COLORS, event.target.value)) set(index, { color: event.target.value }); }}>
            {OPTION_COLORS.map((color) => (
              <MenuItem key={color} value={color}>
                {translate(`crud.colors.${color || 'default'}`)}
              </MenuItem>
            ))}
          </TextField>
          <IconButton aria-label={`${translate('crud.field.removeOption')}: ${option.value}`} onClick={() => onChange(options.filter((_, at) => at !== index))} disabled={options.length <= 1}>
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...options, { value: `v${options.length + 1}`, 'zh-cn': '', en: '', color: '' }])}>
          {translate('crud.field.addOption')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The related resource (a table some schema declares) and the field shown as its label. */
function RemoteEditor({ field, onChange }: { field: FieldDraft; onChange(patch: Partial<FieldDraft>): void }) {
  const translate = useTranslate();
  const [tables, setTables] = useState<{ table: string; comment: string }[]>([]);
  const [columns, setColumns] = useState<Record<string, string>>({});
  useEffect(() => {
    crudApi.tables().then((list) => setTables(list.filter((item) => item.comment)), () => setTables([]));
  }, []);
  useEffect(() => {
    if (!field.remoteTable) return setColumns({});
    let alive = true;
    crudApi.tableFields(field.remoteTable).then(
      (list) => alive && setColumns(list),
      () => alive && setColumns({}),
    );
    return () => {
      alive = false;
    };
  }, [field.remoteTable]);
  return (
    <Box sx={GRID}>
      <TextField select label={translate('crud.field.remoteTable')} value={tables.some((item) => item.table === field.remoteTable) ? field.remoteTable : ''} onChange={(event) => onChange({ remoteTable: event.target.value, remoteField: '' })}>
        {tables.map((item) => (
          <MenuItem key={item.table} value={item.table}>
            {`${item.comment} (${item.table})`}
          </MenuItem>
        ))}
      </TextField>
      <TextField select label={translate('crud.field.remoteField')} value={field.remoteField in columns ? field.remoteField : ''} onChange={(event) => onChange({ remoteField: event.target.value })} disabled={!field.remoteTable}>
        {Object.entries(columns).map(([name, comment]) => (
          <MenuItem key={name} value={name}>
            {comment && comment !== name ? `${comment} (${name})` : name}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}

interface FieldEditorProps {
  field: FieldDraft;
  onChange(patch: Partial<FieldDraft>): void;
}

export function FieldEditor({ field, onChange }: FieldEditorProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const nameError = !NAME_PATTERN.test(field.name);
  const check = (key: 'required' | 'unique' | 'inList' | 'sortable' | 'inForm') => (
    <FormControlLabel key={key} control={<Checkbox checked={field[key]} onChange={(event) => onChange({ [key]: event.target.checked })} />} label={translate(`crud.field.${key}`)} />
  );
  const setType = (designType: DesignType) =>
    onChange({
      designType,
      ...(CHOICE_TYPES.has(designType) && field.options.length === 0 ? { options: [{ value: 'a', 'zh-cn': '', en: '', color: '' }, { value: 'b', 'zh-cn': '', en: '', color: '' }] } : {}),
    });
  return (
    <Stack spacing={2} component="section" aria-label={translate('crud.field.title', { name: field.name || translate('crud.fields.unnamed') })}>
      <Box sx={GRID}>
        <TextField
          label={translate('crud.field.name')}
          value={field.name}
          required
          error={nameError}
          helperText={nameError ? translate('crud.problems.fieldName', { name: field.name || '?' }) : field.originalName && field.originalName !== field.name ? translate('crud.field.renamed', { name: field.originalName }) : ' '}
          onChange={(event) => onChange({ name: event.target.value.trim() })}
          slotProps={{ htmlInput: { maxLength: 40, spellCheck: false, autoCapitalize: 'none' } }}
        />
        <TextField select label={translate('crud.field.type')} value={field.designType} onChange={(event) => { if (isOneOf(DESIGN_TYPES, event.target.value)) setType(event.target.value); }} helperText=" ">
          {DESIGN_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {translate(`crud.types.${type}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField label={translate('crud.field.labelZh')} value={field.label['zh-cn']} onChange={(event) => onChange({ label: { ...field.label, 'zh-cn': event.target.value } })} slotProps={{ htmlInput: { maxLength: 100 } }} />
        <TextField label={translate('crud.field.labelEn')} value={field.label.en} onChange={(event) => onChange({ label: { ...field.label, en: event.target.value } })} slotProps={{ htmlInput: { maxLength: 100 } }} />
        {SINGLE_CHOICE_TYPES.has(field.designType) ? (
          // a single choice's default is one of its options (or none): nothing else could be generated
          <TextField
            select
            label={translate('crud.field.default')}
            value={field.options.some((option) => option.value === field.defaultValue) ? field.defaultValue : ''}
            onChange={(event) => onChange({ defaultValue: event.target.value })}
            helperText={translate('crud.field.defaultHelp')}
          >
            <MenuItem value="">{translate('crud.field.noDefault')}</MenuItem>
            {field.options.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {labelIn(option, locale) || option.value}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField label={translate('crud.field.default')} value={field.defaultValue} onChange={(event) => onChange({ defaultValue: event.target.value })} helperText={translate('crud.field.defaultHelp')} />
        )}
        <TextField select label={translate('crud.field.format')} value={field.format} onChange={(event) => { if (isOneOf(FIELD_FORMATS, event.target.value)) onChange({ format: event.target.value }); }}>
          {FIELD_FORMATS.map((format) => (
            <MenuItem key={format} value={format}>
              {translate(`crud.formats.${format || 'none'}`)}
            </MenuItem>
          ))}
        </TextField>
        {SIZED_TYPES.has(field.designType) && (
          <TextField type="number" label={translate('crud.field.maxLength')} value={field.maxLength} onChange={(event) => onChange({ maxLength: Math.max(1, Math.min(2000, Number(event.target.value) || 1)) })} slotProps={{ htmlInput: { min: 1, max: 2000 } }} />
        )}
      </Box>
      {CHOICE_TYPES.has(field.designType) && <OptionsEditor options={field.options} onChange={(options) => onChange({ options })} />}
      {REMOTE_TYPES.has(field.designType) && <RemoteEditor field={field} onChange={onChange} />}
      <FormGroup row aria-label={translate('crud.field.checks')}>
        {check('required')}
        {check('unique')}
        {check('inForm')}
      </FormGroup>
      <Box sx={GRID}>
        <FormGroup row aria-label={translate('crud.field.column')}>
          {check('inList')}
          {check('sortable')}
        </FormGroup>
        <TextField select label={translate('crud.field.operator')} value={field.operator} onChange={(event) => onChange({ operator: event.target.value })}>
          {OPERATORS.map((operator) => (
            <MenuItem key={operator} value={operator}>
              {translate(`crud.operators.${OPERATOR_KEYS[operator]}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
    </Stack>
  );
}
