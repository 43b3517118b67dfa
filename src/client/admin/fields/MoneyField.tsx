import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { formatMoney } from './value-format.js';

/** Amounts travel as "12.50" (yuan); printed with two decimals, aligned as numbers. */
export function MoneyField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatMoney(valueAt(record, field.name))}
    </Typography>
  );
}
