import { dropRowCounters, ensureRowCounters, type CountedTable } from './row-counter.js';
import { createHash } from 'node:crypto';
import { sql, type Generated } from 'kysely';
import type { ColumnStorage, FieldDefinition, IndexDefinition, ResourceDefinition } from '../../schema/definition.js';
import { dynamicDb, type DatabaseHandle, type Db, type DialectName, type DynamicDb } from './connection.js';
import { SCHEMA_STATE_TABLE } from './system-tables.js';
import { storedDefault } from './values.js';
import { declaredField } from './declared-field.js';
import { countedColumns, dropValueCounters, type CountedColumn } from './value-counter.js';
import { messageOf } from '../../contract/checks.js';

/**
 * Migrations derived from the schemas. The last applied shape of every table is kept in
 * `schema_state`; each start compares it with the schemas and applies only safe changes: create
 * table, add column, widen, add index, renames declared with `x-renamedFrom`. Anything that could lose
 * data is refused unless explicitly allowed.
 */

interface ColumnSnapshot {
  type: ColumnStorage['type'];
  length?: number;
  nullable: boolean;
  primary: boolean;
}

interface TableSnapshot {
  columns: Record<string, ColumnSnapshot>;
  indexes: Record<string, IndexDefinition>;
}

export interface MigrationResult {
  /** tables created in this run */
  created: string[];
  /** human-readable list of what changed; empty when nothing did */
  changes: string[];
}

/**
 * A step that could lose data, by what it does to which column: dropped with its values, changed to a
 * narrower or other type (`renamedFrom` when a rename does it), or made NOT NULL (its NULLs take the default).
 * What a screen words for a person; `problems` are the same steps in words for an operator's log.
 */
export interface DataLoss {
  table: string;
  column: string;
  kind: 'drop' | 'narrow' | 'require';
  renamedFrom?: string;
}

export class DestructiveMigrationError extends Error {
  constructor(
    readonly problems: string[],
    readonly losses: DataLoss[] = [],
  ) {
    super(
      `Refusing destructive schema changes:\n  - ${problems.join('\n  - ')}\n` +
        'Nothing was changed. Set ALLOW_DESTRUCTIVE_MIGRATIONS=true to apply them anyway.',
    );
    this.name = 'DestructiveMigrationError';
  }
}

const STATE_TABLE = SCHEMA_STATE_TABLE;

/** A row of the migration state, created by `ensureStateTable` below: the schema a table was last migrated to. */
interface SchemaStateTable {
  table_name: string;
  /** JSON of the table's `TableSnapshot` */
  definition: string;
  /** the version of the menu sync last applied */
  menu_synced: Generated<number>;
}

function snapshotOf(definition: ResourceDefinition): TableSnapshot {
  const columns: Record<string, ColumnSnapshot> = {};
  for (const field of definition.fields) {
    if (!field.storage) continue;
    columns[field.name] = {
      type: field.storage.type,
      length: field.storage.length,
      nullable: field.nullable,
      primary: field.name === definition.primaryKey,
    };
  }
  const indexes: Record<string, IndexDefinition> = {};
  for (const index of definition.indexes) indexes[indexName(definition.table, index)] = index;
  return { columns, indexes };
}

/**
 * An index's name: its kind, table and columns; past 60 characters (PostgreSQL keeps 63) cut, with a
 * hash of the whole name so two long ones that begin alike stay apart.
 */
