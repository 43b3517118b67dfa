import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { sameText, type LocalText } from '../../../schema/local-text.js';
import type { TagColor } from '../../../schema/meta-schema.js';
import { chipColour, type ChipColour } from '../../components/tag-colour.js';

interface EnumChoice {
  id: string | number;
  /** the label in every language */
  name: LocalText;
}

/** The allowed values of a field, or of each item of an array field (`items.enum`). */
export function enumValuesOf(field: FieldDefinition, definition?: ResourceDefinition): readonly (string | number)[] | undefined {
  if (field.enum) return field.enum;
  const properties = definition?.rowSchema.properties as Record<string, { items?: { enum?: (string | number)[] } }> | undefined;
  return properties?.[field.name]?.items?.enum;
}

/** Enum values with their labels: `x-ui.options`, else the value itself. */
export function enumChoices(field: FieldDefinition, definition?: ResourceDefinition): EnumChoice[] {
  const options = field.ui.options ?? {};
  // A labelled yes/no field offers its two labels; the server searches it as 1 / 0.
  if (field.wireType === 'boolean') {
    return options.true && options.false ? [{ id: 1, name: options.true }, { id: 0, name: options.false }] : [];
  }
  const declared = enumValuesOf(field, definition);
  const values: (string | number)[] = declared ? [...declared] : Object.keys(options);
  return values.map((value) => ({ id: value, name: options[String(value)] ?? sameText(String(value)) }));
}

/**
 * The values an edit may move a field to from `current`: itself and what `x-transitions` allows from it
 * (the server refuses any other move). Without transitions, or on a new row, every value.
 */
export function allowedValues(field: FieldDefinition, current: unknown): (value: string | number) => boolean {
  if (!field.transitions || current === undefined || current === null || current === '') return () => true;
  const allowed = new Set([String(current), ...(field.transitions[String(current)] ?? [])]);
  return (value) => allowed.has(String(value));
}

export function optionLabel(field: FieldDefinition, value: unknown): LocalText {
  return field.ui.options?.[String(value)] ?? sameText(String(value ?? ''));
}

/** The chip colour the schema gives a value, if any. */
function optionColor(field: FieldDefinition, value: unknown): TagColor | undefined {
  return field.ui.colors?.[String(value)];
}

/** MUI's colour of a value's chip: the meaning the schema gives it, else neutral. */
export function chipColorOf(field: FieldDefinition, value: unknown): ChipColour {
  return chipColour(optionColor(field, value));
}

const ON_VALUES = ['1', 'enable', 'enabled', 'on', 'yes', 'true', 'active', 'open'];

/** The two values a switch writes: `"1"`/`"0"`, `1`/`0`, `"enable"`/`"disable"`, `true`/`false`. */
export function switchValues(field: FieldDefinition): { on: unknown; off: unknown } {
  if (field.wireType === 'boolean') return { on: true, off: false };
  const values = field.enum ?? (field.wireType === 'string' ? ['0', '1'] : [0, 1]);
  const on = values.find((value) => ON_VALUES.includes(String(value).toLowerCase())) ?? values[values.length - 1];
  const off = values.find((value) => value !== on) ?? (typeof on === 'number' ? 0 : '0');
  return { on, off };
}

export function isSwitchOn(field: FieldDefinition, value: unknown): boolean {
  return String(value) === String(switchValues(field).on);
}

/** Enum values keep their wire type: radio groups and selects hand back strings. */
export function coerceToWire(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  const type = field.wireType === 'array' ? field.itemType : field.wireType;
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (type === 'string' && typeof value === 'number') return String(value);
  return value;
}
