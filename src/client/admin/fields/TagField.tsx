import { Chip, Stack } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { enumIndex, optionLabelKey } from './enum-options.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { listOf } from './value-format.js';

const COLOURS = ['primary', 'success', 'warning', 'error', 'info', 'secondary', 'default'] as const;

function colourOf(index: number): (typeof COLOURS)[number] {
  return index < 0 ? 'default' : COLOURS[index % COLOURS.length];
}

/** An enum value as a coloured tag with its translated label. */
export function TagField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const t = useSchemaTranslate();
  const value = valueAt(record, field.name);
  if (value === null || value === undefined || value === '') return null;
  return <Chip size="small" variant="outlined" color={colourOf(enumIndex(field, value))} label={t(optionLabelKey(field, value))} />;
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
        <Chip key={`${item}-${index}`} size="small" variant="outlined" color={field.enum ? colourOf(enumIndex(field, item)) : 'primary'} label={t(optionLabelKey(field, item))} />
      ))}
    </Stack>
  );
}
