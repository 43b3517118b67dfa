import { Avatar, Link, Stack } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { useSiteConfig } from '../site-config-context.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { fullUrl, listOf } from './value-format.js';

/** One or several images (array or comma-separated URLs) as small thumbnails linking to the file. */
export function ImageField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const { cdnUrl } = useSiteConfig();
  const t = useSchemaTranslate();
  const urls = listOf(valueAt(record, field.name));
  if (urls.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.5}>
      {urls.map((url, index) => (
        <Link key={`${url}-${index}`} href={fullUrl(url, cdnUrl)} target="_blank" rel="noopener noreferrer" onClick={(event) => event.stopPropagation()}>
          <Avatar variant="rounded" src={fullUrl(url, cdnUrl)} alt={t(field.title)} sx={{ width: 36, height: 36 }} />
        </Link>
      ))}
    </Stack>
  );
}
