import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import { Button, FormControl, FormHelperText, FormLabel, IconButton, MenuItem, Stack, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { keepValue, requiredMark } from './input-props.js';

/** Key and value share the row's width, so a row fits a phone's form beside its remove button. */
const CELL_SX = { flex: '1 1 0', minWidth: 0 } as const;

interface KeyValueRow {
  key: string;
  value: string;
}

/** Stored value → rows: an object `{key: value}` or a list of `{key, value}`. */
function rowsOf(value: unknown): KeyValueRow[] {
  if (Array.isArray(value)) {
    return value
      .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
      .map((item) => ({ key: String(item.key ?? ''), value: String(item.value ?? '') }));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).map(([key, item]) => ({ key, value: typeof item === 'string' ? item : JSON.stringify(item) }));
  }
  return [];
}

/** Rows → stored value; rows without a key are left out. */
function valueOfRows(rows: readonly KeyValueRow[], shape: 'object' | 'list'): Record<string, string> | KeyValueRow[] {
  const kept = rows.filter((row) => row.key.trim() !== '');
  return shape === 'list' ? kept.map((row) => ({ key: row.key, value: row.value })) : Object.fromEntries(kept.map((row) => [row.key, row.value]));
}

interface KeyValueInputProps {
  source: string;
  label: string;
  shape: 'object' | 'list';
  required?: boolean;
  helperText?: string;
  /** the values a row may map to, labelled (the field's `x-ui.options`); without them the value is free text */
  valueChoices?: readonly { id: string | number; name: string }[];
  /** what the two columns hold, in the reader's language (the field's `x-ui.columns`); default "Key" and "Value" */
  columnTitles?: { key?: string; value?: string };
}

/** BuildAdmin's `array` type: rows of key and value, added and removed freely. */
export function KeyValueInput({ source, label, shape, required = false, helperText, valueChoices, columnTitles }: KeyValueInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const translate = useTranslate();
  const [rows, setRows] = useState<KeyValueRow[]>(() => rowsOf(field.value));
  const written = useRef(JSON.stringify(valueOfRows(rows, shape)));

  // A value set from outside (a record loaded, a form reset) replaces the rows being edited.
  useEffect(() => {
    const incoming = JSON.stringify(valueOfRows(rowsOf(field.value), shape));
    if (incoming !== written.current) {
      written.current = incoming;
      setRows(rowsOf(field.value));
    }
  }, [field.value, shape]);

  const update = (next: KeyValueRow[]) => {
    setRows(next);
    const value = valueOfRows(next, shape);
    written.current = JSON.stringify(value);
    field.onChange(value);
  };
  const keyText = columnTitles?.key ?? translate('generated.array.key');
  const valueText = columnTitles?.value ?? translate('generated.array.value');
  const error = fieldState.error?.message;

  return (
    <FormControl error={!!error} required={required} sx={{ mb: 2 }} data-widget="array">
      <FormLabel sx={{ mb: 1 }}>{label}</FormLabel>
      <Stack spacing={1}>
        {rows.map((row, index) => (
          <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField size="small" label={keyText} value={row.key} sx={CELL_SX} onBlur={field.onBlur} onChange={(event) => update(rows.map((item, position) => (position === index ? { ...item, key: event.target.value } : item)))} />
            <TextField
              size="small"
              label={valueText}
              value={row.value}
              select={!!valueChoices}
              sx={CELL_SX}
              onBlur={field.onBlur}
              onChange={(event) => update(rows.map((item, position) => (position === index ? { ...item, value: event.target.value } : item)))}
            >
              {valueChoices?.map((choice) => (
                <MenuItem key={String(choice.id)} value={String(choice.id)}>
                  {choice.name}
                </MenuItem>
              ))}
            </TextField>
            <IconButton size="small" aria-label={translate('ra.action.remove')} onClick={() => update(rows.filter((_row, position) => position !== index))}>
              <RemoveIcon fontSize="small" />
            </IconButton>
          </Stack>
        ))}
        <div>
          <Button size="small" startIcon={<AddIcon />} onClick={() => update([...rows, { key: '', value: '' }])}>
            {translate('ra.action.add')}
          </Button>
        </div>
      </Stack>
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
