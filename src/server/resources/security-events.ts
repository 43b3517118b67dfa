import type { Operator, ResourceHooks } from '../app-context.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import type { Db } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import type { Actor } from '../writes/sensitive-log.js';

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

/** The enabled recycle rule covering the resource's controller, if any: its deletes keep their rows in the bin. */
export async function recycleRuleOf(db: Db, definition: ResourceDefinition): Promise<{ id: number } | undefined> {
  if (!definition.controllerPath) return undefined;
  return (await db
    .selectFrom('security_data_recycle')
    .select(['id'])
    .where('controller_as', '=', definition.controllerPath)
    .where('status', '=', '1')
    .executeTakeFirst());
}

export async function recordRecycle(operator: Operator, trx: Db, definition: ResourceDefinition, hooks: ResourceHooks, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const rule = await recycleRuleOf(trx, definition);
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

/** Who an operation's log rows name. */
export function actorOf(operator: Operator): Actor {
  return { adminId: operator.identity?.area === 'admin' ? operator.identity.id : 0, ip: operator.ip, userAgent: operator.userAgent };
}
