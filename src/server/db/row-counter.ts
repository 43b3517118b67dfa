import { sql } from 'kysely';
import type { DatabaseHandle, DynamicDb } from './connection.js';
import { ROW_COUNT_DELTA_TABLE, ROW_COUNT_TABLE, VALUE_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE } from './system-tables.js';
import { countValues, dropValueCounters, ensureValueCountTables, foldValueCounts, type CountedColumn } from './value-counter.js';

/**
 * The number of rows of every schema table, kept by the database itself: triggers add the rows an
 * INSERT adds and take off the rows a DELETE removes, inside the statement's own transaction, so an
 * add, a delete, a restore from the recycle bin or an import moves the count exactly when its rows
 * commit, however many writers run at once. An unfiltered list reads its exact total here in one
 * lookup instead of counting a million rows (resources/list-plan.ts). The same triggers' kin count the
 * rows per value of a few enum columns, for lists filtered to one value (db/value-counter.ts).
 *   - SQLite has one writer at a time: its triggers update the table's count row.
 *   - PostgreSQL runs writers side by side. Were they all to update one count row, two transactions
 *     writing two tables in opposite orders could deadlock on the count rows; instead each statement
 *     appends its change (`row_count_delta`, which takes no lock another writer waits for), the total
 *     is the count row plus the changes, and the changes are folded into the count row now and then
 *     (`foldRowCounts`, by the background sweep) so they stay few.
 *
 * Every start recounts each table once, with writers held off for that moment, and (re)makes the
 * triggers: a table rebuilt by a migration, or rows written while the triggers were missing, come
 * back in step.
 */
interface RowCountTable {
  table_name: string;
  row_total: number | string;
}

interface RowCountDeltaTable {
  table_name: string;
  delta: number | string;
}

function triggerName(table: string, suffix: 'ai' | 'ad'): string {
  return `${table}_rows_${suffix}`.slice(0, 63);
}

/** A schema table, and its columns counted per value (`countedColumns`). */
export interface CountedTable {
  table: string;
  columns: readonly CountedColumn[];
}

export async function ensureRowCounters(handle: DatabaseHandle, db: DynamicDb, tables: readonly CountedTable[]): Promise<void> {
  const { dialect } = handle;
  await db.schema
    .createTable(ROW_COUNT_TABLE)
    .ifNotExists()
    .addColumn('table_name', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('row_total', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  // Made on SQLite too, where it stays empty: the lists read the count the same way on both.
  await db.schema.createTable(ROW_COUNT_DELTA_TABLE).ifNotExists().addColumn('table_name', 'varchar(64)', (column) => column.notNull()).addColumn('delta', 'bigint', (column) => column.notNull()).execute();
  await db.schema.createIndex('row_count_delta_table').ifNotExists().on(ROW_COUNT_DELTA_TABLE).column('table_name').execute();
  await ensureValueCountTables(db);
  if (dialect === 'postgres') {
    // One statement adds or removes any number of rows: counted once per statement from its transition table.
    await sql`CREATE OR REPLACE FUNCTION row_count_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO row_count_delta (table_name, delta) SELECT TG_TABLE_NAME, count(*) FROM added_rows HAVING count(*) > 0;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION row_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO row_count_delta (table_name, delta) SELECT TG_TABLE_NAME, -count(*) FROM removed_rows HAVING count(*) > 0;
        RETURN NULL;
      END $$`.execute(db);
  }
  for (const { table, columns } of tables) {
    await db.transaction().execute(async (trx) => {
      const tbl = sql.table(table);
      const added = sql.id(triggerName(table, 'ai'));
      const removed = sql.id(triggerName(table, 'ad'));
      if (dialect === 'postgres') {
        // Writers wait while the table is recounted and its triggers made (readers do not).
        await sql`LOCK TABLE ${tbl} IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
        await sql`CREATE OR REPLACE TRIGGER ${added} AFTER INSERT ON ${tbl} REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION row_count_added()`.execute(trx);
        await sql`CREATE OR REPLACE TRIGGER ${removed} AFTER DELETE ON ${tbl} REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION row_count_removed()`.execute(trx);
      } else {
        await sql`DROP TRIGGER IF EXISTS ${added}`.execute(trx);
        await sql`DROP TRIGGER IF EXISTS ${removed}`.execute(trx);
        await sql`CREATE TRIGGER ${added} AFTER INSERT ON ${tbl} BEGIN UPDATE row_count SET row_total = row_total + 1 WHERE table_name = ${sql.lit(table)}; END`.execute(trx);
        await sql`CREATE TRIGGER ${removed} AFTER DELETE ON ${tbl} BEGIN UPDATE row_count SET row_total = row_total - 1 WHERE table_name = ${sql.lit(table)}; END`.execute(trx);
      }
      // (`WHERE true`: SQLite reads an upsert after a SELECT only with a WHERE before ON CONFLICT.)
      await sql`INSERT INTO row_count (table_name, row_total) SELECT ${table}, count(*) FROM ${tbl} WHERE true
        ON CONFLICT (table_name) DO UPDATE SET row_total = excluded.row_total`.execute(trx);
      await trx.deleteFrom(ROW_COUNT_DELTA_TABLE).where('table_name', '=', table).execute();
      await countValues(trx, dialect, table, columns);
    });
  }
}

/**
 * Before a table is renamed: its triggers and counts under the old name go. The triggers would follow the
 * table, and beside those the start makes under the new name, count its rows twice on PostgreSQL (which
 * reads the table's name when it fires) or into the old name's count on SQLite; the start counts the
 * table afresh under its new name.
 */
export async function dropRowCounters(db: DynamicDb, dialect: DatabaseHandle['dialect'], table: string): Promise<void> {
  for (const suffix of ['ai', 'ad'] as const) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(triggerName(table, suffix))}${dialect === 'postgres' ? sql` ON ${sql.table(table)}` : sql``}`.execute(db);
  }
  await dropValueCounters(db, dialect, table);
  for (const counts of [ROW_COUNT_TABLE, ROW_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE, VALUE_COUNT_DELTA_TABLE]) {
    await db.deleteFrom(counts).where('table_name', '=', table).execute();
  }
}

/**
 * PostgreSQL: the changes appended since the last fold, added into their tables' count rows, in one
 * statement (a reader sees the changes or the folded count, never both or neither); then the same for
 * the counts per value. Only this takes the count rows' locks, and no writer waits on them.
 */
export async function foldRowCounts(handle: DatabaseHandle, db: DynamicDb): Promise<void> {
  if (handle.dialect !== 'postgres') return;
  await sql`WITH moved AS (DELETE FROM row_count_delta RETURNING table_name, delta),
      summed AS (SELECT table_name, sum(delta) AS delta FROM moved GROUP BY table_name)
    UPDATE row_count SET row_total = row_count.row_total + summed.delta FROM summed WHERE row_count.table_name = summed.table_name`.execute(db);
  await foldValueCounts(db);
}

declare module './system-tables.js' {
  interface SystemTables {
    [ROW_COUNT_TABLE]: RowCountTable;
    [ROW_COUNT_DELTA_TABLE]: RowCountDeltaTable;
  }
}
