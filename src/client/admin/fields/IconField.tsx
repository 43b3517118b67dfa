import { Box, Tooltip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { NamedIcon } from '../../components/icons/index.js';

/** A rule icon name drawn as its icon; the name is the tooltip, and the icon's accessible name. */
export function IconField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const name = valueAt(record, field.name);
  if (typeof name !== 'string' || name === '') return null;
  return <IconByName name={name} />;
}

export function IconByName({ name, fontSize = 'small' }: { name: string; fontSize?: 'small' | 'medium' | 'large' | 'inherit' }) {
  return (
    <Tooltip title={name} describeChild>
      <Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle' }} data-icon={name}>
        <NamedIcon name={name} fontSize={fontSize} aria-label={name} />
      </Box>
    </Tooltip>
  );
}
