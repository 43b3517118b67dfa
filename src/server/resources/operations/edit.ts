import type { Operator, ResourceHooks, WriteContext } from '../../app-context.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { parseLocalDateTime } from '../../../contract/site-time.js';
import { nowSeconds } from '../../clock.js';
import { dynamicDb } from '../../db/connection.js';
import { rowFromStorage, rowToStorage } from '../../db/values.js';
import { errors } from '../../errors.js';
import { findStored, inTransaction } from '../access.js';
import { actorOf } from '../security-events.js';
import { checkReferences, checkUnique, rethrowWriteError, validateInput } from '../write-checks.js';
import { checkTransitions } from '../../writes/domain-writes.js';
import { recordSensitiveChanges } from '../../writes/sensitive-log.js';

/** `edit` POST: only supplied columns change; unknown and read-only keys are ignored. */
export async function editRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, input: Row): Promise<void> {
  const id = input[definition.primaryKey];
  const values = validateInput(definition, input, 'edit');
  await hooks.prepareInput?.(values, 'edit');
  return inTransaction(operator, async (scoped, trx) => {
    const existing = await findStored(scoped, definition, hooks, id);
    const write: WriteContext = { mode: 'edit', definition, values, existing, id: existing[definition.primaryKey] as number | string, trx };
    checkTransitions(definition, rowFromStorage(definition, existing), values);
    await checkReferences(scoped, trx, definition, values);
    await checkUnique(trx, definition, values, existing[definition.primaryKey]);
    await hooks.beforeWrite?.(scoped, write);
    const changes = rowToStorage(definition, write.values);
    delete changes[definition.primaryKey];
    await recordSensitiveChanges(actorOf(scoped), trx, definition, [{ existing, changes }]);
    const stamp = definition.timestamps.update;
    let update = dynamicDb(trx).updateTable(definition.table).where(definition.primaryKey, '=', existing[definition.primaryKey]);
    if (stamp) {
      const loaded = loadedUpdateTime(input[stamp], await scoped.app.config.timeZone());
      const current = Number(existing[stamp] ?? 0);
      if (loaded !== undefined && loaded !== current) throw errors.staleRecord(current);
      // The guard holds against a save that commits between the read above and this write, too.
      if (loaded !== undefined) update = update.where(stamp, existing[stamp] === null ? 'is' : '=', existing[stamp] ?? null);
      // Each save moves the time on, so a form loaded in the same second as another save still sees it.
      changes[stamp] = Math.max(nowSeconds(), current + 1);
    }
    if (Object.keys(changes).length > 0) {
      const result = await update.set(changes).executeTakeFirst();
      if (stamp && Number(result.numUpdatedRows) === 0) throw errors.staleRecord(Number(existing[stamp] ?? 0));
    }
    await hooks.afterWrite?.(scoped, write);
  }).catch((error: unknown) => rethrowWriteError(definition, hooks, error));
}

/**
 * The `update_time` an edit form loaded (seconds, or the wall-clock text in the site's zone), so a save
 * over someone else's is refused; undefined when the client sent none (BuildAdmin's forms may not).
 */
function loadedUpdateTime(value: unknown, timeZone: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return typeof value === 'string' ? parseLocalDateTime(value, timeZone) : undefined;
}
