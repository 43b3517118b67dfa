import type { ResourceDefinition } from '../../schema/definition.js';
import { findResourceByTable } from '../app-context.js';
import { errors, Success } from '../errors.js';
import type { RequestContext } from './controller.js';

/**
 * The back office's table and cache calls under `ajax` (BuildAdmin's CRUD generator and data-security
 * forms ask them): the tables are those the schemas declare, read from the live definitions, never a
 * name taken from the request as SQL. One connection, `default`, serves them all.
 */

const CONNECTION = 'default';

function tableOf(ctx: RequestContext): ResourceDefinition {
  const table = ctx.params.table;
  if (typeof table !== 'string' || table === '') throw errors.parameterError();
  const definition = findResourceByTable(ctx.app, table);
  if (!definition) throw errors.tableNotFound(table.slice(0, 100));
  return definition;
}

/** `getDatabaseConnectionList`: the connections a table may live on. */
async function getDatabaseConnectionList(ctx: RequestContext) {
  return { list: [{ type: ctx.app.handle.dialect === 'postgres' ? 'pgsql' : 'sqlite', database: CONNECTION, key: CONNECTION }] };
}

/** `getTableList`: every table with its title (BuildAdmin's comment); `excludeTable` leaves some out. */
async function getTableList(ctx: RequestContext) {
  const excluded = new Set(Array.isArray(ctx.params.excludeTable) ? ctx.params.excludeTable.map(String) : []);
  const list = [...ctx.app.resources.values()]
    .filter((definition) => !excluded.has(definition.table))
    .sort((a, b) => a.table.localeCompare(b.table))
    .map((definition) => ({ table: definition.table, comment: definition.title[ctx.lang], connection: CONNECTION, prefix: '' }));
  return { list };
}

/** `getTablePk`: the primary key of a table. */
async function getTablePk(ctx: RequestContext) {
  return { pk: tableOf(ctx).primaryKey };
}

/**
 * `getTableFieldList`: the primary key and the columns; `clean` (the default) gives name → comment,
 * otherwise each column's type, nullability, default and comment.
 */
async function getTableFieldList(ctx: RequestContext) {
  const definition = tableOf(ctx);
  const stored = definition.fields.filter((field) => field.storage);
  const clean = ctx.params.clean === undefined || !['0', 'false', false, 0].includes(ctx.params.clean as string | number | boolean);
  const fieldList = clean
    ? Object.fromEntries(stored.map((field) => [field.name, field.title[ctx.lang]]))
    : Object.fromEntries(
        stored.map((field) => [
          field.name,
          { COLUMN_NAME: field.name, DATA_TYPE: field.storage?.type ?? '', IS_NULLABLE: field.nullable ? 'YES' : 'NO', COLUMN_DEFAULT: field.default ?? null, COLUMN_COMMENT: field.title[ctx.lang], COLUMN_KEY: field.name === definition.primaryKey ? 'PRI' : '' },
        ]),
      );
  return { pk: definition.primaryKey, fieldList };
}

/** `clearCache` (POST `type`: `all` or `tp`): what this process keeps — settings and resolved permissions — is read afresh. */
async function clearCache(ctx: RequestContext) {
  const type = ctx.body.type;
  if (type !== 'all' && type !== 'tp') throw errors.parameterError();
  ctx.app.config.invalidate();
  ctx.app.identities.clear();
  ctx.logTitle = 'Clear cache';
  return new Success(null, 'Cache cleaned~');
}

export const ajaxTableActions = { getDatabaseConnectionList, getTableList, getTablePk, getTableFieldList, clearCache };
