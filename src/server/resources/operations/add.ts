import type { Operator, ResourceHooks, WriteContext } from '../../app-context.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { dynamicDb } from '../../db/connection.js';
import { completeRow } from '../../db/seed.js';
import { errors, Success } from '../../errors.js';
import { inTransaction } from '../access.js';
import { checkReferences, checkUnique, rethrowWriteError, validateInput } from '../write-checks.js';

/** `add`: validate, hooks, insert, in one transaction. Returns the new row's id. */
export async function addRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, input: Row): Promise<number | string> {
  if (Object.keys(input).length === 0) throw errors.parameterEmpty();
  const values = validateInput(definition, input, 'add');
  await hooks.prepareInput?.(values, 'add');
  return inTransaction(operator, async (scoped, trx) => {
    const write: WriteContext = { mode: 'add', definition, values, trx };
    await checkReferences(scoped, trx, definition, values);
    await checkUnique(trx, definition, values);
    await hooks.beforeWrite?.(scoped, write);
    const limit = definition.dataLimit;
    if (limit && operator.identity?.area === 'admin' && limit.field !== definition.primaryKey && !(limit.field in write.values)) {
      write.values[limit.field] = operator.identity.id;
    }
    const row = completeRow(definition, write.values);
    delete row[definition.primaryKey];
    if (definition.primaryKey in write.values) row[definition.primaryKey] = write.values[definition.primaryKey];
    const inserted = await dynamicDb(trx).insertInto(definition.table).values(row).returning(definition.primaryKey).executeTakeFirst();
    if (!inserted) throw errors.noRowsAdded();
    write.id = inserted[definition.primaryKey] as number | string;
    await hooks.afterWrite?.(scoped, write);
    return write.id;
  }).catch((error: unknown) => rethrowWriteError(definition, hooks, error));
}

/**
 * What `add` answers: BuildAdmin's message and, as data, the new row's key (`{id: 5}`, by the primary key's
 * name), so a client opens the row it made instead of searching for it. BuildAdmin's own client ignores it.
 */
export function addedAnswer(definition: ResourceDefinition, id: number | string): Success {
  return new Success({ [definition.primaryKey]: id }, 'Added successfully!');
}
