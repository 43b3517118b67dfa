import { sql } from 'kysely';
import type { DatabaseHandle } from './connection.js';

/**
 * The tables and columns the database itself has, schema or not (the CRUD designer starts from any
 * table). Names come from the database's own catalogue; a name from a request is only compared with them.
 */

export interface CatalogColumn {
  name: string;
  dataType: string;
  nullable: boolean;
  autoIncrement: boolean;
  hasDefault: boolean;
  primaryKey: boolean;
}

/** Every base table of the database (PostgreSQL: of the `public` schema). */
export async function catalogTables(handle: DatabaseHandle): Promise<string[]> {
  const tables = await handle.db.introspection.getTables();
  return tables.filter((table) => !table.isView && (handle.dialect !== 'postgres' || table.schema === 'public')).map((table) => table.name).sort();
}

/** The columns of `table` in their order, or undefined when the database has no such table. */
export async function catalogColumns(handle: DatabaseHandle, table: string): Promise<CatalogColumn[] | undefined> {
  const tables = await handle.db.introspection.getTables();
  const found = tables.find((item) => item.name === table && !item.isView && (handle.dialect !== 'postgres' || item.schema === 'public'));
  if (!found) return undefined;
  const keys =
    handle.dialect === 'postgres'
      ? (await sql<{ name: string }>`SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(${`public."${found.name.replace(/"/g, '""')}"`}) AND i.indisprimary`.execute(handle.db)).rows
      : (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${found.name}) WHERE pk > 0`.execute(handle.db)).rows;
  const primary = new Set(keys.map((row) => row.name));
  return found.columns.map((column) => ({
    name: column.name,
    dataType: column.dataType.toLowerCase(),
    nullable: column.isNullable,
    autoIncrement: column.isAutoIncrementing || (primary.has(column.name) && handle.dialect === 'sqlite' && column.dataType.toLowerCase() === 'integer'),
    hasDefault: column.hasDefaultValue,
    primaryKey: primary.has(column.name),
  }));
}
