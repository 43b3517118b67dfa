import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { normaliseResource } from '../../../src/schema/normalise.js';
import type { AppContext } from '../../../src/server/app-context.js';
import { dynamicDb, type Db, type DialectName, type DynamicDb } from '../../../src/server/db/connection.js';
import { textIndexKey } from '../../../src/server/db/text-index.js';
import { countedColumns } from '../../../src/server/db/value-counter.js';
import { compiledListQueries, listQueries, quickSearchPage, walksOrderIndex } from '../../../src/server/resources/list-plan.js';
import { parseListRequest } from '../../../src/server/resources/list-query.js';
import { unindexedNote } from '../../../src/server/resources/order-index.js';

/**
 * The list planner's choices, without a database: which way a quick-search page is read for a given
 * number of matches, and which statements are compiled once. tests/api/list-plans.test.ts checks the
 * plans the databases make of these statements; `npm run bench:api` measures them.
 */

/** A list searched on two text columns, both with a text index on SQLite. */
const member: ResourceDefinition = normaliseResource('plans/member.json', {
  $id: 'plans/member',
  title: 'Plan member',
  type: 'object',
  'x-table': 'plan_member',
  'x-controller': 'plans.Member',
  'x-list': { quickSearch: ['username', 'nickname'], defaultSort: 'create_time,desc' },
  properties: {
    id: { type: 'integer', readOnly: true },
    username: { type: 'string', maxLength: 30 },
    nickname: { type: 'string', maxLength: 50 },
    create_time: { type: ['integer', 'null'], readOnly: true },
  },
});

/** the controllers of these resources add no hooks (a quick search of their own, as the admin log's) */
const NO_HOOKS = { forResource: () => undefined };

/** A Kysely that only compiles, in the given dialect. */
function compilerOf(dialect: DialectName): DynamicDb {
  const parts = dialect === 'sqlite'
    ? { createAdapter: () => new SqliteAdapter(), createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() }
    : { createAdapter: () => new PostgresAdapter(), createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() };
  return dynamicDb(new Kysely({ dialect: { ...parts, createDriver: () => new DummyDriver() } }) as Db);
}

function requestOf(dialect: DialectName, query: Record<string, unknown>) {
  // Both columns have their text index, as SQLite's migrations build it.
  const app = { handle: { dialect }, controllers: NO_HOOKS, resources: new Map([[member.id, member]]), textIndexed: new Set([textIndexKey('plan_member', 'username'), textIndexKey('plan_member', 'nickname')]) } as unknown as AppContext;
  return parseListRequest(app, member, query, 'Asia/Shanghai', undefined);
}

describe('walking the order index or reading every match', () => {
  const ROWS = 100_000;

  it('reads and sorts every match of a rare term, and walks the order for a common one', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      expect(walksOrderIndex(dialect, 100, 10, ROWS)).toBe(false);
      expect(walksOrderIndex(dialect, 50_000, 10, ROWS)).toBe(true);
    }
  });

  it('walks sooner on SQLite, where a walked entry tests the key only', () => {
    // 500 matches for a first page of 10: SQLite walks, PostgreSQL (whose walk reads each row) sorts the matches.
    expect(walksOrderIndex('sqlite', 500, 10, ROWS)).toBe(true);
    expect(walksOrderIndex('postgres', 500, 10, ROWS)).toBe(false);
  });

  it('stops walking for a deep page, which would walk far to fill it', () => {
    expect(walksOrderIndex('sqlite', 5_000, 10, ROWS)).toBe(true);
    expect(walksOrderIndex('sqlite', 5_000, 500 * 10, ROWS)).toBe(false);
  });
});

