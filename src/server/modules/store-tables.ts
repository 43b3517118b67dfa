import type { DatabaseHandle } from '../db/connection.js';
import { STORE_MODULE_GRANT_TABLE, STORE_MODULE_TABLE } from '../db/system-tables.js';

/** The module store's tables (`module-store.ts`): its modules and the grants of the disabled ones. */

/**
 * A row of `store_module`: a module of the store (`modules/module-store.ts`) and the schemas it owns. `package`
 * is the installed version's (its schemas are in the set while `live` is 1), `pending` an uploaded version
 * waiting to be installed; `kept_tables` the tables an uninstall left with their rows.
 */
export interface StoreModuleTable {
  uid: string;
  state: number;
  live: number;
  version: string;
  package: string | null;
  pending: string | null;
  kept_tables: string;
  update_time: number;
}

/**
 * A row of `store_module_grant`: an admin group held a rule of a module (by the rule's name) when the module
 * was disabled. Enabling the module again grants the group the rules of those names; uninstalling forgets them.
 */
interface StoreModuleGrantTable {
  uid: string;
  group_id: number;
  rule: string;
}

/** Create the module store's tables where they are missing. */
export async function ensureStoreTables(handle: DatabaseHandle): Promise<void> {
  const { db } = handle;
  await db.schema
    .createTable(STORE_MODULE_TABLE)
    .ifNotExists()
    .addColumn('uid', 'varchar(40)', (column) => column.primaryKey())
    .addColumn('state', 'integer', (column) => column.notNull())
    .addColumn('live', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('version', 'varchar(20)', (column) => column.notNull().defaultTo(''))
    .addColumn('package', 'text')
    .addColumn('pending', 'text')
    .addColumn('kept_tables', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('update_time', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(STORE_MODULE_GRANT_TABLE)
    .ifNotExists()
    .addColumn('uid', 'varchar(40)', (column) => column.notNull())
    .addColumn('group_id', 'bigint', (column) => column.notNull())
    .addColumn('rule', 'varchar(255)', (column) => column.notNull())
    .addPrimaryKeyConstraint('store_module_grant_pk', ['uid', 'group_id', 'rule'])
    .execute();
}


declare module '../db/system-tables.js' {
  interface SystemTables {
    [STORE_MODULE_TABLE]: StoreModuleTable;
    [STORE_MODULE_GRANT_TABLE]: StoreModuleGrantTable;
  }
}
