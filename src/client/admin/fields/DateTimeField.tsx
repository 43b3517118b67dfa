import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { formatDateTime } from './value-format.js';

/** Unix seconds (or a date string) as `YYYY-MM-DD HH:mm:ss`; a date-only field as `YYYY-MM-DD`. */
export function DateTimeField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const dateOnly = field.format === 'date' || field.ui.render === 'date';
  const text = formatDateTime(valueAt(record, field.name), dateOnly);
  // a narrow column puts the time under the date: the line breaks only at the space between them (no
  // break is allowed inside 2024-06-01 or 02:00:00, whose hyphens and colons sit between digits)
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'normal' }}>
      {text}
    </Typography>
  );
}
