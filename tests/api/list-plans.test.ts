import { sql, type CompiledQuery } from 'kysely';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicDb, type AnySelect, type DynamicDb } from '../../src/server/db/connection.js';
import { listQueries, quickSearchPage } from '../../src/server/resources/list-plan.js';
import { parseListRequest } from '../../src/server/resources/list-query.js';
import { queryPlan } from '../support/query-plan.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The lists read pages from the indexes derived from the schema, as the query plans show on a
 * few thousand rows: the default order, a filter with the weigh order, an order the admin picks in either
 * direction, and the quick search of a remote select. The same statements the list runs are explained.
 */

const ROWS = 3_000;
const MEMBER_SCHEMA = {
  $id: 'plans/member',
  title: 'Plan member',
  type: 'object',
  'x-table': 'plan_member',
  'x-controller': 'plans.Member',
  'x-menu': { title: 'Plan members' },
  'x-list': { quickSearch: ['username', 'nickname'], defaultSort: 'create_time,desc', weighField: 'weigh' },
  required: ['username'],
  properties: {
    id: { type: 'integer', readOnly: true },
    username: { type: 'string', maxLength: 30, title: 'Username' },
    nickname: { type: 'string', maxLength: 50, title: 'Nickname' },
    status: { type: 'string', enum: ['0', '1'], default: '1', 'x-ui': { search: '=' } },
    weigh: { type: 'integer', default: 0, 'x-ui': { sortable: true } },
    create_time: { type: ['integer', 'null'], readOnly: true },
    update_time: { type: ['integer', 'null'], readOnly: true },
  },
};

const root = mkdtempSync(join(tmpdir(), 'chidao-plans-'));
const schemasDir = join(root, 'schemas');
cpSync(resolve(import.meta.dirname, '../../schemas'), schemasDir, { recursive: true });
mkdirSync(join(schemasDir, 'plans'));
writeFileSync(join(schemasDir, 'plans', 'member.json'), JSON.stringify(MEMBER_SCHEMA));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const planOf = (db: DynamicDb, kind: string, query: CompiledQuery) => queryPlan(db, kind, query);

