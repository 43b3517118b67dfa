import { Chip, Stack } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import type { FieldDefinition } from '../../../schema/definition.js';
import { enumIndex, optionColor, optionLabel } from './enum-options.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { listOf } from './value-format.js';

const COLOURS = ['primary', 'success', 'warning', 'error', 'info', 'secondary', 'default'] as const;

/** The schema's colour for the value (BuildAdmin's `danger` is MUI's `error`), else one by its place in the enum. */
function colourOf(field: FieldDefinition, value: unknown): (typeof COLOURS)[number] {
  const given = optionColor(field, value);
  if (given) return given === 'danger' ? 'error' : given;
  if (!field.enum) return 'primary';
  const index = enumIndex(field, value);
  return index < 0 ? 'default' : COLOURS[index % COLOURS.length];
}

/** An enum value as a coloured tag with its translated label. */
export function TagField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const t = useSchemaTranslate();
  const value = valueAt(record, field.name);
  if (value === null || value === undefined || value === '') return null;
  return <Chip size="small" variant="outlined" color={colourOf(field, value)} label={t(optionLabel(field, value))} />;
}

/** A list (array or comma-separated text) as one tag per item. */
export function TagsField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const t = useSchemaTranslate();
  const items = listOf(valueAt(record, field.name));
  if (items.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {items.map((item, index) => (
        <Chip key={`${item}-${index}`} size="small" variant="outlined" color={colourOf(field, item)} label={t(optionLabel(field, item))} />
      ))}
    </Stack>
  );
}
