import { Chip, Stack } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { FieldDefinition } from '../../../schema/definition.js';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { chipColorOf, optionLabel } from './enum-options.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { listOf } from './value-format.js';

/** The text of one value: its option label, or for a yes/no field without labels, "Yes" / "No". */
function useValueLabel(field: FieldDefinition): (value: unknown) => string {
  const t = useSchemaTranslate();
  const translate = useTranslate();
  return (value) => {
    if (field.wireType === 'boolean' && field.ui.options?.[String(value)] === undefined) {
      return translate(value === true || value === 1 || value === '1' ? 'ra.boolean.true' : 'ra.boolean.false');
    }
    return t(optionLabel(field, value));
  };
}

/** One value as a chip: its label, in the colour of its meaning (neutral when the schema gives none). */
export function ValueChip({ field, value }: { field: FieldDefinition; value: unknown }) {
  const label = useValueLabel(field);
  return <Chip size="small" variant="outlined" color={chipColorOf(field, value)} label={label(value)} />;
}

/** An enum value (or a yes/no flag) as a coloured tag with its translated label. */
export function TagField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const value = valueAt(record, field.name);
  if (value === null || value === undefined || value === '') return null;
  return <ValueChip field={field} value={value} />;
}

/** A list (array or comma-separated text) as one tag per item. */
export function TagsField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const items = listOf(valueAt(record, field.name));
  if (items.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {items.map((item, index) => (
        <ValueChip key={`${item}-${index}`} field={field} value={item} />
      ))}
    </Stack>
  );
}
