import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { valueAt, type SchemaFieldProps } from './field-props.js';

/** A long value keeps its row one line high: cut with an ellipsis, the whole text on hover. */
export const ONE_LINE_SX = { display: 'block', maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** Plain values: text, numbers, booleans, lists joined, objects as JSON. */
export function TextValueField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const text = textOf(valueAt(record, field.name));
  return (
    <Typography component="span" variant="body2" title={text} sx={ONE_LINE_SX}>
      {text}
    </Typography>
  );
}

export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
