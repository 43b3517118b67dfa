import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { InputHelperText, useInput, type Validator } from 'react-admin';
import { basisPointsToPercent, parsePercent } from '../../../contract/money.js';

interface PercentInputProps {
  source: string;
  label: string;
  helperText?: string;
  validate?: Validator;
}

/** The text a form shows for the value it holds: a stored rate as its percentage, a text being typed as it is. */
function textOf(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return basisPointsToPercent(value);
  return typeof value === 'string' ? value : '';
}

/**
 * A rate kept in basis points (the schemas' `percent` format), typed as a percentage: "15" or "15.5" puts
 * 1500 or 1550 in the form, digit by digit. What is typed stays as typed ("15.0" while on its way to
 * "15.05"); a text that is no percentage stays text, which the form's schema check refuses with the
 * field's message, as it refuses a rate out of its bounds.
 */
export function PercentInput({ source, label, helperText, validate }: PercentInputProps) {
  const { field, fieldState, isRequired } = useInput({ source, validate, parse: (value: unknown) => value, format: (value: unknown) => value });
  const [text, setText] = useState(() => textOf(field.value));
  // The value this box last wrote: a value set from elsewhere (the record loading, a reset) replaces the text.
  const written = useRef<unknown>(field.value);
  useEffect(() => {
    if (field.value !== written.current) {
      written.current = field.value;
      setText(textOf(field.value));
    }
  }, [field.value]);
  const error = fieldState.error?.message;
  return (
    <TextField
      name={field.name}
      value={text}
      onChange={(event) => {
        const typed = event.target.value;
        const basisPoints = parsePercent(typed);
        const value = typed.trim() === '' ? '' : basisPoints ?? typed;
        setText(typed);
        written.current = value;
        field.onChange(value);
      }}
      onBlur={field.onBlur}
      label={label}
      required={isRequired}
      size="small"
      margin="dense"
      error={!!error}
      helperText={<InputHelperText error={error} helperText={helperText} />}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'data-widget': 'percent' },
        input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
      }}
    />
  );
}