describe('the page statement of a quick search', () => {
  it('on SQLite, walks with the key test kept off the index, or keeps the list\'s own statement', () => {
    const db = compilerOf('sqlite');
    const request = requestOf('sqlite', { quickSearch: 'holiday' });
    const { page } = listQueries(db, member, request, request.conditions);
    const walking = quickSearchPage(db, 'sqlite', member, request, request.conditions, 50_000, 100_000);
    expect(walking?.compile().sql).toContain('+"id" in');
    expect(page.compile().sql).not.toContain('+"id"');
    expect(quickSearchPage(db, 'sqlite', member, request, request.conditions, 100, 100_000)).toBeUndefined();
  });

  it('on PostgreSQL, reads few matches behind a materialized fence, and leaves many to the planner', () => {
    const db = compilerOf('postgres');
    const request = requestOf('postgres', { quickSearch: 'holiday' });
    const fenced = quickSearchPage(db, 'postgres', member, request, request.conditions, 100, 100_000);
    expect(fenced?.compile().sql).toMatch(/^with "matched" as materialized \(/);
    expect(fenced?.compile().sql).toMatch(/order by "create_time" desc.* limit \$\d+ offset \$\d+$/);
    expect(quickSearchPage(db, 'postgres', member, request, request.conditions, 50_000, 100_000)).toBeUndefined();
  });

  it('counts the matches beside the largest key, which stands for the number of rows', () => {
    const db = compilerOf('postgres');
    const request = requestOf('postgres', { quickSearch: 'holiday' });
    expect(listQueries(db, member, request, request.conditions).count.compile().sql).toMatch(/select max\("id"\) as "top" from "plan_member"/);
    const plain = requestOf('postgres', {});
    expect(listQueries(db, member, plain, plain.conditions).count.compile().sql).not.toContain('"top"');
  });
});

describe('compiled list statements', () => {
  it('compiles an unfiltered list once per order, the page only taking its limit and offset', () => {
    const db = compilerOf('sqlite');
    const first = compiledListQueries(db, member, requestOf('sqlite', { page: 1, limit: 10 }), []);
    const fifth = compiledListQueries(db, member, requestOf('sqlite', { page: 5, limit: 20 }), []);
    expect(fifth.count).toBe(first.count);
    expect(fifth.page.sql).toBe(first.page.sql);
    expect(first.page.parameters).toEqual([10, 0]);
    expect(fifth.page.parameters).toEqual([20, 80]);
    const otherOrder = compiledListQueries(db, member, requestOf('sqlite', { order: 'id,asc' }), []);
    expect(otherOrder.page.sql).not.toBe(first.page.sql);
    expect(compiledListQueries(db, member, requestOf('sqlite', { order: 'id,asc', page: 3 }), []).count).toBe(otherOrder.count);
  });

  it('compiles a filtered list afresh for each request when other conditions join the request\'s own', () => {
    const db = compilerOf('sqlite');
    const request = requestOf('sqlite', { quickSearch: 'holiday' });
    const once = compiledListQueries(db, member, request, request.conditions);
    const again = compiledListQueries(db, member, request, request.conditions);
    expect(again.count).not.toBe(once.count);
    expect(again.page.sql).toBe(once.page.sql);
  });

  it('compiles a filtered list once per shape, each page putting in its own limit and offset after the filter\'s values', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const db = compilerOf(dialect);
      const search = { search: [{ field: 'username', operator: 'LIKE', val: 'holiday' }], order: 'id,asc' };
      const first = compiledListQueries(db, member, requestOf(dialect, { ...search, page: 1, limit: 10 }), requestOf(dialect, search).conditions, true);
      const thirdRequest = requestOf(dialect, { ...search, page: 3, limit: 20 });
      const third = compiledListQueries(db, member, thirdRequest, thirdRequest.conditions, true);
      expect(third.count).toBe(first.count);
      expect(third.page.sql).toBe(first.page.sql);
      expect(first.page.parameters).toEqual(['%holiday%', 10, 0]);
      expect(third.page.parameters).toEqual(['%holiday%', 20, 40]);
      // another value is another shape, with its own statements
      const otherRequest = requestOf(dialect, { ...search, search: [{ field: 'username', operator: 'LIKE', val: 'winter' }] });
      const other = compiledListQueries(db, member, otherRequest, otherRequest.conditions, true);
      expect(other.count).not.toBe(first.count);
      expect(other.count.parameters).toEqual(['%winter%']);
      expect(other.page.parameters).toEqual(['%winter%', 10, 0]);
    }
  });
});

/** A list with columns of declared values: two filtered with `=`, one with `IN`, beside free text. */
const ticket: ResourceDefinition = normaliseResource('plans/ticket.json', {
  $id: 'plans/ticket',
  title: 'Plan ticket',
  type: 'object',
  'x-table': 'plan_ticket',
  'x-controller': 'plans.Ticket',
  properties: {
    id: { type: 'integer', readOnly: true },
    title: { type: 'string', maxLength: 50, 'x-ui': { search: '=' } },
    state: { type: 'string', enum: ['open', 'closed'], default: 'open', 'x-ui': { search: '=' } },
    priority: { type: 'integer', enum: [1, 2, 3], default: 1, 'x-ui': { search: '=' } },
    kind: { type: 'string', enum: ['bug', 'idea'], default: 'bug', 'x-ui': { search: 'IN' } },
  },
});

