import type { Operator, ResourceHooks } from '../../app-context.js';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { dynamicDb } from '../../db/connection.js';
import { errors } from '../../errors.js';
import { findStored, inTransaction } from '../access.js';

/** `sortable`: swap the weigh of two rows. */
export async function sortRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown, targetId: unknown): Promise<void> {
  const weigh = definition.list.weighField;
  if (!weigh) throw errors.parameterError();
  await inTransaction(operator, async (scoped, trx) => {
    const row = await findStored(scoped, definition, hooks, id);
    const target = await findStored(scoped, definition, hooks, targetId);
    if (Number(row[weigh]) === Number(target[weigh])) throw errors.sortWeightsEqual();
    const update = (key: unknown, value: unknown) => dynamicDb(trx).updateTable(definition.table).set({ [weigh]: value }).where(definition.primaryKey, '=', key).execute();
    await update(row[definition.primaryKey], target[weigh]);
    await update(target[definition.primaryKey], row[weigh]);
  });
}
