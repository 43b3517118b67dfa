import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { sqlitePath } from './connection.js';
import { codeOf } from '../../contract/checks.js';

/**
 * One SQLite file is served by one server process: the background jobs, the throttles and the caches
 * live in the process, and two processes writing one file answer each other "database is locked". So a
 * server holds a lock on a small file beside the database (`<database>-lock`) for as long as it runs,
 * and a second process on the same file is refused at start.
 *
 * The lock is SQLite's own file locking, which the operating system drops when the process ends, even
 * on `kill -9`: the lock file is a tiny SQLite database holding the pid of its server, and the server
 * keeps a read transaction open on it. A reader does not stop another process reading the pid, but it
 * does stop it writing its own, which is what taking the lock is. Servers in one process (tests that
 * restart a server before closing the first) share the process's lock.
 */

/** Another process serves the SQLite file: start-up stops with this one line. */
export class DatabaseInUseError extends Error {}

interface HeldLock {
  sqlite: BetterSqlite3.Database;
  servers: number;
}

/** The locks this process holds, by the lock file's absolute path. */
const held = new Map<string, HeldLock>();

const require = createRequire(import.meta.url);

function isBusy(error: unknown): boolean {
  return String(codeOf(error) ?? '').startsWith('SQLITE_BUSY');
}

/** The pid the lock file names, when it can be read. */
function holderOf(sqlite: BetterSqlite3.Database): number | undefined {
  try {
    const pid: unknown = sqlite.prepare('SELECT pid FROM server').pluck().get();
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}

function refusal(path: string, pid: number | undefined): DatabaseInUseError {
  const other = pid === undefined ? 'another server process' : `another server process (pid ${pid})`;
  return new DatabaseInUseError(
    `the SQLite database ${path} is already served by ${other}. One SQLite file takes one server process; stop the other one, or use PostgreSQL (DATABASE_URL=postgres://…) to run several processes.`,
  );
}

function take(lockFile: string, path: string): BetterSqlite3.Database {
  const SqliteDatabase = require('better-sqlite3') as typeof BetterSqlite3;
  mkdirSync(dirname(lockFile), { recursive: true });
  // No waiting: a lock another process holds is held for as long as that process runs.
  const sqlite = new SqliteDatabase(lockFile, { timeout: 0 });
  try {
    sqlite.exec('BEGIN EXCLUSIVE');
    sqlite.exec('CREATE TABLE IF NOT EXISTS server (pid INTEGER NOT NULL)');
    sqlite.exec('DELETE FROM server');
    sqlite.prepare('INSERT INTO server (pid) VALUES (?)').run(process.pid);
    sqlite.exec('COMMIT');
    // Held from here on. Another process may have written its pid between the commit and this read:
    // then it holds the lock, and this one gives way.
    sqlite.exec('BEGIN');
    const holder = holderOf(sqlite);
    if (holder !== process.pid) throw refusal(path, holder);
    return sqlite;
  } catch (error) {
    const pid = holderOf(sqlite);
    sqlite.close();
    if (error instanceof DatabaseInUseError) throw error;
    if (isBusy(error)) throw refusal(path, pid);
    throw error;
  }
}

/**
 * Takes the lock of the SQLite file `databaseUrl` names, or throws DatabaseInUseError when another
 * process holds it. Returns its release (called once per take). PostgreSQL and `:memory:` need none.
 */
export function lockSqliteFile(databaseUrl: string): () => void {
  const path = sqlitePath(databaseUrl);
  if (path === undefined || path === ':memory:') return () => undefined;
  const lockFile = resolve(`${path}-lock`);
  let lock = held.get(lockFile);
  if (!lock) {
    lock = { sqlite: take(lockFile, path), servers: 0 };
    held.set(lockFile, lock);
  }
  const taken = lock;
  taken.servers += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    taken.servers -= 1;
    if (taken.servers > 0) return;
    held.delete(lockFile);
    taken.sqlite.close();
  };
}
