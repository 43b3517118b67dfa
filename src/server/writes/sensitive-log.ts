import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';

/**
 * The sensitive-data log (docs/wire-contract.md#side-effects-of-admin-writes): before a write, each field
 * a rule of `security_sensitive_data` watches on the resource's controller path is logged with its old
 * and new value. An edit of the engine and a domain operation log through here alike.
 */

/** Who a log row names: the administrator (0 for none, a member or a provider's callback), their address and browser. */
export interface Actor {
  adminId: number;
  ip: string;
  userAgent: string;
}

function loosely(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One row's write as the sensitive-data log reads it: `existing` the stored row, `changes` the stored values about to be written. */
export interface StoredWrite {
  existing: Row;
  changes: Row;
}

/** Logs the watched fields each write changes, by the rule of the resource's controller (read once for all the writes). */
export async function recordSensitiveChanges(actor: Actor, trx: Db, definition: ResourceDefinition, writes: readonly StoredWrite[]): Promise<void> {
  if (!definition.controllerPath || writes.length === 0) return;
  const rule = (await trx
    .selectFrom('security_sensitive_data')
    .select(['id', 'data_fields'])
    .where('controller_as', '=', definition.controllerPath)
    .where('status', '=', '1')
    .executeTakeFirst());
  if (!rule) return;
  let watched: Record<string, string> = {};
  try {
    watched = JSON.parse(rule.data_fields ?? '{}') as Record<string, string>;
  } catch {
    return;
  }
  const now = nowSeconds();
  for (const { existing, changes } of writes) {
    for (const [field, title] of Object.entries(watched)) {
      if (!(field in changes) || !(field in existing)) continue;
      const secret = field === 'password' || field === 'salt';
      if (secret && !changes[field]) continue;
      if (!secret && loosely(existing[field]) === loosely(changes[field])) continue;
      await trx
        .insertInto('security_sensitive_data_log')
        .values({
          admin_id: actor.adminId,
          sensitive_id: rule.id,
          data_table: definition.table,
          connection: '',
          primary_key: definition.primaryKey,
          data_field: field,
          data_comment: title.slice(0, 50),
          id_value: Number(existing[definition.primaryKey]),
          before: secret ? '******' : loosely(existing[field]),
          after: secret ? '******' : loosely(changes[field]),
          ip: actor.ip,
          useragent: actor.userAgent.slice(0, 255),
          is_rollback: 0,
          create_time: now,
        })
        .execute();
    }
  }
}
