import type { Operator, ResourceHooks } from '../app-context.js';
import { type ResourceDefinition, type Row } from '../../schema/definition.js';
import { inputValidatorOf, type WriteMode } from '../../schema/validate-input.js';
import { dynamicDb, type Db } from '../db/connection.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { toStorage } from '../db/values.js';
import { errors } from '../errors.js';

/** The checks of a write before anything is stored: the schema's rules, uniqueness, references, transitions. */

/** The input as the schema takes it, or the first problem as a field error. */
export function validateInput(definition: ResourceDefinition, input: Row, mode: WriteMode): Row {
  const result = inputValidatorOf(definition)(input, mode);
  if (!result.ok) throw errors.validation(result.issues[0]);
  return result.value;
}

/** `x-unique` fields: no other row may hold the same non-empty value. */
export async function checkUnique(trx: Db, definition: ResourceDefinition, values: Row, id?: unknown): Promise<void> {
  for (const field of definition.fields) {
    if (!field.unique || !field.storage || !(field.name in values)) continue;
    const value = values[field.name];
    if (value === '' || value === null || value === undefined) continue;
    let query = dynamicDb(trx).selectFrom(definition.table).select(definition.primaryKey).where(field.name, '=', toStorage(field, value));
    if (id !== undefined) query = query.where(definition.primaryKey, '<>', id);
    if (await query.executeTakeFirst()) throw errors.alreadyExists(field.title, field.name);
  }
}

/**
 * Rethrow the error of a write's transaction, as the resource's own answer when the database refused a
 * unique index: two writes can both pass the checks above before either is stored.
 */
export function rethrowWriteError(definition: ResourceDefinition, hooks: ResourceHooks, error: unknown): never {
  if (hooks.uniqueViolation && isUniqueViolation(error)) throw hooks.uniqueViolation(definition);
  throw error;
}

/**
 * Required references (a survey's provider, a member's group) must name a row that exists: an id typed
 * or kept from a deleted row would otherwise be saved and shown as a bare number.
 */
export async function checkReferences(operator: Operator, trx: Db, definition: ResourceDefinition, values: Row): Promise<void> {
  const required = (definition.rowSchema.required ?? []) as string[];
  for (const field of definition.fields) {
    const ref = field.ref;
    if (!ref || ref.many || !field.storage || !required.includes(field.name) || !(field.name in values)) continue;
    const related = operator.app.resources.get(ref.resource);
    const keyField = related?.fields.find((candidate) => candidate.name === ref.key);
    if (!related || !keyField) continue;
    const found = await dynamicDb(trx).selectFrom(related.table).select(ref.key).where(ref.key, '=', toStorage(keyField, values[field.name])).executeTakeFirst();
    if (!found) throw errors.referenceMissing(field.title, field.name);
  }
}
