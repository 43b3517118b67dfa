import type { Db } from '../db/connection.js';
import { IMPORT_MAP_TABLE } from '../db/system-tables.js';

/**
 * Which row of an imported database became which row here: one line per source row, keyed by the
 * source (`host:port/database` and table prefix), the source table and the source key. It is what makes an
 * import repeatable: a row already listed is never brought again, so a second run changes nothing and a
 * run after the source gained rows brings only those.
 */
interface ImportMapTable {
  origin: string;
  source_table: string;
  source_id: string;
  target_id: number;
}

export async function ensureImportMap(db: Db): Promise<void> {
  await db.schema
    .createTable(IMPORT_MAP_TABLE)
    .ifNotExists()
    .addColumn('origin', 'varchar(255)', (column) => column.notNull())
    .addColumn('source_table', 'varchar(100)', (column) => column.notNull())
    .addColumn('source_id', 'varchar(100)', (column) => column.notNull())
    .addColumn('target_id', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('pk_import_map', ['origin', 'source_table', 'source_id'])
    .execute();
}

/** Source key → our id, per source table, for one origin (empty when the map table does not exist yet). */
export async function readImportMap(db: Db, origin: string, exists: boolean): Promise<Map<string, Map<string, number>>> {
  const maps = new Map<string, Map<string, number>>();
  if (!exists) return maps;
  const rows = await db.selectFrom(IMPORT_MAP_TABLE).select(['source_table', 'source_id', 'target_id']).where('origin', '=', origin).execute();
  for (const row of rows) {
    const map = maps.get(row.source_table) ?? new Map<string, number>();
    map.set(row.source_id, Number(row.target_id));
    maps.set(row.source_table, map);
  }
  return maps;
}

export async function recordImported(db: Db, origin: string, sourceTable: string, sourceId: string, targetId: number): Promise<void> {
  await db.insertInto(IMPORT_MAP_TABLE).values({ origin, source_table: sourceTable, source_id: sourceId, target_id: targetId }).execute();
}

declare module '../db/system-tables.js' {
  interface SystemTables {
    [IMPORT_MAP_TABLE]: ImportMapTable;
  }
}
