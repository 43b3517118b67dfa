import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { parseListRequest } from '../../src/server/resources/list-query.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Quick search served by a text index: SQLite FTS5 trigram tables kept by triggers, PostgreSQL
 * pg_trgm GIN indexes. The rows and totals are those of the contract's LIKE (case-insensitive substring,
 * `%` `_` and quotes literal), for long and short terms, for related fields, and after add, edit, delete,
 * restore from the recycle bin and rollback of sensitive data.
 */

type Row = Record<string, unknown>;
interface Member {
  username: string;
  nickname: string;
}

const MEMBERS: Member[] = [
  { username: 'zhangsan', nickname: '张三丰' },
  { username: 'zhangwei', nickname: 'ZHANG Wei' },
  { username: 'realdeal', nickname: '100% real' },
  { username: 'under_one', nickname: 'under_score' },
  { username: 'underx', nickname: 'underXscore' },
  { username: 'obrien', nickname: `O'Brien "Bob"` },
  { username: 'mixcase', nickname: 'Mixed Case Name' },
  { username: 'lisi', nickname: '李四' },
];
const TERMS = ['zhang', 'ZHA', 'zh', '张三', '张', '100%', '%', '_', 'r_s', "o'b", '"bob"', 'case na', 'CASE', 'nobody-here', 'E', 'der'];

/** The contract's meaning: a case-insensitive (ASCII) substring of any quick-search field. */
function expected(rows: (Member & { id: number })[], term: string): string[] {
  const wanted = term.toLowerCase();
  return rows.filter((row) => [row.username, row.nickname, String(row.id)].some((value) => value.toLowerCase().includes(wanted))).map((row) => row.username).sort();
}

