import { sql, type Expression, type RawBuilder } from 'kysely';
import type { ResourceDefinition } from '../../schema/definition.js';
import type { DialectName, DynamicDb } from './connection.js';
import { VALUE_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE } from './system-tables.js';

/**
 * The number of rows holding each value of a few columns, kept by the database the way the row count
 * is (db/row-counter.ts): triggers move it inside the transaction of every insert, delete and update
 * that changes the column's value, so a list filtered to one value (`status = 'hidden'`) reads its exact
 * total in one lookup instead of counting every matching row.
 *   - SQLite: row triggers update the value's count row (making it on the first row of a new value).
 *   - PostgreSQL: statement triggers append the statement's net change of each value to
 *     `row_count_by_value_delta`, folded into the count rows by `foldRowCounts` like the row count's.
 * Counted are the columns with a short declared list of values that the list filters by equality
 * (`countedColumns`): a count per value stays a few rows, never one per free-text value. NULL is not
 * counted (an equality filter never matches it). Values are kept as text: the column's value cast to
 * text, which is how `String` writes a declared value.
 *
 * Each start recounts them with the table's row count, writers held off, and makes the counted
 * columns' count row of every declared value (0 when no row holds it): a declared value without a count
 * row means the counter was never made for that column, and the list counts instead.
 */
interface ValueCountTable {
  table_name: string;
  column_name: string;
  value: string;
  row_total: number | string;
}

interface ValueCountDeltaTable {
  table_name: string;
  column_name: string;
  value: string;
  delta: number | string;
}

/** A column whose rows are counted per value, with the values its schema declares. */
export interface CountedColumn {
  name: string;
  values: string[];
}

/** Longer value lists are not counted: the per-value counts stay a handful of rows per column. */
const MAX_COUNTED_VALUES = 64;

/**
 * The columns of a resource whose rows are counted per value: stored columns whose schema lists their
 * values (an enum) and whose list filter is `=`, kept as integers or text (a real or a money column
 * would not cast to the declared text).
 */
export function countedColumns(definition: ResourceDefinition): CountedColumn[] {
  return definition.fields
    .filter((field) => field.enum && field.enum.length > 0 && field.enum.length <= MAX_COUNTED_VALUES && field.ui.search === '=' && !field.writeOnly && field.name !== definition.primaryKey)
    .filter((field) => field.storage?.type === 'varchar' || field.storage?.type === 'text' || field.storage?.type === 'bigint')
    .map((field) => ({ name: field.name, values: [...new Set((field.enum ?? []).map(String))] }));
}