function ticketRequest(dialect: DialectName, search: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const app = { handle: { dialect }, controllers: NO_HOOKS, resources: new Map([[ticket.id, ticket]]), textIndexed: new Set() } as unknown as AppContext;
  return parseListRequest(app, ticket, { search, ...extra }, 'Asia/Shanghai', undefined);
}

describe('the total of a list filtered to one value', () => {
  it('counts per value only the columns of declared values the list filters with `=`', () => {
    expect(countedColumns(ticket)).toEqual([
      { name: 'state', values: ['open', 'closed'] },
      { name: 'priority', values: ['1', '2', '3'] },
    ]);
  });

  it('reads the count kept for a declared value, and counts the rows for any other filter', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const db = compilerOf(dialect);
      const totalOf = (request: ReturnType<typeof ticketRequest>, shaped = true) => compiledListQueries(db, ticket, request, request.conditions, shaped).count;
      const kept = totalOf(ticketRequest(dialect, [{ field: 'state', operator: 'eq', val: 'closed' }]));
      expect(kept.sql).toMatch(/row_count_by_value/);
      expect(kept.sql).not.toMatch(/plan_ticket"? where/i);
      expect(kept.parameters).toEqual(['plan_ticket', 'state', 'closed', 'plan_ticket', 'state', 'closed']);
      // An integer column: the value as compared with the column (`01` is 1) is the kept text `1`.
      expect(totalOf(ticketRequest(dialect, [{ field: 'priority', operator: '=', val: '01' }])).parameters).toEqual(['plan_ticket', 'priority', '1', 'plan_ticket', 'priority', '1']);

      const counted = [
        // a value the schema does not declare
        ticketRequest(dialect, [{ field: 'state', operator: '=', val: 'archived' }]),
        // another operator, another column, a column not counted, two conditions, a quick search beside
        ticketRequest(dialect, [{ field: 'state', operator: '<>', val: 'open' }]),
        ticketRequest(dialect, [{ field: 'title', operator: '=', val: 'open' }]),
        ticketRequest(dialect, [{ field: 'kind', operator: '=', val: 'bug' }]),
        ticketRequest(dialect, [{ field: 'state', operator: '=', val: 'open' }, { field: 'priority', operator: '=', val: 1 }]),
        ticketRequest(dialect, [{ field: 'state', operator: '=', val: 'open' }], { initValue: '1,2' }),
      ];
      for (const request of counted) {
        const count = totalOf(request);
        expect(count.sql, request.shape).not.toMatch(/row_count_by_value/);
        expect(count.sql, request.shape).toMatch(/count\(\*\)/);
      }
      // The request's own filter joined by a data limit or scope (not `shaped`): the rows are counted.
      expect(totalOf(ticketRequest(dialect, [{ field: 'state', operator: '=', val: 'open' }]), false).sql).not.toMatch(/row_count_by_value/);
    }
  });
});

describe('the start-up note of the shapes no index reads in order', () => {
  const note = (properties: Record<string, unknown>, list: Record<string, unknown> = {}) =>
    unindexedNote(normaliseResource('plans/shape.json', {
      $id: 'plans/shape',
      title: 'Plan shape',
      type: 'object',
      'x-table': 'plan_shape',
      'x-list': { defaultSort: 'create_time,desc', ...list },
      properties: { id: { type: 'integer', readOnly: true }, create_time: { type: ['integer', 'null'], readOnly: true }, ...properties },
    }));

  it('says nothing when every filter × order has its index', () => {
    expect(note({ status: { type: 'string', enum: ['0', '1'], 'x-ui': { search: '=' } }, weigh: { type: 'integer', 'x-ui': { sortable: true } } })).toBeUndefined();
  });

  it('names, in one line, an IN of several values and a range with another order', () => {
    const line = note({ kind: { type: 'string', enum: ['a', 'b'], 'x-ui': { search: 'IN' } }, weigh: { type: 'integer', 'x-ui': { sortable: true, search: 'RANGE' } } });
    expect(line).toMatch(/^list plan_shape: no index reads these filters in these orders/);
    expect(line).toContain('kind IN (several values) by create_time, id, weigh');
    expect(line).toContain('weigh RANGE by create_time, id');
    expect(line).not.toContain('\n');
  });
});
