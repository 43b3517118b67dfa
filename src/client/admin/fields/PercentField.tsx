import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { formatPercent } from '../../../contract/money.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';

/** Rates travel in basis points (1500); printed as the percentage a person reads ("15%"), aligned as numbers. */
export function PercentField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatPercent(valueAt(record, field.name))}
    </Typography>
  );
}
