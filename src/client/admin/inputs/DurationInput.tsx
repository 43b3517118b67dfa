import { FormControl, FormHelperText, FormLabel, Stack, TextField } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { InputHelperText, useInput, useLocale, useTranslate } from 'react-admin';
import { DURATION_UNITS, durationParts, durationText, unitSeconds, type DurationUnit } from '../../../contract/durations.js';
import { SMALL_LABEL } from './input-props.js';

interface DurationInputProps {
  source: string;
  label: string;
  /** the least and most seconds the server takes */
  bounds: { min: number; max: number };
  required?: boolean;
  helperText?: string;
}

interface Entry {
  amount: string;
  unit: DurationUnit;
}

/** The stored seconds as the person reads them: 259200 → 3 days; anything else as it is, in seconds. */
function entryOf(value: unknown): Entry {
  const seconds = Number(value);
  if (value === '' || value === null || value === undefined || !Number.isSafeInteger(seconds) || seconds <= 0) return { amount: value == null ? '' : String(value), unit: 'hour' };
  const { amount, unit } = durationParts(seconds);
  return { amount: String(amount), unit };
}

/** What the person typed, in seconds: a whole number of them, or undefined when it is not one. */
function secondsOf(entry: Entry): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(entry.amount.trim())) return undefined;
  const seconds = Number(entry.amount) * unitSeconds(entry.unit);
  // 1.5 hours is 5400 seconds; 0.001 minutes is no whole number of them
  const rounded = Math.round(seconds);
  return Math.abs(seconds - rounded) < 1e-6 ? rounded : undefined;
}

/**
 * A duration the server keeps in seconds (a token lifetime), typed as a number with its unit chosen
 * beside it (days, hours, minutes, seconds). The form holds the seconds; what was typed that is no
 * whole number of seconds within the bounds is refused on the field, in words ("1 minute to 30 days").
 */
export function DurationInput({ source, label, bounds, required = false, helperText }: DurationInputProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const rangeMessage = translate('config.duration.range', { min: durationText(bounds.min, locale), max: durationText(bounds.max, locale) });
  const validate = useMemo(() => {
    const check = (value: unknown) => {
      // untouched, the value is as the server sent it: the stored text of the seconds
      const seconds = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
      return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds >= bounds.min && seconds <= bounds.max ? undefined : rangeMessage;
    };
    return required ? Object.assign(check, { isRequired: true }) : check;
  }, [bounds, rangeMessage, required]);
  const { id, field, fieldState } = useInput({ source, validate, parse: (value: unknown) => value });
  const [entry, setEntry] = useState<Entry>(() => entryOf(field.value));
  const written = useRef<unknown>(field.value);

  // A value set from outside (the form reset after a save) replaces what is shown.
  useEffect(() => {
    if (field.value !== written.current) {
      written.current = field.value;
      setEntry(entryOf(field.value));
    }
  }, [field.value]);

  const update = (next: Entry) => {
    setEntry(next);
    // not a whole number of seconds: the typed text stays the value, which the check refuses
    const value = secondsOf(next) ?? next.amount;
    written.current = value;
    field.onChange(value);
  };
  const error = fieldState.error?.message;
  return (
    <FormControl error={!!error} required={required} data-widget="duration" sx={{ mb: 1 }}>
      <FormLabel htmlFor={id} sx={SMALL_LABEL}>{label}</FormLabel>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          id={id}
          size="small"
          value={entry.amount}
          error={!!error}
          onChange={(event) => update({ ...entry, amount: event.target.value })}
          onBlur={field.onBlur}
          inputRef={field.ref}
          sx={{ flex: '1 1 8rem', maxWidth: '14rem' }}
          slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-describedby': `${id}-help`, 'aria-invalid': !!error } }}
        />
        <TextField
          select
          size="small"
          value={entry.unit}
          // the number stays as typed: 2, then hours, is 2 hours
          onChange={(event) => update({ ...entry, unit: DURATION_UNITS.find(({ unit }) => unit === event.target.value)?.unit ?? entry.unit })}
          onBlur={field.onBlur}
          sx={{ flex: '0 1 9rem' }}
          slotProps={{ select: { native: true }, htmlInput: { 'aria-label': translate('config.duration.unit') } }}
        >
          {DURATION_UNITS.map(({ unit }) => (
            <option key={unit} value={unit}>
              {translate(`config.duration.units.${unit}`)}
            </option>
          ))}
        </TextField>
      </Stack>
      <FormHelperText id={`${id}-help`}>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