describe.each(DATABASES)('list query plans on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const db = () => dynamicDb(server.server.app.db);

  beforeAll(async () => {
    server = await startTestServer(kind, { schemasDir });
    token = (await server.loginAdmin()).token;
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: ROWS }, (_, index) => ({
      username: `u${String(index).padStart(5, '0')}`,
      nickname: `member ${index % 97}`,
      status: index % 10 === 0 ? '0' : '1',
      weigh: (index * 7919) % 1000,
      create_time: now - index * 60,
      update_time: now,
    }));
    for (let start = 0; start < rows.length; start += 500) await db().insertInto('plan_member').values(rows.slice(start, start + 500)).execute();
    if (kind === 'postgres') await sql`ANALYZE plan_member`.execute(db());
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The statements the list runs for `query`, explained, after checking the API answers it. */
  async function plans(query: Record<string, unknown>): Promise<{ count: string; page: string }> {
    const answer = await server.admin<{ list: unknown[]; total: number }>('plans.Member/index', { token, query });
    expect(answer.code, answer.msg).toBe(1);
    expect(answer.data.list.length).toBeGreaterThan(0);
    const app = server.server.app;
    const definition = app.resources.get('plans/member');
    if (!definition) throw new Error('no plans/member schema');
    const request = parseListRequest(app, definition, query, 'UTC', undefined);
    const { count, page } = listQueries(db(), definition, request, request.conditions);
    return { count: await planOf(db(), kind, count.compile()), page: await planOf(db(), kind, page.compile()) };
  }

  const pagePlan = async (query: Record<string, unknown>) => (await plans(query)).page;

  /** The page statement a quick search reads once its count is known, explained. */
  async function quickSearchPlan(query: Record<string, unknown>): Promise<string> {
    const answer = await server.admin<{ list: unknown[]; total: number }>('plans.Member/index', { token, query });
    expect(answer.code, answer.msg).toBe(1);
    const app = server.server.app;
    const definition = app.resources.get('plans/member');
    if (!definition) throw new Error('no plans/member schema');
    const request = parseListRequest(app, definition, query, 'UTC', undefined);
    const { count, page } = listQueries(db(), definition, request, request.conditions);
    const counted = (await count.executeTakeFirst()) as { total: number | string; top: number | string };
    expect(Number(counted.total)).toBe(answer.data.total);
    const read = quickSearchPage(db(), app.handle.dialect, definition, request, request.conditions, Number(counted.total), Number(counted.top)) ?? page;
    return planOf(db(), kind, read.compile());
  }

  it('reads the first page in the default order from an index, without sorting the table', async () => {
    const plan = await pagePlan({ page: 1, limit: 10 });
    expect(plan).toMatch(/create_time_id/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it('reads a filtered list in the weigh order from the index the filter leads', async () => {
    const plan = await pagePlan({ page: 1, limit: 10, order: 'weigh,desc', search: [{ field: 'status', operator: 'eq', val: '0' }] });
    expect(plan).toMatch(/status_weigh_id/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it('serves an order the admin picks, ascending as well as descending', async () => {
    for (const order of ['weigh,asc', 'weigh,desc']) {
      const plan = await pagePlan({ page: 2, limit: 10, order });
      expect(plan, order).toMatch(/weigh_id/);
      expect(plan, order).not.toMatch(/TEMP B-TREE|Sort/);
    }
  });

  it('answers a filter no index reads in order with the same rows whichever way its count picks', async () => {
    // `status IN (0, 1)` matches every row: walked along the weigh order; a narrow range of create_time
    // matches 31: read by its index and sorted. Both against the rows in order, read directly.
    const now = (await db().selectFrom('plan_member').select((eb) => eb.fn.max('create_time').as('top')).executeTakeFirstOrThrow()) as { top: number | string };
    const top = Number(now.top);
    const shapes = [
      { search: [{ field: 'status', operator: 'IN', val: '0,1' }], matching: (query: AnySelect) => query.where('status', 'in', ['0', '1']) },
      { search: [{ field: 'create_time', operator: 'RANGE', val: `${top - 1800},${top}` }], matching: (query: AnySelect) => query.where('create_time', '>=', top - 1800).where('create_time', '<=', top) },
    ];
    const all = (): AnySelect => db().selectFrom('plan_member').select('id');
    for (const { search, matching } of shapes) {
      for (const page of [1, 2]) {
        const answer = await server.admin<{ list: { id: number }[]; total: number }>('plans.Member/index', { token, query: { page, limit: 10, order: 'weigh,asc', search } });
        expect(answer.code, answer.msg).toBe(1);
        const expected = ((await matching(all()).orderBy('weigh', 'asc').orderBy('id', 'asc').limit(10).offset((page - 1) * 10).execute()) as { id: number | string }[]).map((row) => Number(row.id));
        const total = (await matching(db().selectFrom('plan_member').select((eb) => eb.fn.countAll().as('total'))).executeTakeFirstOrThrow()) as { total: number | string };
        expect(answer.data.list.map((row) => Number(row.id)), JSON.stringify(search)).toEqual(expected);
        expect(answer.data.total).toBe(Number(total.total));
      }
    }
  });

  it('answers a remote select with a quick search from the text index', async () => {
    const { count, page } = await plans({ select: 'true', quickSearch: 'member 42', page: 1, limit: 10 });
    // The total counts every match from the text index; on SQLite the page's rows come from it too (on
    // PostgreSQL walking the order index and stopping at ten matches may be cheaper, and is allowed).
    expect(count).toMatch(/qs_plan_member_nickname/);
    expect(count).not.toMatch(/SCAN "?plan_member"?(\s|$)|Seq Scan/);
    if (kind === 'sqlite') expect(page).toMatch(/qs_plan_member_nickname/);
  });

  it("reads a rare term's few matches from the text index, and a common term's page along the order's index", async () => {
    // One member of 3,000: its row comes from the text index, whatever the planner guesses of the term
    // (on PostgreSQL, where sorting is priced out here, walking the order would otherwise win).
    expect(await quickSearchPlan({ quickSearch: 'u00042', page: 1, limit: 10 })).toMatch(/qs_plan_member_username/);
    // Every member: the first ten along the order are the page, nothing is sorted.
    const common = await quickSearchPlan({ quickSearch: 'member', page: 1, limit: 10 });
    expect(common).toMatch(/create_time_id/);
    expect(common).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