describe.each(DATABASES)('quick search on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(path, { token, ...request });

  async function members(): Promise<(Member & { id: number })[]> {
    return (await db().selectFrom('user').select(['id', 'username', 'nickname']).execute()) as (Member & { id: number })[];
  }

  async function found(term: string): Promise<{ names: string[]; total: number }> {
    const answer = await admin<{ list: Row[]; total: number }>('user.User/index', { query: { quickSearch: term, limit: 100 } });
    expect(answer.code, `${term}: ${answer.msg}`).toBe(1);
    return { names: answer.data.list.map((row) => String(row.username)).sort(), total: answer.data.total };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
    const now = Math.floor(Date.now() / 1000);
    const password = await hashPassword('Member_pass1');
    for (const member of MEMBERS) {
      await db().insertInto('user').values({ group_id: 1, ...member, email: '', mobile: '', password, salt: '', status: 'enable', join_time: now, create_time: now, update_time: now }).execute();
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  it('finds the same rows and totals as a substring search, for every kind of term', async () => {
    const rows = await members();
    for (const term of TERMS) {
      const result = await found(term);
      expect(result.names, term).toEqual(expected(rows, term));
      expect(result.total, term).toBe(result.names.length);
    }
  });

  it('answers a term searched again with the same rows, order and total on every page, a page past the last match too', async () => {
    const page = async (term: string, number: number) => {
      const answer = await admin<{ list: Row[]; total: number }>('user.User/index', { query: { quickSearch: term, limit: 2, page: number } });
      expect(answer.code, `${term}: ${answer.msg}`).toBe(1);
      return { names: answer.data.list.map((row) => String(row.username)), total: answer.data.total };
    };
    const rows = await members();
    for (const term of ['der', 'zhang', 'E', 'nobody-here']) {
      const matches = expected(rows, term).length;
      // the first search of the term, then the same pages again (the term's size is known by then)
      const first = [await page(term, 1), await page(term, 2), await page(term, 9)];
      const again = [await page(term, 1), await page(term, 2), await page(term, 9)];
      expect(again, term).toEqual(first);
      for (const answer of again) expect(answer.total, term).toBe(matches);
      expect(again[2].names, term).toEqual([]);
      expect(new Set([...again[0].names, ...again[1].names]).size, term).toBe(Math.min(matches, 4));
    }
  });

  it('searches related fields: balance entries of the members whose name matches', async () => {
    const rows = await members();
    const zhang = rows.filter((row) => row.username.startsWith('zhang'));
    for (const row of rows) await db().insertInto('user_money_log').values({ user_id: row.id, money: 100, before: 0, after: 100, memo: 'seed', create_time: 1 }).execute();
    const answer = await admin<{ list: Row[]; total: number }>('user.MoneyLog/index', { query: { quickSearch: 'ZHANG', limit: 100 } });
    expect(answer.data.total).toBe(zhang.length);
    expect(answer.data.list.map((row) => Number(row.user_id)).sort()).toEqual(zhang.map((row) => row.id).sort());
  });

  it('keeps the index right through add, edit, delete and restore from the recycle bin', async () => {
    expect((await admin('user.User/add', { body: { username: 'newcomer', nickname: 'Quokka Fan', group_id: 1, password: 'Member_pass1' } })).code).toBe(1);
    expect((await found('quokka')).names).toEqual(['newcomer']);
    const id = Number(((await db().selectFrom('user').select('id').where('username', '=', 'newcomer').executeTakeFirstOrThrow()) as Row).id);

    expect((await admin('user.User/edit', { body: { id, username: 'newcomer', nickname: 'Wombat Fan', group_id: 1 } })).code).toBe(1);
    expect((await found('quokka')).names).toEqual([]);
    expect((await found('wombat')).names).toEqual(['newcomer']);

    expect((await admin('user.User/del', { method: 'DELETE', query: { ids: [id] } })).code).toBe(1);
    expect((await found('wombat')).total).toBe(0);
    const entry = (await db().selectFrom('security_data_recycle_log').select('id').where('data_table', '=', 'user').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    expect((await admin('security.DataRecycleLog/restore', { body: { ids: [entry.id] } })).code).toBe(1);
    expect((await found('wombat')).names).toEqual(['newcomer']);
  });

  it('keeps the index right through a rollback of sensitive data', async () => {
    // the seeded rule 会员数据 watches a member's username
    const member = (await db().selectFrom('user').select(['id', 'nickname', 'group_id']).where('username', '=', 'lisi').executeTakeFirstOrThrow()) as Row;
    expect((await admin('user.User/edit', { body: { ...member, username: 'platypus' } })).code).toBe(1);
    expect((await found('platypus')).names).toEqual(['platypus']);
    expect((await found('lisi')).total).toBe(0);

    const log = (await db().selectFrom('security_sensitive_data_log').select('id').where('data_table', '=', 'user').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    const rollback = await admin('security.SensitiveDataLog/rollback', { body: { ids: [log.id] } });
    expect(rollback.code, rollback.msg).toBe(1);
    expect((await found('platypus')).total).toBe(0);
    expect((await found('lisi')).names).toEqual(['lisi']);
  });

  it('answers a long term from the text index, as the query plan shows', async () => {
    const app = server.server.app;
    const definition = app.resources.get('system/user');
    if (!definition) throw new Error('no user schema');
    const request = parseListRequest(app, definition, { quickSearch: 'zhang' }, 'UTC', undefined);
    const query = db().selectFrom('user').selectAll().where((eb) => eb.and(request.conditions.map((condition) => condition(eb)))).compile();
    if (kind === 'sqlite') {
      const rows = (await db().executeQuery({ ...query, sql: `EXPLAIN QUERY PLAN ${query.sql}`, query: query.query })).rows as { detail: string }[];
      const text = rows.map((row) => row.detail).join('\n');
      expect(text).toMatch(/VIRTUAL TABLE INDEX .*qs_user_username|qs_user_username VIRTUAL TABLE/);
      expect(text).toMatch(/qs_user_nickname/);
      // Every quick-search field (the numeric id too) from its index, the keys united, the rows read by
      // key: no scan of the table.
      expect(text).toMatch(/UNION/);
      expect(text).toMatch(/SEARCH user USING INTEGER PRIMARY KEY/);
      expect(text).not.toMatch(/SCAN "?user"?(\s|$)/);
    } else {
      // A few rows would be read whole anyway; without that choice the planner must take the trigram index.
      const text = await db().transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const rows = (await trx.executeQuery({ ...query, sql: `EXPLAIN ${query.sql}`, query: query.query })).rows as Record<string, string>[];
        return rows.map((row) => Object.values(row)[0]).join('\n');
      });
      expect(text).toMatch(/qs_user_username/);
      expect(text).toMatch(/qs_user_nickname/);
    }
  });

  it('pages through a term most rows match in the list order, with the exact total', async () => {
    // Enough matches that the first pages are read by walking the order's index rather than by sorting
    // every match; on PostgreSQL the last pages are read by sorting them (each way is checked).
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: 250 }, (_, index) => ({ group_id: 1, username: `walker${String(index + 1).padStart(3, '0')}`, nickname: `Walker ${index + 1}`, email: '', mobile: '', password: '', salt: '', status: 'enable', join_time: now, create_time: now, update_time: now }));
    await db().insertInto('user').values(rows).execute();
    const walkers = ((await db().selectFrom('user').select(['id', 'username']).where('username', 'like', 'walker%').orderBy('id', 'desc').execute()) as { username: string }[]).map((row) => row.username);
    expect(walkers).toHaveLength(250);
    for (const page of [1, 2, 3, 24, 25, 26]) {
      const answer = await admin<{ list: Row[]; total: number }>('user.User/index', { query: { quickSearch: 'WALKER', page, limit: 10 } });
      expect(answer.data.total).toBe(250);
      expect(answer.data.list.map((row) => String(row.username)), `page ${page}`).toEqual(walkers.slice((page - 1) * 10, page * 10));
    }
    // and a rare term among them still finds just its row
    expect((await found('walker042')).names).toEqual(['walker042']);
  });
});
