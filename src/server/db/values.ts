import type { FieldDefinition, ResourceDefinition, Row } from '../../schema/definition.js';
import type { Json } from '../../generated/database.js';
import type { ResourceId, ResourceRows } from '../../generated/resources.js';
import { centsToYuan, yuanToCents } from '../../contract/money.js';

/** Money's conversions are the contract's (`src/contract/money.ts`); the server's storage code reaches them here too. */
export { centsToYuan, yuanToCents };

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
function selectedFromStorage(definition: ResourceDefinition, stored: Row): Row {
  return { ...stored, ...rowFromStorage(definition, stored) };
}

/** A definition known to be the resource `Id` (`resourceOf` in `app-context.ts` finds one). */
export type DefinitionOf<Id extends ResourceId> = ResourceDefinition & { readonly id: Id };

/** The columns of `Stored` that resource `Id` declares, in wire form and present (a nullable one may hold null). */
type WireColumns<Id extends ResourceId, Stored extends Row> = Required<Pick<ResourceRows[Id], keyof Stored & keyof ResourceRows[Id]>>;

/**
 * `selectedFromStorage` typed by the resource's generated row (`src/generated/resources.ts`, made from the same
 * schema whose fields convert the values): each selected column the schema declares, as the wire carries it.
 * A reader of a column the schema no longer declares, or one the query did not select, fails the type check.
 */
export function wireColumns<Id extends ResourceId, Stored extends Row>(definition: DefinitionOf<Id>, stored: Stored): WireColumns<Id, Stored> {
  // The one claim of the conversion: the generated row and the conversion are both read off the schema's fields.
  return selectedFromStorage(definition, stored) as WireColumns<Id, Stored>;
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
