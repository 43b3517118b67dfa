import { Fragment, type ReactElement } from 'react';
import {
  CheckboxGroupInput, NumberInput, PasswordInput, RadioButtonGroupInput, SelectArrayInput, SelectInput,
  TextArrayInput, TextInput, useRecordContext, useTranslate,
} from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import type { WriteMode } from '../../../schema/validate-input.js';
import { allowedValues, coerceToWire, enumChoices } from '../fields/enum-options.js';
import { referencedResourceName } from '../resources/resource-name.js';
import { useSchemaTranslate, type SchemaTranslate } from '../resources/schema-i18n.js';
import { CityInput } from './CityInput.js';
import { ColorInput } from './ColorInput.js';
import { fromDateTimeLocal, toDateTimeLocal, toWireTime } from './datetime-values.js';
import { DateTextInput } from './DateTextInput.js';
import { EditorInput } from './EditorInput.js';
import { IconInput } from './IconInput.js';
import { markIf, type SchemaInputProps } from './input-props.js';
import { PercentInput } from './PercentInput.js';
import { KeyValueInput } from './KeyValueInput.js';
import { RemoteSelectInput } from './RemoteSelectInput.js';
import { SwitchInput } from './SwitchInput.js';
import { UploadInput } from './UploadInput.js';
import { widgetOf } from '../../../schema/widget-of.js';
import { loadServerPack } from '../../i18n/server-messages.js';
import { currentLanguage } from '../../i18n/store-config.js';

// The inputs' messages (their checks, their hints) are the server pack's: fetched as soon as the inputs' code is here.
void loadServerPack(currentLanguage());

/** Required on this form: every schema-required field on add; on edit, secrets may stay blank. */
export function isRequiredOn(definition: ResourceDefinition, field: FieldDefinition, mode: WriteMode): boolean {
  const required = (definition.rowSchema.required ?? []) as string[];
  return required.includes(field.name) && !(mode === 'edit' && field.writeOnly);
}

/** Text keeps '' (react-admin would send null, which an edit reads as "unchanged"), unless the column is nullable. */
function textParse(field: FieldDefinition) {
  return (value: string) => (value === '' && field.nullable ? null : value);
}

interface SchemaInputOwnProps {
  field: FieldDefinition;
  definition: ResourceDefinition;
  mode: WriteMode;
  /** a hint under the input (a secret left blank on edit says so instead) */
  hint?: string;
}

/** The widget of one schema field, labelled with its translated title. */
export function SchemaInput({ field, definition, mode, hint }: SchemaInputOwnProps) {
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const record = useRecordContext();
  const required = isRequiredOn(definition, field, mode);
  const helperText = mode === 'edit' && field.writeOnly
    ? translate('generated.form.keepSecret')
    : (hint ?? (field.help ? t(field.help) : undefined));
  // An edit offers a status only the moves its transitions allow from the value loaded.
  const allowed = allowedValues(field, mode === 'edit' ? record?.[field.name] : undefined);
  return widgetFor({ field, definition, mode, label: t(field.title), required, helperText }, t, allowed);
}

