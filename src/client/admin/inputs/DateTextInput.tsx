import { InputHelperText, useInput, type Validator } from 'react-admin';
import { DateTextField, type DateKind } from '../../components/DateTextField.js';

interface DateTextInputProps {
  source: string;
  label: string;
  kind: DateKind;
  helperText?: string;
  validate?: Validator;
  /** stored value → the field's text */
  format(value: unknown): string;
  /** the field's text → the wire value */
  parse(text: string): unknown;
}

/** A form's date or date-time: `YYYY-MM-DD` text in every language (`DateTextField`). */
export function DateTextInput({ source, label, kind, helperText, validate, format, parse }: DateTextInputProps) {
  const { field, fieldState, isRequired } = useInput({ source, format, parse, validate });
  const error = fieldState.error?.message;
  return (
    <DateTextField
      kind={kind}
      name={field.name}
      value={field.value}
      onChange={(text) => field.onChange(text)}
      onBlur={field.onBlur}
      label={label}
      required={isRequired}
      size="small"
      margin="dense"
      error={!!error}
      helperText={<InputHelperText error={error} helperText={helperText} />}
      data-widget={kind}
    />
  );
}
