import { BooleanInput } from 'react-admin';
import { isSwitchOn, switchValues } from '../fields/enum-options.js';
import { markIf, type SchemaInputProps } from './input-props.js';

/** A switch writing the field's own on/off values (`"1"`/`"0"`, `1`/`0`, `"enable"`/`"disable"`). */
export function SwitchInput({ field, label, required, helperText }: SchemaInputProps) {
  const values = switchValues(field);
  return (
    <BooleanInput
      source={field.name}
      label={label}
      helperText={helperText}
      validate={markIf(required)}
      format={(value: unknown) => isSwitchOn(field, value)}
      parse={(checked: boolean) => (checked ? values.on : values.off)}
    />
  );
}