function widgetFor(props: SchemaInputProps, t: SchemaTranslate, allowed: (value: string | number) => boolean = () => true): ReactElement {
  const { field, label, required, helperText } = props;
  const source = field.name;
  const validate = markIf(required);
  const common = { source, label, helperText, validate };
  const choices = enumChoices(field, props.definition)
    .filter((choice) => allowed(choice.id))
    .map((choice) => ({ id: choice.id, name: t(choice.name) }));
  const hasChoices = choices.length > 0;
  const parseChoice = (value: unknown) => coerceToWire(field, value);
  const parseChoices = (value: unknown) => (Array.isArray(value) ? value.map(parseChoice) : value);
  const widget = widgetOf(field);

  switch (widget) {
    case 'string':
      return <TextInput {...common} parse={textParse(field)} type={field.format === 'uri' ? 'url' : field.format === 'email' ? 'email' : 'text'} />;
    case 'textarea':
      return <TextInput {...common} parse={textParse(field)} multiline minRows={3} fullWidth />;
    case 'password':
      return <PasswordInput {...common} parse={textParse(field)} autoComplete="new-password" />;
    case 'number':
    case 'weigh':
      if (field.format === 'percent') return <PercentInput {...common} />;
      return <NumberInput {...common} step={1} />;
    case 'float':
      return <NumberInput {...common} step="any" />;
    case 'money':
      return (
        <TextInput
          {...common}
          parse={(value: string) => value.trim()}
          slotProps={{ htmlInput: { inputMode: 'decimal', 'data-widget': 'money' } }}
        />
      );
    case 'radio':
      return <RadioButtonGroupInput {...common} choices={choices} translateChoice={false} parse={parseChoice} />;
    case 'checkbox':
      return hasChoices
        ? <CheckboxGroupInput {...common} choices={choices} translateChoice={false} parse={parseChoices} />
        : <TextArrayInput {...common} />;
    case 'switch':
      return <SwitchInput {...props} />;
    case 'select':
      return (
        <SelectInput
          {...common}
          choices={choices}
          translateChoice={false}
          parse={parseChoice}
          emptyValue={field.nullable ? null : ''}
        />
      );
    case 'selects':
      return hasChoices
        ? <SelectArrayInput {...common} choices={choices} translateChoice={false} parse={parseChoices} />
        : <TextArrayInput {...common} />;
    case 'remoteSelect':
    case 'remoteSelects': {
      const ref = field.ref;
      const integer = (field.wireType === 'array' ? field.itemType : field.wireType) === 'integer';
      return (
        <RemoteSelectInput
          source={source}
          label={label}
          required={required}
          helperText={helperText}
          reference={ref ? referencedResourceName(ref.resource) : ''}
          labelField={ref?.label ?? 'name'}
          keyField={ref?.key ?? 'id'}
          multiple={widget === 'remoteSelects'}
          toValue={(key) => (integer ? Number(key) : String(key))}
          emptyValue={required || field.nullable ? null : integer ? 0 : ''}
        />
      );
    }
    case 'date':
      return <DateTextInput {...common} kind="date" format={(value) => (typeof value === 'string' ? value : '')} parse={(text) => text || (field.nullable ? null : '')} />;
    case 'datetime':
      return <DateTextInput {...common} kind="datetime" format={toDateTimeLocal} parse={(text) => fromDateTimeLocal(text, field)} />;
    case 'year':
      return (
        <TextInput
          {...common}
          type="number"
          parse={(value: string) => (value === '' ? (field.nullable ? null : '') : field.wireType === 'string' ? value : Number(value))}
          slotProps={{ htmlInput: { min: 1000, max: 9999, step: 1, 'data-widget': 'year' } }}
        />
      );
    case 'time':
      return (
        <TextInput
          {...common}
          type="time"
          parse={(value: string) => (value ? toWireTime(value) : field.nullable ? null : '')}
          slotProps={{ htmlInput: { step: 1 }, inputLabel: { shrink: true } }}
        />
      );
    case 'image':
    case 'images':
    case 'file':
    case 'files':
      return (
        <UploadInput
          source={source}
          label={label}
          required={required}
          helperText={helperText}
          kind={widget.startsWith('image') ? 'image' : 'file'}
          multiple={widget.endsWith('s')}
          shape={field.wireType === 'array' ? 'array' : 'csv'}
        />
      );
    case 'editor':
      return <EditorInput source={source} label={label} required={required} helperText={helperText} />;
    case 'city':
      return <CityInput source={source} label={label} required={required} helperText={helperText} shape={field.wireType === 'array' ? 'array' : 'csv'} />;
    case 'icon':
      return <IconInput source={source} label={label} required={required} helperText={helperText} />;
    case 'color':
      return <ColorInput source={source} label={label} required={required} helperText={helperText} />;
    case 'hidden':
      // Kept in the form values (and posted), never shown.
      return <Fragment />;
    case 'array': {
      const columns = field.ui.columns;
      const columnTitles = columns && { key: columns.key && t(columns.key), value: columns.value && t(columns.value) };
      return <KeyValueInput source={source} label={label} required={required} helperText={helperText} shape={field.wireType === 'array' ? 'list' : 'object'} valueChoices={hasChoices ? choices : undefined} columnTitles={columnTitles} />;
    }
  }
}