function indexName(table: string, index: IndexDefinition): string {
  const kind = index.whenSet ? 'uniqset' : index.unique ? 'uniq' : 'idx';
  const name = `${kind}_${table}_${index.columns.map((column) => (index.descending?.includes(column) ? `${column}_desc` : column)).join('_')}`;
  return name.length <= 60 ? name : `${name.slice(0, 51)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

function sqlType(dialect: DialectName, column: ColumnSnapshot): string {
  switch (column.type) {
    case 'bigint':
    case 'money':
    case 'boolean':
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'real':
      return dialect === 'sqlite' ? 'real' : 'double precision';
    case 'varchar':
      return `varchar(${column.length ?? 255})`;
    case 'text':
    case 'json':
    case 'csv':
      return 'text';
  }
}

function fieldsByName(definition: ResourceDefinition): Map<string, FieldDefinition> {
  return new Map(definition.fields.map((field) => [field.name, field]));
}

async function ensureStateTable(db: DynamicDb): Promise<void> {
  await db.schema
    .createTable(STATE_TABLE)
    .ifNotExists()
    .addColumn('table_name', 'varchar(100)', (column) => column.primaryKey())
    .addColumn('definition', 'text', (column) => column.notNull())
    .addColumn('menu_synced', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

async function existingTables(db: DynamicDb): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  return new Set(tables.map((table) => table.name));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's column builder is generic over the table
function columnBuilder(dialect: DialectName, definition: ResourceDefinition, name: string, column: ColumnSnapshot): (builder: any) => any {
  const field = declaredField(definition, name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  return (builder: any) => {
    let result = builder;
    if (column.primary) {
      result = result.primaryKey();
      if (column.type === 'bigint' && dialect === 'sqlite') result = result.autoIncrement();
      return result;
    }
    if (!column.nullable) {
      result = result.notNull();
      const fallback = storedDefault(field);
      if (fallback !== null && fallback !== undefined) result = result.defaultTo(fallback);
    }
    return result;
  };
}

async function createTable(handle: DatabaseHandle, definition: ResourceDefinition, snapshot: TableSnapshot, tableName = definition.table) {
  const { dialect } = handle;
  const db = dynamicDb(handle.db);
  let builder = db.schema.createTable(tableName);
  for (const [name, column] of Object.entries(snapshot.columns)) {
    const type = column.primary && column.type === 'bigint' && dialect === 'postgres' ? 'bigserial' : sqlType(dialect, column);
    builder = builder.addColumn(name, sql.raw(type), columnBuilder(dialect, definition, name, column));
  }
  await builder.execute();
}

async function createIndex(db: DynamicDb, table: string, name: string, index: IndexDefinition) {
  let builder = db.schema.createIndex(name).ifNotExists().on(table).columns(index.columns.map((column) => (index.descending?.includes(column) ? `${column} desc` : column)));
  if (index.unique) builder = builder.unique();
  if (index.whenSet) for (const column of index.columns) builder = builder.where(sql.ref(column), 'is not', null).where(sql.ref(column), '<>', '');
  try {
    await builder.execute();
  } catch (error) {
    if (!index.unique) throw error;
    throw new Error(`migration: cannot add the unique index ${name}: rows of "${table}" share a value of ${index.columns.join(', ')}; make them differ first (${messageOf(error)})`);
  }
}

function isWidening(before: ColumnSnapshot, after: ColumnSnapshot): boolean {
  if (before.type === after.type) {
    if (before.type === 'varchar') return (after.length ?? 0) >= (before.length ?? 0);
    return true;
  }
  const textual = ['text', 'json', 'csv'];
  if (before.type === 'varchar' && textual.includes(after.type)) return true;
  if (textual.includes(before.type) && textual.includes(after.type)) return true;
  if (before.type === 'bigint' && after.type === 'real') return true;
  return false;
}

interface Plan {
  renameTableFrom?: string;
  /** the table existed without a record of ours: its record is written even when nothing else changes */
  adopted?: boolean;
  create: boolean;
  renames: [string, string][];
  adds: string[];
  widen: string[];
  /** narrowed or changed type: destructive, applied only when allowed */
  retype: string[];
  relaxNull: string[];
  /** nullable → NOT NULL: existing NULLs take the default first */
  requireValue: string[];
  drops: string[];
  dropIndexes: string[];
  addIndexes: string[];
  destructive: string[];
  losses: DataLoss[];
}

function plan(definition: ResourceDefinition, previous: TableSnapshot | undefined, next: TableSnapshot, file: string): Plan {
  const result: Plan = { create: false, renames: [], adds: [], widen: [], retype: [], relaxNull: [], requireValue: [], drops: [], dropIndexes: [], addIndexes: [], destructive: [], losses: [] };
  if (!previous) return { ...result, create: true, addIndexes: Object.keys(next.indexes) };
  const fields = fieldsByName(definition);
  const consumed = new Set<string>();
  for (const [name, column] of Object.entries(next.columns)) {
    const before = previous.columns[name];
    if (!before) {
      const from = fields.get(name)?.renamedFrom;
      if (from && previous.columns[from] && !next.columns[from]) {
        result.renames.push([from, name]);
        consumed.add(from);
        const renamed = previous.columns[from];
        if (!isWidening(renamed, column)) {
          result.destructive.push(`${file}: column "${definition.table}.${from}" renamed to "${name}" with a narrower type`);
          result.losses.push({ table: definition.table, column: name, kind: 'narrow', renamedFrom: from });
        } else if (renamed.type !== column.type || renamed.length !== column.length) {
          // Renamed and widened (a varchar becoming text): the rename comes first, then the new type.
          result.widen.push(name);
        }
      } else {
        result.adds.push(name);
      }
      continue;
    }
    consumed.add(name);
    const sameShape = before.type === column.type && before.length === column.length;
    if (!sameShape) {
      if (isWidening(before, column)) result.widen.push(name);
      else {
        result.retype.push(name);
        result.destructive.push(`${file}: column "${definition.table}.${name}" would change from ${describe(before)} to ${describe(column)}`);
        result.losses.push({ table: definition.table, column: name, kind: 'narrow' });
      }
    }
    if (before.nullable && !column.nullable) {
      result.requireValue.push(name);
      result.destructive.push(`${file}: column "${definition.table}.${name}" would become NOT NULL (existing NULLs would take the default)`);
      result.losses.push({ table: definition.table, column: name, kind: 'require' });
    } else if (!before.nullable && column.nullable) {
      result.relaxNull.push(name);
    }
  }
  for (const name of Object.keys(previous.columns)) {
    if (!consumed.has(name)) {
      result.drops.push(name);
      result.destructive.push(`${file}: column "${definition.table}.${name}" would be dropped with its data (declare "x-renamedFrom" to rename it)`);
      result.losses.push({ table: definition.table, column: name, kind: 'drop' });
    }
  }
  for (const name of Object.keys(previous.indexes)) if (!next.indexes[name]) result.dropIndexes.push(name);
  for (const name of Object.keys(next.indexes)) if (!previous.indexes[name]) result.addIndexes.push(name);
  return result;
}

function describe(column: ColumnSnapshot): string {
  return column.type === 'varchar' ? `varchar(${column.length})` : column.type;
}

function isEmptyPlan(step: Plan): boolean {
  return !step.create && !step.renameTableFrom && [step.renames, step.adds, step.widen, step.retype, step.relaxNull, step.requireValue, step.drops, step.dropIndexes, step.addIndexes].every((list) => list.length === 0);
}

/** SQLite cannot alter a column's type or nullability: rebuild the table with the new shape. */
async function rebuildSqliteTable(handle: DatabaseHandle, definition: ResourceDefinition, snapshot: TableSnapshot, keep: string[], requireValue: string[]) {
  const temporary = `${definition.table}__rebuild`;
  await createTable(handle, definition, snapshot, temporary);
  const columns = keep.map((name) => sql.ref(name));
  // Columns that become NOT NULL take their default where they held NULL.
  const values = keep.map((name) =>
    requireValue.includes(name) ? sql`COALESCE(${sql.ref(name)}, ${storedDefault(declaredField(definition, name))})` : sql.ref(name),
  );
  await sql`INSERT INTO ${sql.table(temporary)} (${sql.join(columns)}) SELECT ${sql.join(values)} FROM ${sql.table(definition.table)}`.execute(handle.db);
  await handle.db.schema.dropTable(definition.table).execute();
  await handle.db.schema.alterTable(temporary).renameTo(definition.table).execute();
}

/** What a migration step did that a table's seed rows follow: it made the table, or added columns to it. */
export interface TableGrowth {
  created: boolean;
  /** columns added to a table made earlier */
  addedColumns: string[];
}

interface MigrateOptions {
  allowDestructive?: boolean;
  /** file name per schema id, for messages */
  files?: Record<string, string>;
  /**
   * Writes what the seeds owe a table the step made or grew (`seedTable` in db/seed.ts), with `handle`
   * on the step's own transaction: a start cut short at any point (a crash, `kill -9`) leaves each table
   * either as it was or made with its seed rows, never made and empty, and the next start goes on from there.
   */
  seedTable?(handle: DatabaseHandle, definition: ResourceDefinition, growth: TableGrowth): Promise<void>;
}

type Step = { definition: ResourceDefinition; next: TableSnapshot; step: Plan };

/** What each definition's table needs, compared with the last applied shape (nothing is changed). */
async function planSteps(handle: DatabaseHandle, definitions: ResourceDefinition[], options: MigrateOptions): Promise<Step[]> {
  const db = dynamicDb(handle.db);
  await ensureStateTable(db);
  const tables = await existingTables(db);
  const stateRows = await db.selectFrom(STATE_TABLE).select(['table_name', 'definition']).execute();
  const state = new Map(stateRows.map((row) => [row.table_name, JSON.parse(row.definition) as TableSnapshot]));

  const steps: Step[] = [];
  for (const definition of definitions) {
    const file = options.files?.[definition.id] ?? `schemas/${definition.id}.json`;
    const next = snapshotOf(definition);
    let previous = state.get(definition.table);
    let renameTableFrom: string | undefined;
    if (!previous && definition.renamedFrom && state.has(definition.renamedFrom) && !tables.has(definition.table)) {
      previous = state.get(definition.renamedFrom);
      renameTableFrom = definition.renamedFrom;
    }
    const adopting = !previous && tables.has(definition.table);
    if (adopting) {
      // A table we have no record of (e.g. imported from an existing BuildAdmin database): adopt the
      // columns it has and add the rest.
      previous = await adoptExisting(db, definition, next);
    }
    const step = plan(definition, previous, next, file);
    step.renameTableFrom = renameTableFrom;
    step.adopted = adopting;
    steps.push({ definition, next, step });
  }
  return steps;
}

/** A migration described before it runs: each step in words, and those that could lose data. */
export interface MigrationPreview {
  steps: string[];
  destructive: string[];
  losses: DataLoss[];
}

/** What `migrate` would do to bring the database to `definitions`, without doing it. */
export async function planMigration(handle: DatabaseHandle, definitions: ResourceDefinition[], options: MigrateOptions = {}): Promise<MigrationPreview> {
  const planned = await planSteps(handle, definitions, options);
  const steps: string[] = [];
  for (const { definition, next, step } of planned) {
    if (isEmptyPlan(step)) continue;
    const table = definition.table;
    if (step.renameTableFrom) steps.push(`rename table ${step.renameTableFrom} → ${table}`);
    if (step.create) steps.push(`create table ${table} (${Object.keys(next.columns).join(', ')})`);
    for (const [from, to] of step.renames) steps.push(`rename column ${table}.${from} → ${to}`);
    for (const name of step.adds) steps.push(`add column ${table}.${name} ${describe(next.columns[name])}`);
    for (const name of step.widen) steps.push(`widen column ${table}.${name} to ${describe(next.columns[name])}`);
    for (const name of step.retype) steps.push(`change column ${table}.${name} to ${describe(next.columns[name])}`);
    for (const name of step.relaxNull) steps.push(`make column ${table}.${name} nullable`);
    for (const name of step.requireValue) steps.push(`make column ${table}.${name} NOT NULL`);
    for (const name of step.drops) steps.push(`drop column ${table}.${name}`);
    for (const name of step.dropIndexes) steps.push(`drop index ${name}`);
    for (const name of step.addIndexes) steps.push(`add index ${name} (${next.indexes[name].columns.join(', ')})`);
  }
  return { steps, destructive: planned.flatMap(({ step }) => step.destructive), losses: planned.flatMap(({ step }) => step.losses) };
}

/** Bring the database to the shape of the schemas. Running it twice changes nothing. */
export async function migrate(handle: DatabaseHandle, definitions: ResourceDefinition[], options: MigrateOptions = {}): Promise<MigrationResult> {
  const { dialect } = handle;
  const db = dynamicDb(handle.db);
  const steps = await planSteps(handle, definitions, options);

  const problems = steps.flatMap(({ step }) => step.destructive);
  if (problems.length && !options.allowDestructive) throw new DestructiveMigrationError(problems, steps.flatMap(({ step }) => step.losses));

  const result: MigrationResult = { created: [], changes: [] };
  for (const { definition, next, step } of steps) {
    // An adopted table's record is written even when it needs nothing, so a later change (a rename, a drop) is
    // planned against the columns it had, not adopted again.
    if (isEmptyPlan(step) && !step.adopted) continue;
    const table = definition.table;
    await handle.db.transaction().execute(async (typedTrx) => {
      const scoped: DatabaseHandle = { ...handle, db: typedTrx };
      const trx = dynamicDb(typedTrx);
      // The per-value count triggers name the table and its columns (PostgreSQL's would fail on the next
      // write, this step's own included): dropped before a rename or a drop, made again after the steps.
      if (step.renameTableFrom) await dropRowCounters(trx, dialect, step.renameTableFrom);
      else if (step.renames.length > 0 || step.drops.length > 0) await dropValueCounters(trx, dialect, table);
      if (step.renameTableFrom) {
        await trx.schema.alterTable(step.renameTableFrom).renameTo(table).execute();
        await trx.deleteFrom(STATE_TABLE).where('table_name', '=', step.renameTableFrom).execute();
        result.changes.push(`renamed table ${step.renameTableFrom} → ${table}`);
      }
      if (step.create) {
        await createTable(scoped, definition, next);
        result.created.push(table);
        result.changes.push(`created table ${table}`);
      }
      for (const [from, to] of step.renames) {
        await trx.schema.alterTable(table).renameColumn(from, to).execute();
        result.changes.push(`renamed column ${table}.${from} → ${to}`);
      }
      for (const name of step.dropIndexes) {
        await trx.schema.dropIndex(name).ifExists().execute();
        result.changes.push(`dropped index ${name}`);
      }
      const sqliteRebuild = dialect === 'sqlite' && (step.widen.some((name) => next.columns[name].type !== 'varchar') || step.retype.length > 0 || step.relaxNull.length > 0 || step.requireValue.length > 0 || step.drops.length > 0);
      if (sqliteRebuild) {
        const keep = Object.keys(next.columns).filter((name) => !step.adds.includes(name));
        await rebuildSqliteTable(scoped, definition, next, keep, step.requireValue);
        for (const name of Object.keys(next.indexes)) await createIndex(trx, table, name, next.indexes[name]);
        result.changes.push(`rebuilt table ${table} (${[...step.widen, ...step.retype, ...step.relaxNull, ...step.requireValue, ...step.drops].join(', ')})`);
      } else {
        for (const name of step.drops) {
          await trx.schema.alterTable(table).dropColumn(name).execute();
          result.changes.push(`dropped column ${table}.${name}`);
        }
        for (const name of step.widen) {
          if (dialect === 'postgres') {
            await trx.schema.alterTable(table).alterColumn(name, (column) => column.setDataType(sql.raw(sqlType(dialect, next.columns[name])))).execute();
          }
          // SQLite does not enforce varchar lengths: widening a varchar is a bookkeeping change only.
          result.changes.push(`widened column ${table}.${name} to ${describe(next.columns[name])}`);
        }
        for (const name of step.retype) {
          // PostgreSQL only (SQLite rebuilds): an explicit cast truncates text and converts numbers; the old
          // default may not cast to the new type, so it is replaced by the new one.
          const type = sql.raw(sqlType(dialect, next.columns[name]));
          const { nullable, primary } = next.columns[name];
          if (!primary) await trx.schema.alterTable(table).alterColumn(name, (column) => column.dropDefault()).execute();
          await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(name)} TYPE ${type} USING ${sql.ref(name)}::${type}`.execute(trx);
          const fallback = nullable || primary ? null : storedDefault(declaredField(definition, name));
          if (fallback !== null && fallback !== undefined) {
            await trx.schema.alterTable(table).alterColumn(name, (column) => column.setDefault(fallback)).execute();
          }
          result.changes.push(`changed column ${table}.${name} to ${describe(next.columns[name])}`);
        }
        for (const name of step.relaxNull) {
          await trx.schema.alterTable(table).alterColumn(name, (column) => column.dropNotNull()).execute();
          result.changes.push(`made column ${table}.${name} nullable`);
        }
        for (const name of step.requireValue) {
          const fallback = storedDefault(declaredField(definition, name));
          await trx.updateTable(table).set({ [name]: fallback }).where(name, 'is', null).execute();
          await trx.schema.alterTable(table).alterColumn(name, (column) => column.setNotNull()).execute();
          if (fallback !== null && fallback !== undefined) await trx.schema.alterTable(table).alterColumn(name, (column) => column.setDefault(fallback)).execute();
          result.changes.push(`made column ${table}.${name} NOT NULL`);
        }
      }
      for (const name of step.adds) {
        if (sqliteRebuild) {
          // the rebuilt table already has it
        } else {
          await trx.schema.alterTable(table).addColumn(name, sql.raw(sqlType(dialect, next.columns[name])), columnBuilder(dialect, definition, name, next.columns[name])).execute();
        }
        result.changes.push(`added column ${table}.${name}`);
      }
      for (const name of step.addIndexes) {
        await createIndex(trx, table, name, next.indexes[name]);
        if (!step.create) result.changes.push(`added index ${name}`);
      }
      const growth: TableGrowth = { created: step.create, addedColumns: step.create ? [] : step.adds };
      if (growth.created || growth.addedColumns.length > 0) await options.seedTable?.(scoped, definition, growth);
      const definitionJson = JSON.stringify(next);
      const updated = await trx.updateTable(STATE_TABLE).set({ definition: definitionJson }).where('table_name', '=', table).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        await trx.insertInto(STATE_TABLE).values({ table_name: table, definition: definitionJson, menu_synced: 0 }).execute();
      }
    });
  }
  // After any rebuild above, which takes a table's triggers with it.
  await ensureRowCounters(handle, db, countedTables(definitions));
  return result;
}

