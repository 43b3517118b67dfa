#!/usr/bin/env node
/**
 * Back up the server's data while it runs: the database named by DATABASE_URL and the uploaded files in
 * STORAGE_DIR, into a new directory `<out>/chidao-<UTC time>/` (docs/deploy.md#backups).
 *
 *   node scripts/backup.mjs [--out <directory>]      (or `npm run backup -- --out <directory>`)
 *
 * `--out` defaults to `backups/` in the project directory. SQLite is copied with SQLite's online backup
 * (a consistent copy; the server keeps reading and writing meanwhile); PostgreSQL with `pg_dump` in its
 * custom format (one snapshot), which must be the server's major version or newer. The database is copied
 * before the files, so every attachment row in the copy has its file. The directory is written under a
 * `.partial` name and renamed when complete, readable by its owner only (it holds password digests and
 * sessions); the last line printed is its path.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BACKUP_FILES, PROJECT_ROOT, dataLocations, fail, libpqTarget, runCommand, runPostgresTool, writeManifestText } from './lib/backup-set.mjs';

async function backUp(source, workDir) {
  if (source.kind === 'sqlite') {
    if (!existsSync(source.path)) fail(`no SQLite database at ${source.path} (DATABASE_URL)`);
    const Database = createRequire(import.meta.url)('better-sqlite3');
    const db = new Database(source.path, { fileMustExist: true });
    try {
      // All pages in one step, inside one read transaction: WAL lets the server write meanwhile, and a
      // write between steps would restart a backup made in small steps (for ever, on a busy server).
      await db.backup(join(workDir, BACKUP_FILES.sqlite), { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    console.log(`database: SQLite ${source.path} copied (online backup)`);
  } else {
    const target = libpqTarget(source.url);
    runPostgresTool('pg_dump', ['--format=custom', `--file=${join(workDir, BACKUP_FILES.postgres)}`, `--dbname=${target.url}`], target.env);
    console.log(`database: PostgreSQL ${target.shown} dumped (pg_dump)`);
  }
  const storageCopy = join(workDir, BACKUP_FILES.storage);
  if (existsSync(source.storageDir)) cpSync(source.storageDir, storageCopy, { recursive: true });
  else mkdirSync(storageCopy);
  console.log(`files: ${source.storageDir} copied`);
  writeFileSync(join(workDir, BACKUP_FILES.manifest), writeManifestText(source.kind));
}

await runCommand(async () => {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log('usage: node scripts/backup.mjs [--out <directory>]   (DATABASE_URL and STORAGE_DIR as for the server)');
    return;
  }
  const source = dataLocations();
  process.umask(0o077);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const finalDir = join(resolve(values.out ?? join(PROJECT_ROOT, 'backups')), `chidao-${stamp}`);
  const workDir = `${finalDir}.partial`;
  if (existsSync(finalDir)) fail(`${finalDir} already exists`);
  mkdirSync(workDir, { recursive: true });
  try {
    await backUp(source, workDir);
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  renameSync(workDir, finalDir);
  console.log(finalDir);
});
