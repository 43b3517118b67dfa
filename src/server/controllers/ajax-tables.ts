import type { ResourceDefinition } from '../../schema/definition.js';
import { findResourceByTable, type RequestContext } from '../app-context.js';
import { isSystemTable } from '../db/system-tables.js';
import { catalogColumns, catalogTables, type CatalogColumn } from '../db/table-catalog.js';
import { errors, Success } from '../errors.js';
import { DESIGNER_NODES } from '../crud/designer-nodes.js';
import type { AdminNode } from '../../generated/permission-nodes.js';

/**
 * The back office's table and cache calls under `ajax` (BuildAdmin's CRUD generator and data-security
 * forms ask them): the tables the schemas declare, read from the live definitions, and the other tables
 * of the database (the CRUD designer starts from any of them) read from its catalogue; a name taken from
 * the request is only compared with those, never run as SQL. One connection, `default`, serves them all.
 */

const CONNECTION = 'default';

type FoundTable = { definition: ResourceDefinition } | { definition?: undefined; columns: CatalogColumn[] };

/**
 * Whether a table is the platform's own and never shown: a table no schema declares that the platform keeps
 * (`isSystemTable`), or a resource without a controller (tokens, server secrets, captchas, codes, login
 * attempts…), which the back office has no screen for.
 */
function isInternalTable(ctx: RequestContext, table: string): boolean {
  const definition = findResourceByTable(ctx.app, table);
  return definition ? !definition.controller : isSystemTable(table);
}

/** A table by the name in `table`: a resource's with a screen, else one of the database's own (not the platform's). */
async function tableOf(ctx: RequestContext): Promise<FoundTable> {
  const table = ctx.params.table;
  if (typeof table !== 'string' || table === '') throw errors.parameterError();
  if (isInternalTable(ctx, table)) throw errors.tableNotFound(table.slice(0, 100));
  const definition = findResourceByTable(ctx.app, table);
  if (definition) return { definition };
  const columns = await catalogColumns(ctx.app.handle, table);
  if (!columns) throw errors.tableNotFound(table.slice(0, 100));
  return { columns };
}

/** `getDatabaseConnectionList`: the connections a table may live on. */
async function getDatabaseConnectionList(ctx: RequestContext) {
  return { list: [{ type: ctx.app.handle.dialect === 'postgres' ? 'pgsql' : 'sqlite', database: CONNECTION, key: CONNECTION }] };
}

/**
 * `getTableList`: every table with its title (BuildAdmin's comment; none for a table no schema declares),
 * the platform's own never (`isInternalTable`); `excludeTable` leaves some out.
 */
async function getTableList(ctx: RequestContext) {
  const excluded = new Set(Array.isArray(ctx.params.excludeTable) ? ctx.params.excludeTable.map(String) : []);
  const all = [...ctx.app.resources.values()].map((definition) => definition.table);
  const declared = new Map([...ctx.app.resources.values()].filter((definition) => definition.controller).map((definition) => [definition.table, definition.title[ctx.lang]]));
  const others = (await catalogTables(ctx.app.handle)).filter((table) => !all.includes(table) && !isSystemTable(table));
  const list = [...declared.entries(), ...others.map((table) => [table, ''] as const)]
    .filter(([table]) => !excluded.has(table))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([table, comment]) => ({ table, comment, connection: CONNECTION, prefix: '' }));
  return { list };
}

/** `getTablePk`: the primary key of a table. */
async function getTablePk(ctx: RequestContext) {
  const found = await tableOf(ctx);
  return { pk: found.definition ? found.definition.primaryKey : (found.columns.find((column) => column.primaryKey)?.name ?? '') };
}

/**
 * `getTableFieldList`: the primary key and the columns; `clean` (the default) gives name → comment,
 * otherwise each column's type, nullability, default and comment.
 */
async function getTableFieldList(ctx: RequestContext) {
  const found = await tableOf(ctx);
  const clean = ctx.params.clean === undefined || !['0', 'false', false, 0].includes(ctx.params.clean as string | number | boolean);
  if (!found.definition) {
    const pk = found.columns.find((column) => column.primaryKey)?.name ?? '';
    const fieldList = clean
      ? Object.fromEntries(found.columns.map((column) => [column.name, column.name]))
      : Object.fromEntries(
          found.columns.map((column) => [
            column.name,
            { COLUMN_NAME: column.name, DATA_TYPE: column.dataType, IS_NULLABLE: column.nullable ? 'YES' : 'NO', COLUMN_DEFAULT: null, COLUMN_COMMENT: '', COLUMN_KEY: column.primaryKey ? 'PRI' : '' },
          ]),
        );
    return { pk, fieldList };
  }
  const definition = found.definition;
  const stored = definition.fields.filter((field) => field.storage);
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

/**
 * Who may ask them. The table calls show every table's columns: they are for the screens that choose
 * tables and columns, the CRUD designer and the data-security rules' forms (recycle bin and sensitive
 * data), so any node of the designer or an add or edit node of those rules admits. Clearing the caches
 * is for those who change the settings it re-reads (`routine/config/edit`).
 */
const TABLE_READERS: readonly AdminNode[] = [...DESIGNER_NODES, 'security/dataRecycle/add', 'security/dataRecycle/edit', 'security/sensitiveData/add', 'security/sensitiveData/edit'];

export const ajaxTablePermissions: Record<keyof typeof ajaxTableActions, readonly AdminNode[]> = {
  getDatabaseConnectionList: TABLE_READERS,
  getTableList: TABLE_READERS,
  getTablePk: TABLE_READERS,
  getTableFieldList: TABLE_READERS,
  clearCache: ['routine/config/edit'],
};
