import type { Operator, ResourceHooks } from '../../app-context.js';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { dynamicDb } from '../../db/connection.js';
import { toStorage } from '../../db/values.js';
import { keyField } from '../../db/declared-field.js';
import { errors } from '../../errors.js';
import { accessConditions, applyConditions, inTransaction } from '../access.js';
import { recordRecycle } from '../security-events.js';

/** `del`: rows within the data limit are snapshotted to the recycle bin, then deleted. */
export async function deleteRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, ids: unknown): Promise<number> {
  const key = keyField(definition);
  const list = Array.isArray(ids) ? ids : undefined;
  if (!list || list.length === 0 || list.length > 1000 || list.some((id) => id === null || typeof id === 'object' || String(id).length > 64)) throw errors.parameterError();
  const wanted = list.filter((id) => key.wireType !== 'integer' || /^\d{1,15}$/.test(String(id))).map((id) => toStorage(key, id));
  if (wanted.length === 0) return 0;
  return inTransaction(operator, async (scoped, trx) => {
    const conditions = await accessConditions(scoped, definition, hooks);
    const rows = await applyConditions(dynamicDb(trx).selectFrom(definition.table).selectAll(), conditions)
      .where(definition.primaryKey, 'in', wanted)
      .execute();
    const remove = { definition, rows, trx };
    const targets = hooks.beforeDelete ? await hooks.beforeDelete(scoped, remove) : rows;
    if (targets.length === 0) return 0;
    await recordRecycle(scoped, trx, definition, hooks, targets);
    const result = await dynamicDb(trx).deleteFrom(definition.table).where(definition.primaryKey, 'in', targets.map((row) => row[definition.primaryKey])).executeTakeFirst();
    await hooks.afterDelete?.(scoped, { ...remove, rows: targets });
    return Number(result.numDeletedRows);
  });
}
