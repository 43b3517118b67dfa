import { Box, InputAdornment, TextField } from '@mui/material';
import type { ChangeEvent } from 'react';
import { InputHelperText, useInput } from 'react-admin';
import { keepValue, requiredMark } from './input-props.js';

interface ColorInputProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** A colour: the browser's colour picker beside a text box for any CSS colour code. */
export function ColorInput({ source, label, required = false, helperText }: ColorInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const value = typeof field.value === 'string' ? field.value : '';
  const error = fieldState.error?.message;
  return (
    <TextField
      name={field.name}
      value={value}
      onChange={(event) => field.onChange(event.target.value)}
      onBlur={field.onBlur}
      label={label}
      required={required}
      size="small"
      error={!!error}
      helperText={<InputHelperText error={error} helperText={helperText} />}
      data-widget="color"
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Box
                component="input"
                type="color"
                aria-label={label}
                value={HEX.test(value) ? value : '#000000'}
                onChange={(event: ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value)}
                sx={{ width: 28, height: 28, p: 0, border: 0, background: 'none', cursor: 'pointer' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