export async function ensureValueCountTables(db: DynamicDb): Promise<void> {
  await db.schema
    .createTable(VALUE_COUNT_TABLE)
    .ifNotExists()
    .addColumn('table_name', 'varchar(64)', (column) => column.notNull())
    .addColumn('column_name', 'varchar(64)', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('row_total', 'bigint', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('row_count_by_value_key', ['table_name', 'column_name', 'value'])
    .execute();
  // Made on SQLite too, where it stays empty: the lists read the count the same way on both.
  await db.schema
    .createTable(VALUE_COUNT_DELTA_TABLE)
    .ifNotExists()
    .addColumn('table_name', 'varchar(64)', (column) => column.notNull())
    .addColumn('column_name', 'varchar(64)', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('delta', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('row_count_by_value_delta_value').ifNotExists().on(VALUE_COUNT_DELTA_TABLE).columns(['table_name', 'column_name', 'value']).execute();
}

type ValueTrigger = 'ai' | 'ad' | 'au';

/** The table's three value triggers (and on PostgreSQL their functions, of the same names). */
function valueTriggerName(table: string, suffix: ValueTrigger): string {
  return `${table}_values_${suffix}`.slice(0, 63);
}

const VALUE_TRIGGERS: readonly ValueTrigger[] = ['ai', 'ad', 'au'];

/** Those of the table's value triggers that exist. */
async function existingValueTriggers(db: DynamicDb, dialect: DialectName, table: string): Promise<string[]> {
  const names = VALUE_TRIGGERS.map((suffix) => valueTriggerName(table, suffix));
  const found =
    dialect === 'postgres'
      ? await sql<{ name: string }>`SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.relname = ${table} AND pg_table_is_visible(c.oid) AND t.tgname IN (${sql.join(names)})`.execute(db)
      : await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table} AND name IN (${sql.join(names)})`.execute(db);
  return found.rows.map((row) => row.name);
}

/**
 * Drop the table's value triggers, if it has any (on PostgreSQL dropping a trigger locks out the
 * table's readers too, until the transaction ends: only done when there is one to drop). A migration
 * drops them before it renames the table or renames or drops a column: the triggers name both, and on
 * PostgreSQL would fail on the next write; the start makes them again after the migration.
 */
export async function dropValueCounters(db: DynamicDb, dialect: DialectName, table: string): Promise<void> {
  for (const name of await existingValueTriggers(db, dialect, table)) {
    if (dialect === 'postgres') {
      await sql`DROP TRIGGER ${sql.id(name)} ON ${sql.table(table)}`.execute(db);
      await sql`DROP FUNCTION IF EXISTS ${sql.id(name)}()`.execute(db);
    } else {
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
    }
  }
}

/** The column's value as its count row keeps it. */
function asText(value: Expression<unknown> | RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`CAST(${value} AS TEXT)`;
}

/**
 * (Re)make the value triggers of `table` for `columns` (none: dropped) and recount the columns' values.
 * Run inside the transaction that holds the table's writers off and recounts its rows.
 */
export async function countValues(trx: DynamicDb, dialect: DialectName, table: string, columns: readonly CountedColumn[]): Promise<void> {
  // PostgreSQL replaces its triggers in place, which keeps the table readable; SQLite has no
  // CREATE OR REPLACE TRIGGER (and no readers waiting on its locks).
  if (dialect === 'sqlite' || columns.length === 0) await dropValueCounters(trx, dialect, table);
  if (columns.length > 0) {
    if (dialect === 'postgres') await makePostgresTriggers(trx, table, columns);
    else await makeSqliteTriggers(trx, table, columns);
  }
  await trx.deleteFrom(VALUE_COUNT_TABLE).where('table_name', '=', table).execute();
  await trx.deleteFrom(VALUE_COUNT_DELTA_TABLE).where('table_name', '=', table).execute();
  for (const column of columns) {
    const ref = sql.ref(column.name);
    // Grouped by the column itself (an index leading with it serves that); stored values with the same text add up.
    // (`WHERE true`: SQLite reads an upsert after a SELECT only with a WHERE before ON CONFLICT.)
    await sql`INSERT INTO row_count_by_value (table_name, column_name, value, row_total)
      SELECT ${table}, ${column.name}, ${asText(sql.ref('counted.value'))}, counted.total
      FROM (SELECT ${ref} AS value, count(*) AS total FROM ${sql.table(table)} WHERE ${ref} IS NOT NULL GROUP BY ${ref}) AS counted WHERE true
      ON CONFLICT (table_name, column_name, value) DO UPDATE SET row_total = row_count_by_value.row_total + excluded.row_total`.execute(trx);
    await trx
      .insertInto(VALUE_COUNT_TABLE)
      .values(column.values.map((value) => ({ table_name: table, column_name: column.name, value, row_total: 0 })))
      .onConflict((conflict) => conflict.columns(['table_name', 'column_name', 'value']).doNothing())
      .execute();
  }
}

/**
 * SQLite: one writer at a time, so each row's trigger moves the count rows itself. An update moves a
 * column's counts only when its value changed (`IS NOT`: NULL to a value is a change).
 */
async function makeSqliteTriggers(trx: DynamicDb, table: string, columns: readonly CountedColumn[]): Promise<void> {
  const tbl = sql.table(table);
  const added = (column: CountedColumn, changed: RawBuilder<unknown>) => {
    const value = sql`new.${sql.id(column.name)}`;
    return sql`INSERT INTO row_count_by_value (table_name, column_name, value, row_total)
      SELECT ${sql.lit(table)}, ${sql.lit(column.name)}, ${asText(value)}, 1 WHERE ${value} IS NOT NULL AND ${changed}
      ON CONFLICT (table_name, column_name, value) DO UPDATE SET row_total = row_total + 1;`;
  };
  const removed = (column: CountedColumn, changed: RawBuilder<unknown>) =>
    sql`UPDATE row_count_by_value SET row_total = row_total - 1
      WHERE table_name = ${sql.lit(table)} AND column_name = ${sql.lit(column.name)} AND value = ${asText(sql`old.${sql.id(column.name)}`)} AND ${changed};`;
  const always = sql`1`;
  const changedOf = (column: CountedColumn) => sql`old.${sql.id(column.name)} IS NOT new.${sql.id(column.name)}`;
  const list = (items: RawBuilder<unknown>[]) => sql.join(items, sql` `);
  await sql`CREATE TRIGGER ${sql.id(valueTriggerName(table, 'ai'))} AFTER INSERT ON ${tbl} BEGIN ${list(columns.map((column) => added(column, always)))} END`.execute(trx);
  await sql`CREATE TRIGGER ${sql.id(valueTriggerName(table, 'ad'))} AFTER DELETE ON ${tbl} BEGIN ${list(columns.map((column) => removed(column, always)))} END`.execute(trx);
  const updated = columns.flatMap((column) => [removed(column, changedOf(column)), added(column, changedOf(column))]);
  await sql`CREATE TRIGGER ${sql.id(valueTriggerName(table, 'au'))} AFTER UPDATE OF ${sql.join(columns.map((column) => sql.id(column.name)))} ON ${tbl} BEGIN ${list(updated)} END`.execute(trx);
}

/**
 * PostgreSQL: writers run side by side, so each statement appends its net change of every value, read
 * from its transition tables, to the delta table (see row-counter.ts). PostgreSQL gives no transition
 * tables to a trigger limited to some columns: the update trigger fires on every update and appends only
 * the values whose count moved (the new rows' values counted up, the old rows' down: an update that
 * leaves the column as it was nets zero and appends nothing).
 */
async function makePostgresTriggers(trx: DynamicDb, table: string, columns: readonly CountedColumn[]): Promise<void> {
  const tbl = sql.table(table);
  const moves = (column: CountedColumn, from: string, change: number) => sql`SELECT ${asText(sql.id(column.name))} AS value, ${sql.lit(change)} AS change FROM ${sql.id(from)}`;
  const statementOf = (parts: (column: CountedColumn) => RawBuilder<unknown>) =>
    sql`INSERT INTO row_count_by_value_delta (table_name, column_name, value, delta) ${sql.join(
      columns.map((column) => sql`SELECT ${sql.lit(table)}, ${sql.lit(column.name)}, moved.value, sum(moved.change) FROM (${parts(column)}) AS moved WHERE moved.value IS NOT NULL GROUP BY moved.value HAVING sum(moved.change) <> 0`),
      sql` UNION ALL `,
    )}`;
  const bodies: Record<ValueTrigger, RawBuilder<unknown>> = {
    ai: statementOf((column) => moves(column, 'added_rows', 1)),
    ad: statementOf((column) => moves(column, 'removed_rows', -1)),
    au: statementOf((column) => sql`${moves(column, 'new_rows', 1)} UNION ALL ${moves(column, 'old_rows', -1)}`),
  };
  const events: Record<ValueTrigger, RawBuilder<unknown>> = {
    ai: sql`AFTER INSERT ON ${tbl} REFERENCING NEW TABLE AS added_rows`,
    ad: sql`AFTER DELETE ON ${tbl} REFERENCING OLD TABLE AS removed_rows`,
    au: sql`AFTER UPDATE ON ${tbl} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows`,
  };
  for (const suffix of VALUE_TRIGGERS) {
    const name = sql.id(valueTriggerName(table, suffix));
    // The body is compiled to text here and handed to PostgreSQL as one quoted literal: every name in it
    // went through `sql.id` or `sql.lit`, and no dollar quote can be closed early by a table's name.
    const body = sql`BEGIN ${bodies[suffix]}; RETURN NULL; END`.compile(trx);
    if (body.parameters.length > 0) throw new Error(`value triggers of ${table}: unexpected parameters`);
    await sql`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(body.sql)}`.execute(trx);
    await sql`CREATE OR REPLACE TRIGGER ${name} ${events[suffix]} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`.execute(trx);
  }
}

/** PostgreSQL: the value changes appended since the last fold, added into their count rows in one statement. */
export async function foldValueCounts(db: DynamicDb): Promise<void> {
  await sql`WITH moved AS (DELETE FROM row_count_by_value_delta RETURNING table_name, column_name, value, delta),
      summed AS (SELECT table_name, column_name, value, sum(delta) AS delta FROM moved GROUP BY table_name, column_name, value)
    INSERT INTO row_count_by_value (table_name, column_name, value, row_total) SELECT table_name, column_name, value, delta FROM summed
    ON CONFLICT (table_name, column_name, value) DO UPDATE SET row_total = row_count_by_value.row_total + excluded.row_total`.execute(db);
}

declare module './system-tables.js' {
  interface SystemTables {
    [VALUE_COUNT_TABLE]: ValueCountTable;
    [VALUE_COUNT_DELTA_TABLE]: ValueCountDeltaTable;
  }
}
