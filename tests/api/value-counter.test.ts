import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicDb } from '../../src/server/db/connection.js';
import { foldRowCounts } from '../../src/server/db/row-counter.js';
import { VALUE_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE } from '../../src/server/db/system-tables.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * The member list filtered by status (an enum the list filters with `=`) reads its total from the count
 * the database keeps per status: it moves with every add, edit of the status, delete and restore from
 * the recycle bin, stays exact when many writers run at once, and a value the schema does not declare
 * is counted row by row.
 */

type Row = Record<string, unknown>;
const STATUSES = ['enable', 'disable'] as const;

describe.each(DATABASES)('value counter on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let serial = 0;
  const db = () => dynamicDb(server.server.app.db);
  // A status the schema does not declare is written and counted through the run-time view of the table.
  const USER_TABLE: string = 'user';
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
    const response = await admin<T>(path, request);
    expect(`${response.code} ${response.msg}`, path).toMatch(/^1 /);
    return response.data;
  }

  async function addMember(status: string): Promise<number> {
    const username = `vc${++serial}`;
    await ok('user.User/add', { body: { username, nickname: username, group_id: 1, password: 'Member_pass1', status } });
    return Number(((await db().selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow()) as Row).id);
  }

  async function setStatus(id: number, status: string): Promise<void> {
    await ok('user.User/edit', { body: { id, status } });
  }

  async function listed(status: string): Promise<number> {
    return (await ok<{ total: number }>('user.User/index', { query: { page: 1, limit: 10, search: [{ field: 'status', operator: '=', val: status }] } })).total;
  }

  /** The count kept for the value: its row plus the changes not folded yet (PostgreSQL's); undefined without a row. */
  async function kept(status: string): Promise<number | undefined> {
    const row = (await db().selectFrom(VALUE_COUNT_TABLE).select('row_total').where('table_name', '=', 'user').where('column_name', '=', 'status').where('value', '=', status).executeTakeFirst()) as Row | undefined;
    const pending = (await db().selectFrom(VALUE_COUNT_DELTA_TABLE).select((eb) => eb.fn.coalesce(eb.fn.sum('delta'), eb.lit(0)).as('delta')).where('table_name', '=', 'user').where('column_name', '=', 'status').where('value', '=', status).executeTakeFirstOrThrow()) as Row;
    return row ? Number(row.row_total) + Number(pending.delta) : undefined;
  }

  async function counted(status: string): Promise<number> {
    return Number(((await db().selectFrom(USER_TABLE).select((eb) => eb.fn.countAll().as('total')).where('status', '=', status).executeTakeFirstOrThrow()) as Row).total);
  }

  /** Each status's list total, kept count and rows counted one by one: all three must agree. */
  async function expectInStep(): Promise<Record<string, number>> {
    const totals: Record<string, number> = {};
    for (const status of STATUSES) {
      const expected = await counted(status);
      expect({ status, list: await listed(status), kept: await kept(status) }).toEqual({ status, list: expected, kept: expected });
      totals[status] = expected;
    }
    return totals;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reads the filtered total from the kept count', async () => {
    await addMember('disable');
    const before = await expectInStep();
    // A count moved behind the triggers' back shows in the list: the list read it, not the rows.
    await db().updateTable(VALUE_COUNT_TABLE).set({ row_total: sql`row_total + 1000` }).where('table_name', '=', 'user').where('column_name', '=', 'status').where('value', '=', 'disable').execute();
    try {
      expect(await listed('disable')).toBe(before.disable + 1000);
    } finally {
      await db().updateTable(VALUE_COUNT_TABLE).set({ row_total: sql`row_total - 1000` }).where('table_name', '=', 'user').where('column_name', '=', 'status').where('value', '=', 'disable').execute();
    }
    await expectInStep();
  });

  it('moves with an add, an edit of the status, a delete and a restore from the recycle bin', async () => {
    const start = await expectInStep();
    const first = await addMember('enable');
    const second = await addMember('disable');
    expect(await expectInStep()).toEqual({ enable: start.enable + 1, disable: start.disable + 1 });

    await setStatus(first, 'disable');
    expect(await expectInStep()).toEqual({ enable: start.enable, disable: start.disable + 2 });
    // An edit that leaves the status as it was moves nothing.
    await ok('user.User/edit', { body: { id: second, nickname: 'renamed', status: 'disable' } });
    expect(await expectInStep()).toEqual({ enable: start.enable, disable: start.disable + 2 });

    await ok('user.User/del', { method: 'DELETE', query: { ids: [first] } });
    await ok('user.User/del', { method: 'DELETE', query: { ids: [second] } });
    expect(await expectInStep()).toEqual(start);
    // The last deleted (`second`, disabled) comes back with its status.
    const entry = (await db().selectFrom('security_data_recycle_log').select('id').where('data_table', '=', 'user').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    await ok('security.DataRecycleLog/restore', { body: { ids: [Number(entry.id)] } });
    expect(await expectInStep()).toEqual({ enable: start.enable, disable: start.disable + 1 });
  });

  it('moves with an update of many rows at once, and not for rows whose transaction rolled back', async () => {
    const ids = await Promise.all([addMember('enable'), addMember('enable'), addMember('enable')]);
    const start = await expectInStep();
    // One statement turning some rows to the status they have and others to another.
    await db().updateTable('user').set({ status: 'disable' }).where('id', 'in', ids).execute();
    expect(await expectInStep()).toEqual({ enable: start.enable - 3, disable: start.disable + 3 });
    await db().updateTable('user').set({ status: 'enable' }).where('id', 'in', ids.slice(0, 1)).execute();
    await db().updateTable('user').set({ status: 'disable' }).where('status', '=', 'disable').where('id', 'in', ids).execute();
    expect(await expectInStep()).toEqual({ enable: start.enable - 2, disable: start.disable + 2 });
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('user').set({ status: 'enable' }).where('id', 'in', ids).execute();
          await trx.deleteFrom('user').where('id', '=', ids[0]).execute();
          throw new Error('changed my mind');
        }),
    ).rejects.toThrow('changed my mind');
    expect(await expectInStep()).toEqual({ enable: start.enable - 2, disable: start.disable + 2 });
  });

  it('stays exact through a burst of concurrent adds, edits and deletes, with folds beside them', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, index) => addMember(STATUSES[index % 2])));
    const start = await expectInStep();
    const fold = () => foldRowCounts(server.server.app.handle, db());
    await Promise.all([
      ...ids.slice(0, 4).map((id, index) => setStatus(id, STATUSES[(index + 1) % 2])),
      ok('user.User/del', { method: 'DELETE', query: { ids: ids.slice(4, 7) } }),
      ...ids.slice(7).map((id) => ok('user.User/del', { method: 'DELETE', query: { ids: [id] } })),
      ...Array.from({ length: 6 }, (_, index) => addMember(STATUSES[index % 2])),
      fold(),
      fold(),
    ]);
    // ids 0..3 swapped (two each way), 4..9 gone (three of each), six added (three of each).
    expect(await expectInStep()).toEqual(start);
    await fold();
    expect(await expectInStep()).toEqual(start);
  });

  it('counts row by row a value the schema does not declare', async () => {
    // Written past the API, which refuses a status outside the enum: as an import or an old version could have.
    await db().insertInto(USER_TABLE).values({ username: `odd${++serial}`, nickname: 'odd', group_id: 1, password: 'x', salt: '', status: 'paused', create_time: 1, update_time: 1 }).execute();
    expect(await listed('paused')).toBe(1);
    expect(await listed('nothing like it')).toBe(0);
    await expectInStep();
  });

  it('counts row by row while the column has no counter, and is recounted at start when rows were written without triggers', async () => {
    const start = await expectInStep();
    // As a table made outside the migrations: no count rows for the column, no triggers.
    await db().deleteFrom(VALUE_COUNT_TABLE).where('table_name', '=', 'user').execute();
    for (const suffix of ['ai', 'ad', 'au']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(`user_values_${suffix}`)}${kind === 'postgres' ? sql` ON ${sql.table('user')}` : sql``}`.execute(db());
    }
    await addMember('disable');
    expect(await kept('disable')).toBeUndefined();
    expect(await listed('disable')).toBe(start.disable + 1);
    expect(await listed('enable')).toBe(start.enable);
    // The next start on the same database makes the triggers again and recounts.
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
    expect(await expectInStep()).toEqual({ enable: start.enable, disable: start.disable + 1 });
    await addMember('enable');
    expect(await expectInStep()).toEqual({ enable: start.enable + 1, disable: start.disable + 1 });
  });
});