/** Each schema table once, with the columns counted per value of every schema on it (their values united). */
function countedTables(definitions: readonly ResourceDefinition[]): CountedTable[] {
  const tables = new Map<string, Map<string, Set<string>>>();
  for (const definition of definitions) {
    let columns = tables.get(definition.table);
    if (!columns) tables.set(definition.table, (columns = new Map()));
    for (const column of countedColumns(definition)) {
      let values = columns.get(column.name);
      if (!values) columns.set(column.name, (values = new Set()));
      for (const value of column.values) values.add(value);
    }
  }
  return [...tables].map(([table, columns]) => ({ table, columns: [...columns].map(([name, values]): CountedColumn => ({ name, values: [...values] })) }));
}

async function adoptExisting(db: DynamicDb, definition: ResourceDefinition, next: TableSnapshot): Promise<TableSnapshot> {
  const tables = await db.introspection.getTables();
  const table = tables.find((item) => item.name === definition.table);
  const present = new Set(table?.columns.map((column) => column.name) ?? []);
  const columns: Record<string, ColumnSnapshot> = {};
  for (const [name, column] of Object.entries(next.columns)) if (present.has(name)) columns[name] = column;
  return { columns, indexes: {} };
}

/**
 * The tables of `definitions` whose last applied shape (`schema_state`) is not the one they declare: a
 * table never made, a column or an index missing, a change not applied. Empty when the database is at
 * the schemas' version. One read of the migration state, nothing changed: the readiness probe asks it.
 */
