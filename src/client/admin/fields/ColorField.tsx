import { Box, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { valueAt, type SchemaFieldProps } from './field-props.js';

/** A colour as a swatch plus its code. */
export function ColorField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const value = valueAt(record, field.name);
  if (typeof value !== 'string' || value === '') return null;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      <Box component="span" aria-hidden sx={{ width: 16, height: 16, borderRadius: 0.5, border: 1, borderColor: 'divider', bgcolor: value }} />
      <Typography component="span" variant="body2">{value}</Typography>
    </Box>
  );
}
