/**
 * What `scripts/backup.mjs` and `scripts/restore.mjs` share: where the server keeps its data (the same
 * `DATABASE_URL` and `STORAGE_DIR` as the server, with the same defaults), the layout of a backup
 * directory, and how PostgreSQL's client programs are called. Plain Node (no tsx, no build) so it runs in
 * a production install (`npm ci --omit=dev`). docs/deploy.md#backups describes the commands.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files of a backup directory. */
export const BACKUP_FILES = {
  manifest: 'backup.json',
  sqlite: 'database.sqlite',
  postgres: 'database.pgdump',
  storage: 'storage',
};
const FORMAT = 1;

/** Stop with a line for the operator (see `runCommand`). */
export function fail(message) {
  throw new Error(message);
}

/** Run a script's work; a failure prints `error: <message>` and exits 1. */
export async function runCommand(work) {
  try {
    await work();
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/**
 * The database and the upload directory the server would use with this environment: a SQLite path
 * relative to the working directory (as the server opens it), `STORAGE_DIR` relative to the project.
 */
export function dataLocations(env = process.env) {
  const url = env.DATABASE_URL || 'sqlite:data/app.db';
  const storageDir = resolve(PROJECT_ROOT, env.STORAGE_DIR || 'data/storage');
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', url, storageDir };
  if (!url.startsWith('sqlite:')) fail('DATABASE_URL must start with "sqlite:" or "postgres://"');
  const path = url.slice('sqlite:'.length) || 'data/app.db';
  if (path === ':memory:') fail('an in-memory SQLite database (sqlite::memory:) has nothing to back up or restore');
  return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(path), storageDir };
}

/**
 * A connection URL for libpq's programs without its password, which goes in `PGPASSWORD` instead, so it
 * never shows in the process list.
 */
export function libpqTarget(url) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = { ...process.env };
  if (password) env.PGPASSWORD = password;
  return { url: parsed.toString(), env, shown: `${parsed.host}${parsed.pathname}` };
}

/** Run a PostgreSQL client program; stops with its own message when it fails or is missing. */
export function runPostgresTool(program, args, env) {
  const result = spawnSync(program, args, { env, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (result.error) {
    const missing = result.error.code === 'ENOENT';
    fail(missing ? `${program} not found: install PostgreSQL's client programs, the same major version as the server (Debian: apt-get install postgresql-client)` : `${program}: ${result.error.message}`);
  }
  if (result.status !== 0) fail(`${program} failed (exit ${result.status}):\n${result.stderr.trim()}`);
  if (result.stderr.trim()) console.error(result.stderr.trim());
}

export function writeManifestText(kind) {
  return `${JSON.stringify({ format: FORMAT, created: new Date().toISOString(), database: kind, files: [BACKUP_FILES[kind], BACKUP_FILES.storage] }, null, 2)}\n`;
}

/** The manifest of a finished backup directory, checked. */
export function readManifest(dir) {
  const file = join(dir, BACKUP_FILES.manifest);
  if (!existsSync(file)) fail(`${dir} is not a backup directory: it has no ${BACKUP_FILES.manifest}`);
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest.format !== FORMAT) fail(`${file}: backup format ${manifest.format} is not one this version reads (${FORMAT})`);
  if (manifest.database !== 'sqlite' && manifest.database !== 'postgres') fail(`${file}: unknown database kind ${manifest.database}`);
  if (!existsSync(join(dir, BACKUP_FILES[manifest.database]))) fail(`${dir}: ${BACKUP_FILES[manifest.database]} is missing`);
  return manifest;
}
