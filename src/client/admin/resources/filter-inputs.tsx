import { Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import { useInput } from 'react-admin';
import { formatDateTime } from '../fields/value-format.js';
import { DateTextField } from '../../components/DateTextField.js';

// With the inputs above, the other inputs a filter may take: one chunk, loaded when a filter is shown.
export { NumberInput, SelectArrayInput, SelectInput, TextInput } from 'react-admin';
export { RemoteSelectInput } from '../inputs/RemoteSelectInput.js';

/** What every filter input takes; `alwaysOn` is read by react-admin's filter form, not by the input. */
interface FilterInputProps {
  source: string;
  label: string;
  alwaysOn?: boolean;
}

interface RangeFilterInputProps extends FilterInputProps {
  /** datetime-local pickers (values sent as `YYYY-MM-DD HH:mm:ss`), else numbers */
  kind: 'datetime' | 'number';
}

function toPicker(value: unknown, kind: RangeFilterInputProps['kind']): string {
  if (value === null || value === undefined || value === '') return '';
  return kind === 'datetime' ? formatDateTime(value).replace(' ', 'T') : String(value);
}

function fromPicker(text: string, kind: RangeFilterInputProps['kind']): string {
  if (!text) return '';
  if (kind !== 'datetime') return text;
  const withSeconds = /T\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
  return withSeconds.replace('T', ' ');
}

/**
 * A `RANGE` / `NOT RANGE` filter: from and to, either may stay empty (a half-open range); the value
 * is `[from, to]`, which the data provider joins as `"from,to"`. Both empty removes the filter.
 */
export function RangeFilterInput({ source, label, kind }: RangeFilterInputProps) {
  const { field } = useInput({ source, parse: (value: unknown) => value, format: (value: unknown) => value });
  const [from, to] = Array.isArray(field.value) ? field.value : typeof field.value === 'string' ? field.value.split(',') : ['', ''];
  const write = (next: [string, string]) => field.onChange(next[0] === '' && next[1] === '' ? null : next);
  const slotProps = { htmlInput: { step: 1 }, inputLabel: { shrink: true } };
  const bound = (side: 0 | 1) => {
    const props = { size: 'small' as const, label: `${label} ${side === 0 ? '≥' : '≤'}` };
    const change = (text: string) => write(side === 0 ? [fromPicker(text, kind), String(to ?? '')] : [String(from ?? ''), fromPicker(text, kind)]);
    const value = side === 0 ? from : to;
    return kind === 'datetime' ? (
      <DateTextField {...props} kind="datetime" value={toPicker(value, kind)} onChange={change} />
    ) : (
      <TextField {...props} type="number" value={toPicker(value, kind)} onChange={(event) => change(event.target.value)} slotProps={slotProps} />
    );
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-filter={source}>
      {bound(0)}
      {bound(1)}
    </Stack>
  );
}

/** `NULL` / `NOT NULL`: ticked sends `true`; unticked removes the filter. */
export function FlagFilterInput({ source, label }: FilterInputProps) {
  const { field } = useInput({ source });
  return (
    <FormControlLabel
      sx={{ mb: 0.5 }}
      label={label}
      control={<Checkbox size="small" checked={field.value === true || field.value === 'true'} onChange={(event) => field.onChange(event.target.checked ? true : null)} />}
    />
  );
}

/** One datetime (operators other than ranges on a datetime column): sent as `YYYY-MM-DD HH:mm:ss`. */
export function DateTimeFilterInput({ source, label }: FilterInputProps) {
  const { field } = useInput({ source });
  return (
    <DateTextField size="small" kind="datetime" label={label} value={toPicker(field.value, 'datetime')} onChange={(text) => field.onChange(fromPicker(text, 'datetime') || null)} />
  );
}
