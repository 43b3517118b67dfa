import { sql } from 'kysely';
import type { FieldDefinition, ResourceDefinition, Row } from '../../../schema/definition.js';
import type { AppContext, RequestContext } from '../../app-context.js';
import { dynamicDb, type DynamicDb } from '../../db/connection.js';
import { errors } from '../../errors.js';
import { presentRows } from '../present.js';

/**
 * What the recycle bin and the sensitive-data log share: the `ids` of a bulk action, the resource a
 * logged `data_table` names (only tables declared by a schema), stored values checked against their
 * column, and unique-value checks before a row comes back.
 */

/** Fields whose logged values are masks, never the real value (see `recordSensitiveChanges`). */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'salt']);

const MAX_IDS = 1000;
const WHOLE_NUMBER = /^\d{1,15}$/;

/** `ids` of `restore` / `rollback`: a non-empty array of whole numbers, else `Parameter error`. */
export function parseIds(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IDS) throw errors.parameterError();
  const ids = value.map((id) => ((typeof id === 'number' || typeof id === 'string') && WHOLE_NUMBER.test(String(id)) ? Number(id) : undefined));
  if (ids.some((id) => id === undefined)) throw errors.parameterError();
  return [...new Set(ids as number[])];
}

/** The id of `info`: `Parameter id can not be empty` when missing, `Record not found` when not a whole number. */
function parseInfoId(value: unknown): number {
  if (value === undefined || value === null || value === '') throw errors.parameterEmpty('id');
  if ((typeof value !== 'number' && typeof value !== 'string') || !WHOLE_NUMBER.test(String(value))) throw errors.recordNotFound();
  return Number(value);
}

/** A stored field of the resource by name. */
export function storedField(definition: ResourceDefinition, name: unknown): FieldDefinition | undefined {
  return definition.fields.find((field) => field.storage !== null && field.name === name);
}

const INTEGER_TEXT = /^-?\d{1,16}$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * A value as its column stores it, or `invalid` when it cannot be: integers (money in cents, booleans
 * as 0/1) from numbers or digit strings, reals likewise, text from strings and numbers within the
 * varchar length. `null` is kept only for nullable columns.
 */
export function asStoredValue(field: FieldDefinition, value: unknown): { value: unknown } | 'invalid' {
  if (value === null || value === undefined) return field.nullable ? { value: null } : 'invalid';
  const storage = field.storage;
  if (!storage) return 'invalid';
  switch (storage.type) {
    case 'bigint':
    case 'money':
    case 'boolean': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && INTEGER_TEXT.test(value.trim()) ? Number(value.trim()) : NaN;
      return Number.isSafeInteger(number) ? { value: number } : 'invalid';
    }
    case 'real': {
      if (typeof value === 'number') return Number.isFinite(value) ? { value } : 'invalid';
      return typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? { value: Number(value.trim()) } : 'invalid';
    }
    default: {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return 'invalid';
      const text = String(value);
      if (storage.type === 'varchar' && text.length > (storage.length ?? 255)) return 'invalid';
      return { value: text };
    }
  }
}

/**
 * The logged text of a sensitive field (`String` of the stored value, '' for null) back into the
 * stored value: '' is null for a nullable non-text column.
 */
export function storedValueOfText(field: FieldDefinition, text: unknown): { value: unknown } | 'invalid' {
  const textual = field.storage && ['varchar', 'text', 'json', 'csv'].includes(field.storage.type);
  if ((text === null || text === undefined || text === '') && !textual) return field.nullable ? { value: null } : 'invalid';
  return asStoredValue(field, text ?? '');
}

/**
 * Whether `row` (stored values) would break a uniqueness rule of the resource: an `x-unique` field
 * holding the same non-empty value, or a unique index whose columns all match. `exceptKey` is the
 * primary key of the row itself when it is being updated.
 */
export async function breaksUniqueness(trx: DynamicDb, definition: ResourceDefinition, row: Row, exceptKey?: unknown): Promise<boolean> {
  const groups: string[][] = [];
  for (const field of definition.fields) {
    if (!field.unique || !field.storage || field.name === definition.primaryKey) continue;
    const value = row[field.name];
    if (value !== '' && value !== null && value !== undefined) groups.push([field.name]);
  }
  for (const index of definition.indexes) {
    const unset = (column: string) => row[column] === null || row[column] === undefined || (index.whenSet && row[column] === '');
    if (!index.unique || index.columns.some(unset)) continue;
    groups.push(index.columns);
  }
  for (const columns of groups) {
    let query = trx.selectFrom(definition.table).select(definition.primaryKey);
    for (const column of columns) query = query.where(column, '=', row[column]);
    if (exceptKey !== undefined) query = query.where(definition.primaryKey, '<>', exceptKey);
    if (await query.executeTakeFirst()) return true;
  }
  return false;
}

/** PostgreSQL: move the key sequence past a row inserted with an explicit id (it never moves back). */
export async function advanceKeySequence(app: AppContext, trx: DynamicDb, definition: ResourceDefinition, id: unknown): Promise<void> {
  const key = storedField(definition, definition.primaryKey);
  if (app.handle.dialect !== 'postgres' || key?.storage?.type !== 'bigint' || typeof id !== 'number') return;
  await sql`SELECT setval(pg_get_serial_sequence(${definition.table}, ${definition.primaryKey}), GREATEST(nextval(pg_get_serial_sequence(${definition.table}, ${definition.primaryKey})), ${id}))`.execute(trx);
}

/** The log row `info?id=` asks for: as stored, and as lists show it (with its relations). */
export async function readLogEntry(ctx: RequestContext): Promise<{ stored: Row; row: Row }> {
  const definition = ctx.controller.resource as ResourceDefinition;
  const id = parseInfoId(ctx.query.id);
  const stored = await dynamicDb(ctx.app.db).selectFrom(definition.table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!stored) throw errors.recordNotFound();
  const [row] = await presentRows(ctx, definition, {}, [stored], 'list');
  return { stored, row };
}
