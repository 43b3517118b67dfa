import { findResourceByTable, type RequestContext, type ResourceHooks } from '../../app-context.js';
import { dynamicDb, type Db, type StoredRow } from '../../db/connection.js';
import { errors, Success } from '../../errors.js';
import { asStoredValue, breaksUniqueness, parseIds, readLogEntry, SECRET_FIELDS, storedField, storedValueOfText } from './security-log.js';

/**
 * The sensitive-data log (docs/wire-contract.md#sensitive-data-log): lists show `id_value` as `<primary key>=<value>`, `info`
 * the raw row, and `rollback` writes a logged `before` back. Tables and fields are resolved through
 * the schemas only; masked secrets (password, salt) cannot be rolled back.
 */

/** Roll back one log entry; false when it is skipped (unknown table or field, secret, value not storable, row gone, unique value taken). */
async function rollbackEntry(ctx: RequestContext, db: Db, entry: StoredRow<'security_sensitive_data_log'>): Promise<boolean> {
  const trx = dynamicDb(db);
  const definition = findResourceByTable(ctx.app, entry.data_table);
  if (!definition || entry.primary_key !== definition.primaryKey) return false;
  const field = storedField(definition, entry.data_field);
  const keyField = storedField(definition, definition.primaryKey);
  if (!field || !keyField || field.name === definition.primaryKey || SECRET_FIELDS.has(field.name)) return false;
  const key = asStoredValue(keyField, entry.id_value);
  const before = storedValueOfText(field, entry.before);
  if (key === 'invalid' || key.value === null || before === 'invalid') return false;
  const current = await trx.selectFrom(definition.table).selectAll().where(definition.primaryKey, '=', key.value).executeTakeFirst();
  if (!current || (await breaksUniqueness(trx, definition, { ...current, [field.name]: before.value }, key.value))) return false;
  const result = await trx
    .updateTable(definition.table)
    .set({ [field.name]: before.value })
    .where(definition.primaryKey, '=', key.value)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await trx.deleteFrom('security_sensitive_data_log').where('id', '=', entry.id).execute();
  return true;
}

export const sensitiveDataLogHooks: ResourceHooks = {
  async present(_operator, rows, view) {
    if (view === 'edit') return rows;
    return rows.map((row) => ({ ...row, id_value: `${String(row.primary_key)}=${String(row.id_value)}` }));
  },

  actions: {
    /** `GET info?id=`: the log row with its relations and the raw `id_value`. */
    async info(ctx) {
      const { row } = await readLogEntry(ctx);
      return { row };
    },

    /**
     * `POST rollback {ids}`: each field goes back to its logged `before`; the logs of changed rows are
     * deleted, in one transaction. Newest first, so several changes of one field end at the oldest value.
     */
    async rollback(ctx) {
      if (ctx.method !== 'POST') throw errors.parameterError();
      const ids = parseIds(ctx.params.ids);
      const rolledBack = await ctx.app.db.transaction().execute(async (trx) => {
        const entries = await trx.selectFrom('security_sensitive_data_log').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute();
        let count = 0;
        for (const entry of entries) if (await rollbackEntry(ctx, trx, entry)) count += 1;
        return count;
      });
      if (rolledBack === 0) throw errors.noRowsRolledBack();
      return new Success(null, '');
    },
  },
};
