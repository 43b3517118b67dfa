import DeleteIcon from '@mui/icons-material/Close';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import UploadIcon from '@mui/icons-material/Upload';
import { Avatar, Box, Button, FormControl, FormHelperText, FormLabel, IconButton, LinearProgress, Link, Stack, Typography } from '@mui/material';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { InputHelperText, useInput, useNotify, useTranslate } from 'react-admin';
import { fileNameOf, fullUrl, listOf } from '../fields/value-format.js';
import { errorMessageOf } from '../resources/error-report.js';
import { useSiteConfig } from '../site-config-context.js';
import { uploadFile } from './admin-ajax.js';
import { keepValue, requiredMark } from './input-props.js';
import { acceptOf, checkUpload } from './upload-check.js';

interface UploadInputProps {
  source: string;
  label: string;
  kind: 'image' | 'file';
  multiple?: boolean;
  /** how several URLs are stored: an array, or comma-separated text */
  shape?: 'array' | 'csv';
  required?: boolean;
  helperText?: string;
}

/**
 * Image(s) / file(s): files are checked against `siteConfig.upload` before they leave (docs/client.md#validation-before-sending), sent
 * one by one to `/admin/ajax/upload` with a progress bar, and the field keeps the returned relative
 * `url`s (one, a list, or comma-separated text).
 */
export function UploadInput({ source, label, kind, multiple = false, shape = 'array', required = false, helperText }: UploadInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const { upload, cdnUrl } = useSiteConfig();
  const notify = useNotify();
  const translate = useTranslate();
  const inputId = useId();
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const urls = listOf(field.value);
  const write = (next: string[]) => {
    if (!multiple) field.onChange(next[next.length - 1] ?? '');
    else field.onChange(shape === 'csv' ? next.join(',') : next);
    field.onBlur();
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    let next = multiple ? [...urls] : urls;
    setProblem(undefined);
    for (const file of files) {
      const refused = checkUpload(file, upload);
      if (refused) {
        const message = translate(`generated.upload.${refused}`);
        setProblem(message);
        notify(message, { type: 'error' });
        continue;
      }
      setProgress(0);
      try {
        const uploaded = await uploadFile(file, setProgress);
        next = multiple ? [...next, uploaded.url] : [uploaded.url];
        write(next);
      } catch (error) {
        // The http client has toasted it already; the message also stays under the field.
        setProblem(translate(errorMessageOf(error), { _: errorMessageOf(error) }));
      } finally {
        setProgress(undefined);
      }
    }
  };

  const remove = (index: number) => write(urls.filter((_url, position) => position !== index));
  const error = fieldState.error?.message ?? problem;
  const pickLabel = translate(kind === 'image' ? 'generated.upload.chooseImage' : 'generated.upload.chooseFile');

  return (
    <FormControl error={!!error} required={required} sx={{ mb: 2, minWidth: 240 }} data-widget={`upload-${kind}`}>
      <FormLabel htmlFor={inputId} sx={{ mb: 1 }}>{label}</FormLabel>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {urls.map((url, index) => (
          <Box key={`${url}-${index}`} sx={{ position: 'relative', display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            {kind === 'image' ? (
              <Avatar variant="rounded" src={fullUrl(url, cdnUrl)} alt={fileNameOf(url)} sx={{ width: 64, height: 64 }} />
            ) : (
              <Link href={fullUrl(url, cdnUrl)} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                <InsertDriveFileIcon fontSize="small" />
                {fileNameOf(url)}
              </Link>
            )}
            <IconButton size="small" aria-label={translate('ra.action.remove')} onClick={() => remove(index)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Box>
        ))}
        <Button variant="outlined" size="small" startIcon={<UploadIcon />} onClick={() => picker.current?.click()} disabled={progress !== undefined}>
          {pickLabel}
        </Button>
        <input
          ref={picker}
          id={inputId}
          type="file"
          hidden
          multiple={multiple}
          accept={acceptOf(kind, upload)}
          onChange={onPick}
          aria-label={label}
        />
      </Stack>
      {progress !== undefined && (
        <Box sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress variant="determinate" value={progress} sx={{ flex: 1 }} aria-label={pickLabel} />
          <Typography variant="caption">{Math.round(progress)}%</Typography>
        </Box>
      )}
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