export async function tablesBehind(db: DynamicDb, definitions: Iterable<ResourceDefinition>): Promise<string[]> {
  const rows = await db.selectFrom(STATE_TABLE).select(['table_name', 'definition']).execute();
  const stored = new Map(rows.map((row) => [row.table_name, row.definition]));
  const behind = new Set<string>();
  for (const definition of definitions) {
    const next = snapshotOf(definition);
    const text = stored.get(definition.table);
    if (text === JSON.stringify(next)) continue;
    if (text === undefined || !isEmptyPlan(plan(definition, JSON.parse(text) as TableSnapshot, next, definition.id))) behind.add(definition.table);
  }
  return [...behind].sort();
}

/** Which menu sync each table's rules have had (0: none); see `MENU_SYNC_VERSION` in seed.ts. */
export async function menuSyncVersions(db: DynamicDb): Promise<Map<string, number>> {
  const rows = await db.selectFrom(STATE_TABLE).select(['table_name', 'menu_synced']).execute();
  return new Map(rows.map((row) => [row.table_name, Number(row.menu_synced)]));
}

export async function markMenuSynced(db: DynamicDb, table: string, version: number): Promise<void> {
  await db.updateTable(STATE_TABLE).set({ menu_synced: version }).where('table_name', '=', table).execute();
}

/** Forget the applied shape of a table that was dropped, so a later schema for it creates it afresh. */
export async function forgetTable(db: Db, table: string): Promise<void> {
  await db.deleteFrom(STATE_TABLE).where('table_name', '=', table).execute();
}

declare module './system-tables.js' {
  interface SystemTables {
    [SCHEMA_STATE_TABLE]: SchemaStateTable;
  }
}
