import { TextField, type SxProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { InputHelperText, useInput } from 'react-admin';
import { keepValue, requiredMark } from './input-props.js';

export interface TextWidgetProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
}

/** A form value kept as free text: the bound field, its text ('' when unset) and its error message. */
export function useTextWidget({ source, required = false }: Pick<TextWidgetProps, 'source' | 'required'>) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const value = typeof field.value === 'string' ? field.value : '';
  return { field, value, error: fieldState.error?.message };
}

interface TextWidgetFieldProps extends TextWidgetProps {
  input: ReturnType<typeof useTextWidget>;
  /** `data-widget` of the box, which tests and styles find it by */
  widget: string;
  startAdornment?: ReactNode;
  endAdornment?: ReactNode;
  sx?: SxProps<Theme>;
}

/** The text box of a free-text widget, with what the widget draws beside the text (a swatch, an icon). */
export function TextWidgetField({ input, label, required = false, helperText, widget, startAdornment, endAdornment, sx }: TextWidgetFieldProps) {
  const { field, value, error } = input;
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
      sx={sx}
      data-widget={widget}
      slotProps={{ input: { startAdornment, endAdornment } }}
    />
  );
}
