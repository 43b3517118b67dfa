import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, type SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqliteKysely } from './sqlite-driver.js';

/**
 * Tables are declared at run time by the schemas, so the query builder cannot know them statically;
 * rows are plain records and every identifier is checked against a ResourceDefinition before use.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- table types come from runtime schemas
export type Db = Kysely<any>;

/** A select on any of those tables. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- table types come from runtime schemas
export type AnySelect = SelectQueryBuilder<any, any, any>;

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  url: string;
  close(): Promise<void>;
}

// BIGINT (int8) and NUMERIC arrive as strings from pg; our integers are all below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

/** How long a query waits for a free connection before it fails, rather than waiting forever. */
const CONNECTION_WAIT_MS = 10_000;

export function describeDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** `sqlite:<path>` (default `sqlite:data/app.db`) or `postgres://…`. */
export function openDatabase(url: string): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECTION_WAIT_MS });
    // A connection the server drops (restart, failover, an administrator ending it) must not take the
    // process down: the pool discards an idle client that fails and opens a new one for the next query;
    // a client already being closed may still report the drop, which changes nothing.
    pool.on('error', (error) => console.warn(`database: an idle connection was lost (${error.message})`));
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', url, close: () => db.destroy() };
  }
  if (!url.startsWith('sqlite:')) {
    throw new Error(`DATABASE_URL must start with "sqlite:" or "postgres://", got "${describeDatabaseUrl(url)}"`);
  }
  const path = url.slice('sqlite:'.length) || 'data/app.db';
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db: Db = sqliteKysely(sqlite, CONNECTION_WAIT_MS);
  return { db, dialect: 'sqlite', url, close: () => db.destroy() };
}
