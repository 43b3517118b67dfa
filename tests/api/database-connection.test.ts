import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NamedStatements } from '../../src/server/db/named-statements.js';
import { createTestDatabase, POSTGRES_ADMIN_URL, startTestServer, type TestServer } from '../support/test-server.js';

/** One server on PostgreSQL for the file's API tests. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('postgres');
});

afterAll(async () => {
  await server?.close();
});

/**
 * PostgreSQL connections the database server ends on its own (a restart, a failover, an administrator
 * terminating them) must not take the API down: the next request gets a fresh connection.
 */
describe('a PostgreSQL connection ended by the database server', () => {
  it('is replaced, and the API keeps answering', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect((await server.admin('Index/login')).code).toBe(1);
      const database = new URL(server.databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        const ended = await admin.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // the pool has noticed (and reported) the lost idle connections
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('an idle connection was lost')), { timeout: 10_000 });
      expect((await server.admin('Index/login')).code).toBe(1);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(server.server.app.db);
      expect(Number(rows[0].one)).toBe(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('statements prepared once per PostgreSQL connection', () => {
  let database: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  let db: Kysely<Record<string, Record<string, unknown>>>;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // One connection, so that what it has prepared can be read back on it.
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    const statements = new NamedStatements();
    db = new Kysely({ dialect: new PostgresDialect({ pool: statements.pool(pool) }) });
    await sql`create table account (id integer primary key, name text)`.execute(db);
    await sql`insert into account values (1, 'ann')`.execute(db);
    const lookup = db.selectFrom('account').selectAll().where('id', '=', 1).compile();
    statements.add(lookup.sql);
    byKey = () => db.executeQuery(lookup);
  });

  let byKey: () => Promise<{ rows: Record<string, unknown>[] }>;
  const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((row) => row.statement);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('parses a marked statement once and runs it by name, and leaves others unnamed', async () => {
    for (let run = 0; run < 3; run += 1) expect((await byKey()).rows).toEqual([{ id: 1, name: 'ann' }]);
    await sql`select name from account`.execute(db);
    expect(await prepared()).toEqual([expect.stringContaining('from "account" where "id" = $1')]);
  });

  it('parses it again when its table gains a column, and answers with the new column', async () => {
    await byKey();
    await sql`alter table account add column city text default 'Hangzhou'`.execute(db);
    expect((await byKey()).rows).toEqual([{ id: 1, name: 'ann', city: 'Hangzhou' }]);
    expect((await byKey()).rows).toEqual([{ id: 1, name: 'ann', city: 'Hangzhou' }]);
  });
});

describe('the token query on PostgreSQL', () => {
  it('keeps a logged-in admin signed in after the account table gains a column', async () => {
    const admin = await server.loginAdmin();
    expect((await server.admin('Index/index', { token: admin.token })).code).toBe(1);
    await sql`alter table admin add column nickname_note text`.execute(server.server.app.db);
    for (let run = 0; run < 3; run += 1) {
      const index = await server.admin<{ adminInfo: { username: string } }>('Index/index', { token: admin.token });
      expect(index.data.adminInfo.username).toBe('admin');
    }
  });
});
