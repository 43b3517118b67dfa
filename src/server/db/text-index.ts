import { sql } from 'kysely';
import type { ResourceDefinition } from '../../schema/definition.js';
import type { DatabaseHandle } from './connection.js';
import { messageOf } from '../../contract/checks.js';

/**
 * Text indexes for quick search (docs/wire-contract.md#index: a case-insensitive substring over the `quickSearch`
 * fields), so a search does not read the whole table. One per searched text column, related
 * columns (`user.username`) included:
 * - SQLite: a contentless FTS5 table with the trigram tokenizer over the column's text (it stores only
 *   the index), kept in step by triggers on insert, update and delete; filled again when made or when
 *   its triggers were lost (a table rebuilt by a migration).
 * - PostgreSQL: a `pg_trgm` GIN index on the column's text, which `ILIKE '%term%'` uses by itself.
 * Whole-number columns (an `id` among the quick-search fields) are indexed as their decimal text.
 * Terms shorter than a trigram cannot use either; the list then filters with LIKE.
 */

/** Shortest term, in characters, a trigram index can answer. */
const MIN_TEXT_INDEX_TERM = 3;

interface TextIndexTarget {
  table: string;
  column: string;
  primaryKey: string;
  /** a whole-number column, searched (and indexed) as its text */
  numeric: boolean;
}

const TEXT_TYPES = new Set(['varchar', 'text']);
const NUMBER_TYPES = new Set(['bigint']);
const PREFIX = 'qs_';
/** `PREFIX` as a LIKE pattern with `ESCAPE '\'`: the underscore is literal. */
const PREFIX_PATTERN = 'qs\\_%';

export function textIndexKey(table: string, column: string): string {
  return `${table}.${column}`;
}

/** `qs_<table>_<column>`, cut to PostgreSQL's identifier length. */
export function textIndexName(table: string, column: string): string {
  return `${PREFIX}${table}_${column}`.slice(0, 60);
}

/** The text columns some list searches quickly, on tables with a whole-number key (FTS5 rows are keyed by it). */
export function textIndexTargets(definitions: readonly ResourceDefinition[]): TextIndexTarget[] {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const targets = new Map<string, TextIndexTarget>();
  const add = (definition: ResourceDefinition | undefined, name: string) => {
    const field = definition?.fields.find((item) => item.name === name && item.storage && !item.writeOnly);
    const key = definition?.fields.find((item) => item.name === definition.primaryKey);
    const type = field?.storage?.type ?? '';
    if (!definition || !(TEXT_TYPES.has(type) || NUMBER_TYPES.has(type)) || key?.storage?.type !== 'bigint') return;
    targets.set(textIndexKey(definition.table, name), { table: definition.table, column: name, primaryKey: definition.primaryKey, numeric: NUMBER_TYPES.has(type) });
  };
  for (const definition of definitions) {
    if (!definition.controller) continue;
    for (const name of definition.list.quickSearch) {
      const [first, second] = name.split('.');
      if (second === undefined) add(definition, first);
      else {
        const local = definition.fields.find((item) => item.ref?.as === first);
        if (local?.ref && !local.ref.many) add(byId.get(local.ref.resource), second);
      }
    }
  }
  return [...targets.values()];
}

/** The FTS5 phrase matching `term` as a substring: double quotes doubled, nothing else special. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Whether a quick-search term is long enough for the trigram index. */
export function indexableTerm(term: string): boolean {
  return [...term].length >= MIN_TEXT_INDEX_TERM;
}

/**
 * Make the database's text indexes match `targets`: create the missing ones (filled from the rows),
 * drop those no schema asks for any more. Returns the keys served by an index (`textIndexKey`).
 */
export async function ensureTextIndexes(handle: DatabaseHandle, targets: readonly TextIndexTarget[]): Promise<Set<string>> {
  return handle.dialect === 'postgres' ? ensureTrigramIndexes(handle, targets) : ensureFtsTables(handle, targets);
}

