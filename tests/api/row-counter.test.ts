import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicDb } from '../../src/server/db/connection.js';
import { foldRowCounts } from '../../src/server/db/row-counter.js';
import { ROW_COUNT_DELTA_TABLE, ROW_COUNT_TABLE } from '../../src/server/db/system-tables.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * The member list's total is the row count the database keeps for the table: it moves with every add,
 * delete and restore from the recycle bin, only when their rows commit, and stays exact when many
 * writers run at once.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('row counter on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let serial = 0;
  const db = () => dynamicDb(server.server.app.db);
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
    const response = await admin<T>(path, request);
    expect(`${response.code} ${response.msg}`, path).toMatch(/^1 /);
    return response.data;
  }

  async function addMember(): Promise<number> {
    const username = `count${++serial}`;
    await ok('user.User/add', { body: { username, nickname: username, group_id: 1, password: 'Member_pass1' } });
    return Number(((await db().selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow()) as Row).id);
  }

  /** The total the member list shows, the count the database keeps, and the rows counted one by one: all three must agree. */
  async function totals(): Promise<{ list: number; kept: number; counted: number }> {
    const listed = await ok<{ total: number }>('user.User/index', { query: { page: 1, limit: 10 } });
    const row = (await db().selectFrom(ROW_COUNT_TABLE).select('row_total').where('table_name', '=', 'user').executeTakeFirstOrThrow()) as Row;
    // On PostgreSQL the count row plus the changes appended since the last fold.
    const pending = (await db().selectFrom(ROW_COUNT_DELTA_TABLE).select((eb) => eb.fn.coalesce(eb.fn.sum('delta'), eb.lit(0)).as('delta')).where('table_name', '=', 'user').executeTakeFirstOrThrow()) as Row;
    const kept = { row_total: Number(row.row_total) + Number(pending.delta) };
    const counted = (await db().selectFrom('user').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as Row;
    return { list: listed.total, kept: Number(kept.row_total), counted: Number(counted.total) };
  }

  async function expectTotal(expected: number): Promise<void> {
    expect(await totals()).toEqual({ list: expected, kept: expected, counted: expected });
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('moves with an add, a delete and a restore from the recycle bin', async () => {
    const start = (await totals()).counted;
    await expectTotal(start);
    const first = await addMember();
    await addMember();
    await expectTotal(start + 2);

    await ok('user.User/del', { method: 'DELETE', query: { ids: [first] } });
    await expectTotal(start + 1);
    const entry = (await db().selectFrom('security_data_recycle_log').select('id').where('data_table', '=', 'user').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    await ok('security.DataRecycleLog/restore', { body: { ids: [Number(entry.id)] } });
    await expectTotal(start + 2);
  });

  it('does not count rows whose transaction rolled back', async () => {
    const before = (await totals()).counted;
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('user').values({ username: `rolled${++serial}`, nickname: 'rolled', group_id: 1, password: 'x', salt: '', create_time: 1, update_time: 1 }).execute();
          throw new Error('changed my mind');
        }),
    ).rejects.toThrow('changed my mind');
    await expectTotal(before);
  });

  it('stays exact through a burst of concurrent adds and deletes', async () => {
    const before = (await totals()).counted;
    const added = await Promise.all(Array.from({ length: 12 }, () => addMember()));
    await expectTotal(before + 12);
    const [gone, ...kept] = added;
    // Deletes of single rows and of several at once, beside more adds, all at the same time.
    await Promise.all([
      ok('user.User/del', { method: 'DELETE', query: { ids: [gone] } }),
      ok('user.User/del', { method: 'DELETE', query: { ids: kept.slice(0, 4) } }),
      ...kept.slice(4, 8).map((id) => ok('user.User/del', { method: 'DELETE', query: { ids: [id] } })),
      ...Array.from({ length: 6 }, () => addMember()),
    ]);
    await expectTotal(before + 12 - 9 + 6);
  });

  it('stays exact while the changes are folded into the count beside writers, and folding leaves none behind', async () => {
    const before = (await totals()).counted;
    const fold = () => foldRowCounts(server.server.app.handle, db());
    await Promise.all([...Array.from({ length: 8 }, () => addMember()), fold(), fold()]);
    await expectTotal(before + 8);
    await fold();
    const left = (await db().selectFrom(ROW_COUNT_DELTA_TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as Row;
    expect(Number(left.n)).toBe(0);
    await expectTotal(before + 8);
  });

  it('is recounted at start when rows were written while its triggers were away', async () => {
    const before = (await totals()).counted;
    // As an old version would have: rows written with no trigger in place.
    await sql`DROP TRIGGER IF EXISTS ${sql.id('user_rows_ai')}${kind === 'postgres' ? sql` ON ${sql.table('user')}` : sql``}`.execute(db());
    await db().insertInto('user').values({ username: `untracked${++serial}`, nickname: 'untracked', group_id: 1, password: 'x', salt: '', create_time: 1, update_time: 1 }).execute();
    expect((await totals()).kept).toBe(before);
    // The next start on the same database makes the trigger again and recounts.
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
    await expectTotal(before + 1);
    await addMember();
    await expectTotal(before + 2);
  });
});
