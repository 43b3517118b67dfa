import type { ResourceDefinition, FieldDefinition, Row } from '../../schema/definition.js';
import { withinTransaction, type Operator, type ResourceHooks } from '../app-context.js';
import { dataLimitAdminIds } from '../auth/group-scope.js';
import { allowsComputed, type Identity } from '../auth/identity.js';
import { dynamicDb, type AnySelect, type Db } from '../db/connection.js';
import { toStorage } from '../db/values.js';
import { keyField } from '../db/declared-field.js';
import { errors } from '../errors.js';
import type { Condition } from '../db/condition.js';

/**
 * What every generic operation shares: the row filters an operator is held to (the data limit and the
 * resource's scope), finding one row under them, and the transaction the writes run in.
 */

export function applyConditions<Q extends AnySelect>(query: Q, conditions: Condition[]): Q {
  return conditions.reduce((current, condition) => current.where(condition) as Q, query);
}

/** Run `work` in a transaction, with an operator whose app reads through it (see `withinTransaction`). */
export async function inTransaction<T>(operator: Operator, work: (scoped: Operator, trx: Db) => Promise<T>): Promise<T> {
  return operator.app.db.transaction().execute((trx) => work({ ...operator, app: withinTransaction(operator.app, trx) }, trx));
}

/**
 * Whether an identity may read a resource's rows: an administrator holding its list node
 * (`<controller path>/index`; super administrators hold every node). A member reads no resource's list,
 * and a resource without a controller has none to hold.
 */
export function mayReadList(identity: Identity | undefined, definition: ResourceDefinition): boolean {
  return identity?.area === 'admin' && definition.controllerPath !== undefined && allowsComputed(identity, `${definition.controllerPath}/index`);
}

/** The nodes that open the form of `definition`: its `add` and `edit`, as far as its menu declares them. */
export function formNodes(definition: ResourceDefinition): string[] {
  if (!definition.controllerPath) return [];
  const buttons = definition.menu?.buttons;
  return ['add', 'edit'].filter((action) => !buttons || buttons.includes(action)).map((action) => `${definition.controllerPath}/${action}`);
}

/** Whether the identity may fill `field` of `referring`: it holds the node of its add or its edit form. */
export function mayFillReference(identity: Identity | undefined, referring: ResourceDefinition, field: FieldDefinition): boolean {
  if (identity?.area !== 'admin' || !field.ref || field.readOnly) return false;
  return formNodes(referring).some((node) => allowsComputed(identity, node));
}

/** Row filters from the data limit and the resource's own scope. */
export async function accessConditions(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks): Promise<Condition[]> {
  const conditions: Condition[] = [];
  const limit = definition.dataLimit;
  if (limit && operator.identity?.area === 'admin') {
    const ids = await dataLimitAdminIds(operator.app.db, operator.identity, limit.mode);
    if (ids) conditions.push((eb) => eb(eb.ref(limit.field), 'in', ids));
  }
  const scope = await hooks.scope?.(operator);
  if (scope) conditions.push(scope);
  return conditions;
}

/** One stored row by its key, refused when it is outside the operator's data limit or scope. */
export async function findStored(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown): Promise<Row> {
  const db = dynamicDb(operator.app.db);
  const key = keyField(definition);
  if (id === undefined || id === null || id === '' || typeof id === 'object') throw errors.parameterEmpty(definition.primaryKey);
  if (key.wireType === 'integer' && !/^\d{1,15}$/.test(String(id))) throw errors.recordNotFound();
  const row = await db.selectFrom(definition.table).selectAll().where(definition.primaryKey, '=', toStorage(key, id)).executeTakeFirst();
  if (!row) throw errors.recordNotFound();
  const conditions = await accessConditions(operator, definition, hooks);
  if (conditions.length) {
    const visible = await applyConditions(db.selectFrom(definition.table).select(definition.primaryKey), conditions)
      .where(definition.primaryKey, '=', row[definition.primaryKey])
      .executeTakeFirst();
    if (!visible) throw errors.noPermission();
  }
  return row;
}