async function ensureFtsTables(handle: DatabaseHandle, targets: readonly TextIndexTarget[]): Promise<Set<string>> {
  const db = handle.db;
  const wanted = new Map(targets.map((target) => [textIndexName(target.table, target.column), target]));
  const existing = (await sql<{ name: string; type: string; sql: string | null }>`SELECT name, type, sql FROM sqlite_master WHERE name LIKE ${PREFIX_PATTERN} ESCAPE '\\'`.execute(db)).rows;
  // FTS5 keeps its data in shadow tables (`<name>_data`...), which go with the virtual table.
  const indexes = existing.filter((row) => row.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(row.sql ?? ''));
  for (const row of existing) {
    if (row.type === 'trigger' && !wanted.has(row.name.slice(0, -3))) await sql`DROP TRIGGER IF EXISTS ${sql.id(row.name)}`.execute(db);
  }
  for (const row of indexes) if (!wanted.has(row.name)) await sql`DROP TABLE IF EXISTS ${sql.id(row.name)}`.execute(db);
  const names = new Set(existing.map((row) => row.name));
  for (const [name, { table, column, primaryKey }] of wanted) {
    const triggers = { insert: `${name}_ai`, delete: `${name}_ad`, update: `${name}_au` };
    const complete = names.has(name) && Object.values(triggers).every((trigger) => names.has(trigger));
    if (complete) continue;
    await db.transaction().execute(async (trx) => {
      const [fts, col, tbl, key] = [sql.id(name), sql.id(column), sql.id(table), sql.id(primaryKey)];
      const text = (row: 'new' | 'old') => sql`CAST(${sql.raw(row)}.${col} AS TEXT)`;
      await sql`CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(${col}, content='', tokenize='trigram')`.execute(trx);
      await sql`CREATE TRIGGER IF NOT EXISTS ${sql.id(triggers.insert)} AFTER INSERT ON ${tbl} BEGIN
        INSERT INTO ${fts}(rowid, ${col}) VALUES (new.${key}, ${text('new')}); END`.execute(trx);
      await sql`CREATE TRIGGER IF NOT EXISTS ${sql.id(triggers.delete)} AFTER DELETE ON ${tbl} BEGIN
        INSERT INTO ${fts}(${fts}, rowid, ${col}) VALUES ('delete', old.${key}, ${text('old')}); END`.execute(trx);
      await sql`CREATE TRIGGER IF NOT EXISTS ${sql.id(triggers.update)} AFTER UPDATE OF ${col}, ${key} ON ${tbl} BEGIN
        INSERT INTO ${fts}(${fts}, rowid, ${col}) VALUES ('delete', old.${key}, ${text('old')});
        INSERT INTO ${fts}(rowid, ${col}) VALUES (new.${key}, ${text('new')}); END`.execute(trx);
      // Made now, or its triggers went with a rebuilt table: index the rows again.
      await sql`INSERT INTO ${fts}(${fts}) VALUES ('delete-all')`.execute(trx);
      await sql`INSERT INTO ${fts}(rowid, ${col}) SELECT ${key}, CAST(${col} AS TEXT) FROM ${tbl}`.execute(trx);
    });
  }
  return new Set(targets.map((target) => textIndexKey(target.table, target.column)));
}

async function ensureTrigramIndexes(handle: DatabaseHandle, targets: readonly TextIndexTarget[]): Promise<Set<string>> {
  const db = handle.db;
  if (targets.length === 0) return new Set();
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  } catch (error) {
    // Without the extension (not installed, or no right to create it) quick search still works, by scanning.
    console.warn(`text indexes: pg_trgm is not available, quick search will scan (${messageOf(error)})`);
    return new Set();
  }
  const wanted = new Set(targets.map((target) => textIndexName(target.table, target.column)));
  const existing = (await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE ${PREFIX_PATTERN} ESCAPE '\\'`.execute(db)).rows;
  for (const row of existing) if (!wanted.has(row.indexname)) await sql`DROP INDEX IF EXISTS ${sql.id(row.indexname)}`.execute(db);
  for (const { table, column, numeric } of targets) {
    // The expression is the one the list's ILIKE reads: the column, or its text for a number.
    const indexed = numeric ? sql`(CAST(${sql.id(column)} AS TEXT))` : sql.id(column);
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(textIndexName(table, column))} ON ${sql.id(table)} USING gin (${indexed} gin_trgm_ops)`.execute(db);
  }
  return new Set(targets.map((target) => textIndexKey(target.table, target.column)));
}
