import { FormControl, FormHelperText, FormLabel, Switch } from '@mui/material';
import type { ReactNode, Ref } from 'react';
import { InputHelperText, useInput } from 'react-admin';
import { isSwitchOn, switchValues } from '../fields/enum-options.js';
import { markIf, SMALL_LABEL, type SchemaInputProps } from './input-props.js';

interface SwitchFieldProps {
  /** the switch's id, which its label names */
  id: string;
  label: string;
  required?: boolean;
  checked: boolean;
  disabled?: boolean;
  error?: string;
  helperText?: ReactNode;
  /** beside the switch (the config screen says what an environment variable makes it) */
  after?: ReactNode;
  describedBy?: string;
  onChange?(checked: boolean): void;
  onBlur?(): void;
  inputRef?: Ref<HTMLInputElement>;
  name?: string;
}

/**
 * A switch laid out as every other input: its label a `<label>` child of the form control, so the forms'
 * label column (form-layout.ts) holds it at the left as it holds a text box's or a radio group's, and a
 * phone shows it above the switch. The label names the switch (for), so its accessible name is the label.
 */
export function SwitchField({ id, label, required = false, checked, disabled, error, helperText, after, describedBy, onChange, onBlur, inputRef, name }: SwitchFieldProps) {
  return (
    <FormControl error={!!error} required={required} disabled={disabled} data-widget="switch" sx={{ mb: 1 }}>
      <FormLabel htmlFor={id} sx={SMALL_LABEL}>{label}</FormLabel>
      <div>
        <Switch
          // the track, not the ripple's padding, starts where the inputs do
          edge="start"
          id={id}
          name={name}
          checked={checked}
          disabled={disabled}
          inputRef={inputRef}
          onChange={(event) => onChange?.(event.target.checked)}
          onBlur={onBlur}
          slotProps={{ input: describedBy ? { 'aria-describedby': describedBy } : {} }}
        />
        {after}
      </div>
      {(helperText || error) && (
        <FormHelperText sx={{ mt: 0 }}>
          <InputHelperText error={error} helperText={helperText} />
        </FormHelperText>
      )}
    </FormControl>
  );
}

/** A switch writing the field's own on/off values (`"1"`/`"0"`, `1`/`0`, `"enable"`/`"disable"`). */
export function SwitchInput({ field, label, required, helperText }: SchemaInputProps) {
  const values = switchValues(field);
  const { id, field: input, fieldState } = useInput({
    source: field.name,
    validate: markIf(required),
    type: 'checkbox',
    format: (value: unknown) => isSwitchOn(field, value),
    parse: (checked: boolean) => (checked ? values.on : values.off),
  });
  return (
    <SwitchField
      id={id}
      name={input.name}
      label={label}
      required={required}
      checked={Boolean(input.value)}
      inputRef={input.ref}
      error={fieldState.error?.message}
      helperText={helperText}
      onChange={(checked) => {
        input.onChange(checked);
        // a switch is done with once flipped: its check runs now, as a text box's does on blur
        input.onBlur();
      }}
      onBlur={input.onBlur}
    />
  );
}
