import type { FieldDefinition, ResourceDefinition, Row } from '../../schema/definition.js';
import type { Json } from '../../generated/database.js';

/** A value into the text of its JSON column. */
export function toJson<T>(value: T): Json<T> {
  return JSON.stringify(value) as Json<T>;
}

/** The text of a JSON column back into its value; `fallback` when the text is not JSON. */
export function fromJson<T>(text: Json<T> | null | undefined, fallback: T): T {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** "12.5" / 12.5 → 1250 cents. Input was validated by the money format already. */
export function yuanToCents(value: unknown): number {
  const text = typeof value === 'number' ? value.toFixed(2) : String(value ?? '0').trim() || '0';
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const cents = Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

/** 1250 → "12.50"; -300 → "-3.00" */
export function centsToYuan(cents: unknown): string {
  const value = Number(cents ?? 0);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** One wire value into its column representation. */
export function toStorage(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (field.storage?.type) {
    case 'money':
      return yuanToCents(value);
    case 'json':
      return JSON.stringify(value);
    case 'csv':
      return Array.isArray(value) ? value.join(',') : String(value);
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
    case 'bigint':
    case 'real':
      return Number(value);
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** One column value into its wire representation. */
function fromStorage(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return field.nullable ? null : field.default;
  switch (field.storage?.type) {
    case 'money':
      return centsToYuan(value);
    case 'json':
      try {
        return JSON.parse(String(value));
      } catch {
        return field.default;
      }
    case 'csv': {
      const text = String(value);
      const items = text === '' ? [] : text.split(',');
      return field.itemType === 'string' ? items : items.map(Number);
    }
    case 'boolean':
      return Number(value) === 1;
    case 'bigint':
    case 'real':
      return Number(value);
    default:
      return value;
  }
}

/** A stored row → the wire row: conversions applied, write-only fields removed. */
export function rowFromStorage(definition: ResourceDefinition, stored: Row): Row {
  const row: Row = {};
  for (const field of definition.fields) {
    if (field.writeOnly || !field.storage) continue;
    if (field.name in stored) row[field.name] = fromStorage(field, stored[field.name]);
  }
  return row;
}

/**
 * A selected row in wire form: the columns of `definition` converted as `rowFromStorage` does, other
 * selected values (a joined title, a count) left as they are, keys in the order they were selected.
 */
export function selectedFromStorage(definition: ResourceDefinition, stored: Row): Row {
  return { ...stored, ...rowFromStorage(definition, stored) };
}

/** Wire values for the given stored fields → column values. Unknown keys are dropped. */
export function rowToStorage(definition: ResourceDefinition, values: Row): Row {
  const stored: Row = {};
  for (const field of definition.fields) {
    if (!field.storage || !(field.name in values)) continue;
    stored[field.name] = toStorage(field, values[field.name]);
  }
  return stored;
}

/** The stored default of a column, for CREATE TABLE and for filling a new row. */
export function storedDefault(field: FieldDefinition): unknown {
  return toStorage(field, field.default);
}
