import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { NamedStatements } from '../../src/server/db/named-statements.js';
import { DatabaseRelay } from '../support/database-relay.js';
import { createTestDatabase, POSTGRES_ADMIN_URL, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * @module-tag full (PostgreSQL by name, a relay cut under it): `npm test` runs it, `npm run test:quick` leaves it out.
 */

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

const MEMBER_PASSWORD = 'Member_pass1';
const UNREACHABLE = {
  en: 'The database cannot be reached at the moment, please try again shortly',
  'zh-cn': '暂时无法连接数据库，请稍后重试',
} as const;

async function memberLogin(on: TestServer, lang: 'en' | 'zh-cn' = 'en', password = MEMBER_PASSWORD) {
  const answer = await on.api('user/checkIn', { body: { tab: 'login', username: 'user', password }, lang });
  return { status: answer.status, code: answer.code, msg: answer.msg, retryAfter: answer.headers.get('retry-after') };
}

/**
 * PostgreSQL going away under a running server (a restart, a failover, an administrator ending its
 * connections): a request that needs the database then is asked to retry (503, `Retry-After`, in the
 * reader's language), never answered 500, and nothing of it is kept half done.
 */
describe('requests while PostgreSQL is gone', () => {
  const target = new URL(POSTGRES_ADMIN_URL);
  const relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port || 5432) });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let relayed: TestServer;
  let warn: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    // The pool reports each connection it loses; those lines are expected here.
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    database = await createTestDatabase('postgres');
    await relay.open();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${relay.port}`;
    relayed = await startTestServer('postgres', { databaseUrl: url.toString(), demoData: true });
    await relayed.server.app.db.updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
  });

  afterAll(async () => {
    await relay.restore();
    await relayed?.close();
    await relay.cut();
    await database?.drop();
    warn?.mockRestore();
  });

  it('answers 503 when the database ends the connection mid-transaction, and keeps nothing of that login', async () => {
    // A wrong password first: the account counts one failure, which a login's transaction resets with its token.
    expect((await memberLogin(relayed, 'en', 'Wrong_pass1')).code).toBe(0);
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    try {
      const state = async () => (await direct.query<{ failures: number; tokens: number }>("SELECT (SELECT login_failure FROM \"user\" WHERE id = 1) AS failures, (SELECT count(*)::int FROM token WHERE user_id = 1 AND type = 'user') AS tokens")).rows[0];
      const before = await state();
      expect(before.failures).toBe(1);
      // The login's transaction waits on the token table, after resetting the failure count.
      await direct.query('BEGIN');
      await direct.query('LOCK TABLE token IN ACCESS EXCLUSIVE MODE');
      const pending = memberLogin(relayed, 'zh-cn');
      let answered: unknown;
      void pending.then((answer) => (answered = answer));
      const waiting = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'";
      await vi.waitFor(async () => {
        // (a transaction sees pg_stat_activity as it was when first read, unless told to read it afresh)
        await direct.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await direct.query(`SELECT wait_event_type AS wait, query ${waiting}`);
        expect({ answered, rows }).toEqual({ answered: undefined, rows: [{ wait: 'Lock', query: expect.stringMatching(/^insert into "token"/) }] });
      }, { timeout: 20_000, interval: 20 });
      const ended = await direct.query(`SELECT pg_terminate_backend(pid) ${waiting}`);
      expect(ended.rowCount).toBe(1);
      expect(await pending).toEqual({ status: 503, code: 0, msg: UNREACHABLE['zh-cn'], retryAfter: '5' });
      await direct.query('ROLLBACK');
      // Nothing of that login was kept: the failure count was not reset, no session was issued.
      expect(await state()).toEqual(before);
    } finally {
      await direct.end();
    }
    expect((await memberLogin(relayed)).code).toBe(1);
  });

  it('answers a login that needs a new connection 503 "retry" while the database refuses them, and logs in once it is back', async () => {
    expect((await memberLogin(relayed)).code).toBe(1);
    await relay.cut();
    expect(await memberLogin(relayed, 'en')).toEqual({ status: 503, code: 0, msg: UNREACHABLE.en, retryAfter: '5' });
    expect(await memberLogin(relayed, 'zh-cn')).toEqual({ status: 503, code: 0, msg: UNREACHABLE['zh-cn'], retryAfter: '5' });
    await relay.restore();
    expect((await memberLogin(relayed)).code).toBe(1);
  });
});

/**
 * A SQLite file another program holds a write lock on for longer than the server's `busy_timeout`
 * (5 s), such as the `sqlite3` shell in the middle of a transaction: a request that must write is asked
 * to retry (503), not answered 500.
 */
describe('a SQLite file locked from outside the server', () => {
  let onSqlite: TestServer;

  beforeAll(async () => {
    onSqlite = await startTestServer('sqlite');
    await onSqlite.server.app.db.updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
  });

  afterAll(async () => {
    await onSqlite?.close();
  });

  it('answers a write "busy, retry" with 503 and Retry-After, and writes again once the lock is gone', async () => {
    const outside = new Database(onSqlite.databaseUrl.slice('sqlite:'.length));
    try {
      outside.exec('BEGIN IMMEDIATE');
      expect(await memberLogin(onSqlite, 'zh-cn')).toEqual({ status: 503, code: 0, msg: '服务器繁忙，请稍后再试', retryAfter: '5' });
      outside.exec('ROLLBACK');
    } finally {
      outside.close();
    }
    expect((await memberLogin(onSqlite)).code).toBe(1);
  }, 60_000);
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
