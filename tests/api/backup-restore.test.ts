import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { createTestDatabase, DATABASES, POSTGRES_ADMIN_URL, PROJECT_ROOT, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * The operator's backup and restore (docs/deploy.md#backups, #restore): `scripts/backup.mjs` copies a
 * running server's database and uploaded files, `scripts/restore.mjs` puts them into a fresh database
 * and storage directory, and a server started there has the data as it was at the backup, not as it
 * was changed afterwards. Run with plain `node`, as in a production install.
 */

type Row = Record<string, unknown>;
const MEMBER_PASSWORD = 'Member_pass1';

interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function runScript(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<ScriptResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'scripts', `${script}.mjs`), ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function pngOf(shade: number): Buffer {
  const rgba = new Uint8Array(4 * 4 * 4).fill(shade);
  return encodePng(4, 4, rgba);
}

describe.each(DATABASES)('backup and restore on %s', (kind) => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let restoredDatabase: { url: string; drop: () => Promise<void> };
  let token: string;
  const scratch = mkdtempSync(join(tmpdir(), 'chidao-backup-test-'));
  const sourceStorage = join(scratch, 'storage-source');
  const restoredStorage = join(scratch, 'storage-restored');
  const backupsDir = join(scratch, 'backups');
  const photo = pngOf(40);
  let photoUrl: string;
  let backupDir: string;

  async function ok<T = unknown>(server: TestServer, path: string, request: ApiRequest = {}): Promise<T> {
    const response = await server.admin<T>(path, { token, ...request });
    expect({ code: response.code, msg: response.msg }, path).toMatchObject({ code: 1 });
    return response.data;
  }

  const addMember = (server: TestServer, username: string) => ok(server, 'user.User/add', { body: { username, nickname: `Nick ${username}`, group_id: 1, password: MEMBER_PASSWORD, gender: 0, status: 'enable' } });

  async function membersNamed(server: TestServer, term: string): Promise<Row[]> {
    return (await ok<{ list: Row[] }>(server, 'user.User/index', { query: { quickSearch: term, limit: 100 } })).list;
  }

  beforeAll(async () => {
    source = await startTestServer(kind, { env: { STORAGE_DIR: sourceStorage } });
    ({ token } = await source.loginAdmin());
    await addMember(source, 'keptmember');
    await addMember(source, 'laterdeleted');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'kept.png');
    const upload = await source.raw(`${source.server.app.settings.adminEntrance}.php/ajax/upload`, { method: 'POST', headers: { batoken: token, 'think-lang': 'en', server: 'true' }, body: form });
    const answer = (await upload.json()) as Envelope<{ file: Row }>;
    expect(answer.code, answer.msg).toBe(1);
    photoUrl = String(answer.data.file.url);
    restoredDatabase = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await restored?.close();
    await source?.close();
    await restoredDatabase?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('backs up the running server while it keeps answering and writing', async () => {
    const backup = runScript('backup', ['--out', backupsDir], { DATABASE_URL: source.databaseUrl, STORAGE_DIR: sourceStorage });
    // Writes during the backup are answered as usual (SQLite's online backup and pg_dump take no lock that blocks them).
    const during = await Promise.all([1, 2, 3].map((n) => source.admin('user.User/add', { token, body: { username: `during${n}`, nickname: `During ${n}`, group_id: 1, password: MEMBER_PASSWORD, gender: 0, status: 'enable' } })));
    expect(during.map((answer) => answer.code)).toEqual([1, 1, 1]);
    const result = await backup;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    backupDir = result.stdout.trim().split('\n').at(-1) ?? '';
    expect(readdirSync(backupsDir)).toEqual([backupDir.split('/').at(-1)]);
    expect(readdirSync(backupDir).sort()).toEqual(['backup.json', kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump', 'storage'].sort());
    // It holds password digests and sessions: only its owner may read it.
    for (const name of ['', 'backup.json', kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump']) expect(statSync(join(backupDir, name)).mode & 0o077, name).toBe(0);
  });

  it('restores into a fresh database and storage directory: a server there has the data of the backup, not what changed after it', async () => {
    // Changes after the backup: a member deleted, one added, the uploaded file removed from disk.
    const [deleted] = await membersNamed(source, 'laterdeleted');
    await ok(source, 'user.User/del', { method: 'DELETE', query: { ids: [deleted.id] } });
    await addMember(source, 'afterbackup');
    rmSync(sourceStorage, { recursive: true, force: true });

    const result = await runScript('restore', [backupDir], { DATABASE_URL: restoredDatabase.url, STORAGE_DIR: restoredStorage });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    restored = await startTestServer(kind, { databaseUrl: restoredDatabase.url, env: { STORAGE_DIR: restoredStorage } });
    // The session of before the backup still opens the back office: the tokens and their key came back too.
    const names = (await membersNamed(restored, '')).map((row) => row.username);
    expect(names).toEqual(expect.arrayContaining(['keptmember', 'laterdeleted']));
    expect(names).not.toContain('afterbackup');
    const file = await restored.raw(photoUrl);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(photo);
    // The restored member logs in with their password.
    const checkIn = await restored.api('user/checkIn', { body: { tab: 'login', username: 'keptmember', password: MEMBER_PASSWORD } });
    expect({ code: checkIn.code, msg: checkIn.msg }).toMatchObject({ code: 1 });
  });

  it('with --replace puts the backup back over a stopped server, moving its data aside (on PostgreSQL into the database made anew)', async () => {
    const server = restored!;
    await addMember(server, 'afterrestore');
    await server.close();
    restored = undefined;
    if (kind === 'postgres') {
      // The guide's `dropdb` + `createdb`: the script never empties a PostgreSQL database itself.
      const name = new URL(restoredDatabase.url).pathname.slice(1);
      await restoredDatabase.drop();
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
    }
    const result = await runScript('restore', ['--replace', backupDir], { DATABASE_URL: restoredDatabase.url, STORAGE_DIR: restoredStorage });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const aside = readdirSync(scratch).filter((name) => name.startsWith('storage-restored.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(readdirSync(join(scratch, aside[0]))).toEqual(readdirSync(restoredStorage));
    if (kind === 'sqlite') {
      const path = restoredDatabase.url.slice('sqlite:'.length);
      expect(readdirSync(dirname(path)).filter((name) => name.startsWith('app.db.before-restore-'))).not.toHaveLength(0);
    }

    restored = await startTestServer(kind, { databaseUrl: restoredDatabase.url, env: { STORAGE_DIR: restoredStorage } });
    const names = (await membersNamed(restored, '')).map((row) => row.username);
    expect(names).toContain('keptmember');
    expect(names).not.toContain('afterrestore');
    expect((await restored.raw(photoUrl)).status).toBe(200);
  });

  it('refuses to restore over a database that has data, and changes nothing', async () => {
    const before = (await membersNamed(source, '')).map((row) => row.username).sort();
    const result = await runScript('restore', [backupDir], { DATABASE_URL: source.databaseUrl, STORAGE_DIR: join(scratch, 'storage-unused') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(kind === 'sqlite' ? /exists: stop the server and add --replace/ : /the target database has \d+ tables: restore into an empty database/);
    expect((await membersNamed(source, '')).map((row) => row.username).sort()).toEqual(before);
    expect(existsSync(join(scratch, 'storage-unused'))).toBe(false);
  });

  it('refuses a directory that is not a finished backup', async () => {
    const result = await runScript('restore', [scratch], { DATABASE_URL: restoredDatabase.url, STORAGE_DIR: join(scratch, 'storage-unused') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a backup directory: it has no backup.json');
    expect(readFileSync(join(backupDir, 'backup.json'), 'utf8')).toContain(`"database": "${kind}"`);
  });
});
