import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROJECT_DEFINITIONS } from '../support/definitions.js';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import { ADMIN_PASSWORD, createTestDatabase, DATABASES, type DatabaseKind } from '../support/test-server.js';

/**
 * A first start cut short (`kill -9`, a crash, the power) once it has begun making the tables: the next
 * start finishes the install (the administrator, the groups, the templates, every seeded row) and the
 * admin login it prints logs in. And a server never prints a login that does not work: with
 * ADMIN_PASSWORD on a database whose administrator #1 is gone, it says so instead. The server runs as
 * `npm start` runs it, in a process of its own.
 *
 * @module-tag full (the built server in processes of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

/** Reads of the database from outside the server, as an operator's SQL client makes them. */
interface Peek {
  rows(query: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function peek(kind: DatabaseKind, url: string): Promise<Peek> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { rows: async (query) => (await client.query(query)).rows as Record<string, unknown>[], close: () => client.end() };
  }
  // The server makes the file: until then there is nothing to read.
  let file: Sqlite.Database | undefined;
  return {
    rows: async (query) => {
      try {
        file ??= new Sqlite(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
        return file.prepare(query).all() as Record<string, unknown>[];
      } catch {
        return [];
      }
    },
    close: async () => {
      file?.close();
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ADMIN_TABLE_MADE = { sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'admin'", postgres: "SELECT to_regclass('public.admin') AS name" };

async function login(url: string, username: string, password: string): Promise<{ code: number; msg: string }> {
  const response = await fetch(`${url}/chidaoadminstator.php/Index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', server: 'true', 'think-lang': 'en' },
    body: JSON.stringify({ username, password }),
  });
  return (await response.json()) as { code: number; msg: string };
}

const adminLine = (server: ServerProcess) => server.stdout.find((line) => line.includes('admin login:'));

/** The banner's admin login line of a listening server: it follows the addresses, so it may arrive just after `listening` resolves. */
const printedAdminLine = (server: ServerProcess) =>
  vi.waitFor(
    () => {
      const line = adminLine(server);
      if (line === undefined) throw new Error('no admin login line yet');
      return line;
    },
    { timeout: 10_000, interval: 20 },
  );

describe.each(DATABASES)('a first start on %s', (kind) => {
  it('killed once the tables are being made: the next start completes the install and prints an admin login that logs in', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(database.drop);
    const db = await peek(kind, database.url);
    cleanups.push(db.close);

    // The first start, killed as soon as the administrators' table is there.
    const first = spawnServer(database.url, { ADMIN_PASSWORD: undefined });
    cleanups.push(first.stop);
    await expect.poll(async () => (await db.rows(ADMIN_TABLE_MADE[kind]))[0]?.name ?? null, { interval: 2, timeout: 60_000 }).toBe('admin');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // It was cut short before it gave administrator #1 a password (let alone printed it).
    const [admin] = await db.rows('SELECT password FROM admin WHERE id = 1');
    expect(admin?.password ?? '').toBe('');
    expect(adminLine(first)).toBeUndefined();

    const second = spawnServer(database.url, { ADMIN_PASSWORD: undefined });
    cleanups.push(second.stop);
    const url = await second.listening;
    const printed = /admin login:\s+(\S+) \/ (\S+) \(generated now/.exec(await printedAdminLine(second));
    expect(printed, adminLine(second)).not.toBeNull();
    expect(await login(url, printed![1], printed![2])).toMatchObject({ code: 1 });

    // Every seeded table holds its seed rows: the administrator and their group, the member groups, the templates, …
    for (const definition of PROJECT_DEFINITIONS) {
      if (definition.seed.length === 0) continue;
      const [{ count }] = await db.rows(`SELECT count(*) AS count FROM ${definition.table}`);
      expect(Number(count), definition.table).toBeGreaterThanOrEqual(definition.seed.length);
    }
    // … the groups name their rules by id, and the schemas' menus are there.
    const groups = await db.rows('SELECT rules FROM admin_group UNION ALL SELECT rules FROM user_group');
    expect(groups.filter((group) => /[a-z]/i.test(String(group.rules)))).toEqual([]);
    expect(await db.rows("SELECT name FROM admin_rule WHERE name = 'survey/survey'")).toHaveLength(1);
    await second.stop();

    // The password was made up and shown once: a later start does not claim to know it.
    const third = spawnServer(database.url, { ADMIN_PASSWORD: undefined });
    cleanups.push(third.stop);
    await third.listening;
    expect(await printedAdminLine(third)).toContain('admin / the password shown on first start');
  });

  it('with ADMIN_PASSWORD on a database without administrator #1: prints no login, says why, and brings no account back', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(database.drop);
    const installed = spawnServer(database.url);
    cleanups.push(installed.stop);
    await installed.listening;
    await installed.stop();
    const db = await peek(kind, database.url);
    cleanups.push(db.close);
    // An administrator #1 removed by hand (or an install from before its start could be cut short).
    if (kind === 'postgres') await db.rows('DELETE FROM admin WHERE id = 1');
    else {
      const file = new Sqlite(database.url.slice('sqlite:'.length));
      file.prepare('DELETE FROM admin WHERE id = 1').run();
      file.close();
    }

    const server = spawnServer(database.url, { ADMIN_PASSWORD });
    cleanups.push(server.stop);
    const url = await server.listening;
    expect(await printedAdminLine(server)).toBe('  admin login:  none: administrator #1 does not exist, so ADMIN_PASSWORD was not applied; log in as another administrator');
    expect(server.stdout.filter((line) => line.includes(ADMIN_PASSWORD))).toEqual([]);
    expect((await login(url, 'admin', ADMIN_PASSWORD)).code).not.toBe(1);
    expect(await db.rows('SELECT id FROM admin')).toEqual([]);
  });
});
