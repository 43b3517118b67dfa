#!/usr/bin/env node
/**
 * Put a backup made by `scripts/backup.mjs` back: its database into the one DATABASE_URL names and its
 * files into STORAGE_DIR (docs/deploy.md#restore). Run it with the server stopped.
 *
 *   node scripts/restore.mjs <backup directory> [--replace]     (or `npm run restore -- <directory>`)
 *
 * The database must be empty: a SQLite file that does not exist yet, or a PostgreSQL database with no
 * tables (made with `createdb`), and the storage directory absent or empty. With `--replace` an existing
 * storage directory and SQLite file are moved aside to `<name>.before-restore-<UTC time>` first; a
 * PostgreSQL database is never emptied by this script (drop and re-create it, or restore into a new one).
 * Everything is checked before anything changes. The next start migrates the restored database to the
 * running version, as at any upgrade.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BACKUP_FILES, dataLocations, fail, libpqTarget, readManifest, runCommand, runPostgresTool } from './lib/backup-set.mjs';

const require = createRequire(import.meta.url);
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const asideName = (path) => `${path}.before-restore-${stamp}`;

const isEmptyDir = (dir) => !existsSync(dir) || readdirSync(dir).length === 0;

/** Tables outside PostgreSQL's own schemas in the target database. */
async function postgresTableCount(url) {
  const pg = require('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    fail(`cannot connect to the target database (${error.message}): create it first (docs/deploy.md#postgresql)`);
  }
  try {
    const result = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')");
    return result.rows[0].n;
  } finally {
    await client.end();
  }
}

function checkSqliteCopy(file) {
  const Database = require('better-sqlite3');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const verdict = db.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') fail(`${file} is damaged (quick_check: ${verdict})`);
  } finally {
    db.close();
  }
}

await runCommand(async () => {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { replace: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals.length !== 1) {
    console.log('usage: node scripts/restore.mjs <backup directory> [--replace]   (DATABASE_URL and STORAGE_DIR as for the server)');
    if (!values.help) process.exitCode = 1;
    return;
  }
  const backupDir = resolve(positionals[0]);
  const manifest = readManifest(backupDir);
  const target = dataLocations();
  if (manifest.database !== target.kind) fail(`the backup holds a ${manifest.database} database but DATABASE_URL names ${target.kind}: restore into the same kind of database`);

  // Every check first, so a refused restore changes nothing.
  const moveAside = [];
  if (target.kind === 'sqlite') {
    if (existsSync(target.path)) {
      if (!values.replace) fail(`${target.path} exists: stop the server and add --replace (it is moved aside), or point DATABASE_URL at a new file`);
      for (const file of [target.path, `${target.path}-wal`, `${target.path}-shm`]) if (existsSync(file)) moveAside.push(file);
    }
    checkSqliteCopy(join(backupDir, BACKUP_FILES.sqlite));
  } else {
    const tables = await postgresTableCount(target.url);
    if (tables > 0) fail(`the target database has ${tables} tables: restore into an empty database (dropdb, then createdb; docs/deploy.md#restore)`);
  }
  if (!isEmptyDir(target.storageDir)) {
    if (!values.replace) fail(`${target.storageDir} (STORAGE_DIR) is not empty: add --replace (it is moved aside), or point STORAGE_DIR at a new directory`);
    moveAside.push(target.storageDir);
  }

  for (const path of moveAside) {
    renameSync(path, asideName(path));
    console.log(`moved aside: ${path} → ${asideName(path)}`);
  }
  if (target.kind === 'sqlite') {
    mkdirSync(dirname(target.path), { recursive: true });
    const incoming = `${target.path}.restoring`;
    copyFileSync(join(backupDir, BACKUP_FILES.sqlite), incoming);
    renameSync(incoming, target.path);
    console.log(`database: restored into SQLite ${target.path}`);
  } else {
    const libpq = libpqTarget(target.url);
    // --no-owner / --no-privileges: the objects belong to the role restoring, whatever role made the dump.
    runPostgresTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${libpq.url}`, join(backupDir, BACKUP_FILES.postgres)], libpq.env);
    console.log(`database: restored into PostgreSQL ${libpq.shown}`);
  }
  cpSync(join(backupDir, BACKUP_FILES.storage), target.storageDir, { recursive: true });
  console.log(`files: restored into ${target.storageDir}`);
});
