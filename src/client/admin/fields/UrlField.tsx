import { Link } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useSiteConfig } from '../site-config-context.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { ONE_LINE_SX } from './TextValueField.js';
import { fileNameOf, fullUrl, listOf } from './value-format.js';

/** A URL as a link opening in a new window; file widgets show the file name. */
export function UrlField({ field }: SchemaFieldProps) {
  const record = useRecordContext();
  const { cdnUrl } = useSiteConfig();
  const value = valueAt(record, field.name);
  const isFile = field.ui.render === 'file' || field.ui.render === 'files' || field.ui.widget === 'file' || field.ui.widget === 'files';
  const urls = isFile ? listOf(value) : typeof value === 'string' && value ? [value] : [];
  return (
    <>
      {urls.map((url, index) => (
        <Link key={`${url}-${index}`} href={isFile ? fullUrl(url, cdnUrl) : url} title={url} target="_blank" rel="noopener noreferrer" sx={ONE_LINE_SX} onClick={(event) => event.stopPropagation()}>
          {isFile ? fileNameOf(url) : url}
        </Link>
      ))}
    </>
  );
}
