import type { ResourceDefinition, Row } from '../../schema/definition.js';
import type { Db } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import type { Operator, ResourceHooks } from './hooks.js';

/**
 * Data-security rules (docs/wire-contract.md#side-effects-of-admin-writes): a snapshot of rows into the recycle bin before `del`, and a log
 * of watched fields before `edit`. Rules are rows of `security_data_recycle` / `security_sensitive_data`
 * matched by the controller path.
 */

/**
 * Stored rows with the values of the resource's writable virtual fields as its edit form shows them
 * (an admin's `group_arr`), so a recycle-bin snapshot holds what a restore needs to rebuild.
 */
async function withVirtualValues(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, rows: Row[]): Promise<Row[]> {
  const virtual = definition.fields.filter((field) => !field.storage && !field.readOnly).map((field) => field.name);
  if (virtual.length === 0 || !hooks.present) return rows;
  const presented = await hooks.present(operator, rows.map((row) => ({ ...row })), 'edit');
  return rows.map((row, index) => ({ ...row, ...Object.fromEntries(virtual.filter((name) => name in presented[index]).map((name) => [name, presented[index][name]])) }));
}

export async function recordRecycle(operator: Operator, trx: Db, definition: ResourceDefinition, hooks: ResourceHooks, rows: Row[]): Promise<void> {
  if (!definition.controllerPath || rows.length === 0) return;
  const rule = (await trx
    .selectFrom('security_data_recycle')
    .select(['id', 'data_table', 'primary_key'])
    .where('controller_as', '=', definition.controllerPath)
    .where('status', '=', '1')
    .executeTakeFirst()) as { id: number; data_table: string; primary_key: string } | undefined;
  if (!rule) return;
  const now = nowSeconds();
  for (const row of await withVirtualValues(operator, definition, hooks, rows)) {
    await trx
      .insertInto('security_data_recycle_log')
      .values({
        admin_id: operator.identity?.area === 'admin' ? operator.identity.id : 0,
        recycle_id: rule.id,
        data: JSON.stringify(row),
        data_table: definition.table,
        connection: '',
        primary_key: definition.primaryKey,
        is_restore: 0,
        ip: operator.ip,
        useragent: operator.userAgent.slice(0, 255),
        create_time: now,
      })
      .execute();
  }
}

function loosely(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `changes` are stored values about to be written; `existing` the stored row. */
export async function recordSensitiveChanges(operator: Operator, trx: Db, definition: ResourceDefinition, existing: Row, changes: Row): Promise<void> {
  if (!definition.controllerPath) return;
  const rule = (await trx
    .selectFrom('security_sensitive_data')
    .select(['id', 'data_fields'])
    .where('controller_as', '=', definition.controllerPath)
    .where('status', '=', '1')
    .executeTakeFirst()) as { id: number; data_fields: string | null } | undefined;
  if (!rule) return;
  let watched: Record<string, string> = {};
  try {
    watched = JSON.parse(rule.data_fields ?? '{}') as Record<string, string>;
  } catch {
    return;
  }
  const now = nowSeconds();
  for (const [field, title] of Object.entries(watched)) {
    if (!(field in changes) || !(field in existing)) continue;
    const secret = field === 'password' || field === 'salt';
    if (secret && !changes[field]) continue;
    if (!secret && loosely(existing[field]) === loosely(changes[field])) continue;
    await trx
      .insertInto('security_sensitive_data_log')
      .values({
        admin_id: operator.identity?.area === 'admin' ? operator.identity.id : 0,
        sensitive_id: rule.id,
        data_table: definition.table,
        connection: '',
        primary_key: definition.primaryKey,
        data_field: field,
        data_comment: title.slice(0, 50),
        id_value: Number(existing[definition.primaryKey]),
        before: secret ? '******' : loosely(existing[field]),
        after: secret ? '******' : loosely(changes[field]),
        ip: operator.ip,
        useragent: operator.userAgent.slice(0, 255),
        is_rollback: 0,
        create_time: now,
      })
      .execute();
  }
}
