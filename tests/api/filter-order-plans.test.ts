import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldDefinition, ResourceDefinition } from '../../src/schema/definition.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { compiledListQueries, filteredListPage, walksOrderForFilter } from '../../src/server/resources/list-plan.js';
import { parseListRequest } from '../../src/server/resources/list-query.js';
import { filterOrderIndexed, filterOrders, type FilterOrder } from '../../src/server/resources/order-index.js';
import { PRODUCT_FIELDS, productTable } from '../support/crud-design.js';
import { queryPlan } from '../support/query-plan.js';
import { DATABASES, PROJECT_ROOT, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Every filter × order a list may be asked for, in every schema of schemas/, in a module made by the
 * CRUD designer and in the module store's catalogue (modules/, installed), is read without sorting the filtered rows: the page statement the list engine builds
 * for the request (parsed as the API parses it, planned as the list plans it) is explained.
 *   - A shape an index reads in order (`filterOrderIndexed`): the index searched by the filter gives the
 *     order, no sort (SQLite: no "USE TEMP B-TREE"; PostgreSQL: no Sort node, the filter in the index
 *     condition). A unique filter matches one row at most: it is read by its index (on PostgreSQL, an
 *     index it leads exists), and nothing else asked.
 *   - A shape none does (past the table's cap, an `IN` of several values, a range with another order):
 *     on SQLite the count settles the way (`walksOrderForFilter`): a filter matching most rows walks the
 *     order's index, no sort; one matching few reads them by the filter's index and sorts them, only
 *     while that is cheaper (at most about 1,300 rows for a page of 10 in 100,000). On PostgreSQL the
 *     planner weighs the same two ways by its statistics of the column: with sorts priced out the plan
 *     shows the order's index it would walk.
 * PostgreSQL's plans are made with sequential scans priced out and, where said, sorts too
 * (tests/support/query-plan.ts): on a test's few rows it would read the table whatever the indexes, and
 * a plan with sorts priced out still has a Sort node when no index can give the order.
 */

const ROWS = 100_000;

/** The module store's first-party catalogue (modules/). */
const STORE_MODULES = ['announcement', 'faq', 'feedback'];

/** A value `field` can be searched with: a declared one, or one of its type. */
function valuesOf(field: FieldDefinition): [string, string] {
  if (field.enum && field.enum.length > 1) return [String(field.enum[0]), String(field.enum[1])];
  const numeric = ['bigint', 'real', 'money', 'boolean'].includes(field.storage?.type ?? '');
  return numeric ? ['0', '1'] : ['a', 'z'];
}

function searchOf(definition: ResourceDefinition, shape: FilterOrder): Record<string, unknown> {
  const field = definition.fields.find((item) => item.name === shape.filter) as FieldDefinition;
  const [low, high] = valuesOf(field);
  const search = shape.kind === 'equal' ? { field: field.name, operator: '=', val: low } : shape.kind === 'in' ? { field: field.name, operator: 'IN', val: `${low},${high}` } : { field: field.name, operator: 'RANGE', val: `${low},${high}` };
  const order = shape.order === definition.list.defaultSort ? {} : { order: `${shape.order[0].field},${shape.order[0].direction}` };
  return { page: 1, limit: 10, search: [search], ...order };
}

/**
 * A sort of the rows read: SQLite's "USE TEMP B-TREE FOR ORDER BY", PostgreSQL's Sort node. An order of
 * mixed directions (`weigh,desc;id,asc`) is read along its first column, the rows of one weigh sorted by
 * the key among themselves ("FOR LAST TERM OF ORDER BY", an Incremental Sort): not a sort of the filtered rows.
 */
const SORTED = /USE TEMP B-TREE FOR ORDER BY|(^|->)\s*Sort\b/m;

describe.each(DATABASES)('every filter × order on %s', (kind) => {
  let dir: string;
  let server: TestServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chidao-filter-plans-'));
    cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'locales'), join(dir, 'locales'), { recursive: true });
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    const { token } = await server.loginAdmin();
    const generated = await server.admin<{ id: string }>('crud.Crud/generate', { token, body: { type: 'create', table: productTable(), fields: PRODUCT_FIELDS } });
    expect(generated.code, generated.msg).toBe(1);
    for (const uid of STORE_MODULES) {
      const installed = await server.admin('module/install', { token, query: { uid }, body: { extend: {} } });
      expect(installed.code, `${uid}: ${installed.msg}`).toBe(1);
    }
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Some thousand statements explained (on PostgreSQL each in a transaction of its own): minutes on two busy cores.
  it('reads each from an index that gives the order, or the cheaper way its count says', { timeout: 300_000 }, async () => {
    const app = server.server.app;
    const db = dynamicDb(app.db);
    const failures: string[] = [];
    const checked = { indexed: 0, counted: 0, resources: new Set<string>() };
    for (const definition of app.resources.values()) {
      for (const shape of filterOrders(definition)) {
        const label = `${definition.id}: ${shape.filter} ${shape.kind} by ${shape.order.map((term) => term.field).join(',')}`;
        const request = parseListRequest(app, definition, searchOf(definition, shape), 'UTC', undefined);
        const { conditions } = request;
        checked.resources.add(definition.id);
        const unique = definition.fields.find((field) => field.name === shape.filter)?.unique && shape.kind === 'equal';
        if (filterOrderIndexed(definition, shape)) {
          checked.indexed++;
          // The list keeps its own page statement, whatever the count.
          if (filteredListPage(db, app.handle.dialect, definition, request, conditions, ROWS, ROWS)) failures.push(`${label}: indexed, yet read another way`);
          if (unique && kind === 'postgres') {
            // One row at most, by the unique index (or one the filter leads): on a test's empty table
            // PostgreSQL prices a walk along any index the same as that lookup, so its plan says nothing here.
            if (!definition.indexes.some((index) => index.columns[0] === shape.filter)) failures.push(`${label}: no index the filter leads`);
            continue;
          }
          const plan = await queryPlan(db, kind, compiledListQueries(db, definition, request, conditions, true).page);
          const searched = kind === 'sqlite' ? new RegExp(`USING (COVERING )?INDEX \\S+ \\(${shape.filter}[=><]`) : new RegExp(`Index Cond: \\(+"?${shape.filter}"?`);
          if (!searched.test(plan)) failures.push(`${label}: not read by an index the filter searches\n${plan}`);
          if (!unique && SORTED.test(plan)) failures.push(`${label}: sorted\n${plan}`);
          continue;
        }
        checked.counted++;
        if (kind === 'sqlite') {
          const walking = filteredListPage(db, 'sqlite', definition, request, conditions, ROWS, ROWS);
          const few = filteredListPage(db, 'sqlite', definition, request, conditions, 10, ROWS);
          if (!walking || !few) {
            failures.push(`${label}: no index, yet not read by its count`);
            continue;
          }
          const walk = await queryPlan(db, kind, walking);
          if (SORTED.test(walk) || new RegExp(`\\(${shape.filter}[=><]`).test(walk)) failures.push(`${label}: many matches, not walked along the order\n${walk}`);
          const sorted = await queryPlan(db, kind, few);
          if (!new RegExp(`USING (COVERING )?INDEX \\S+ \\(${shape.filter}[=><]`).test(sorted)) failures.push(`${label}: few matches, not read by the filter's index\n${sorted}`);
        } else {
          if (filteredListPage(db, 'postgres', definition, request, conditions, ROWS, ROWS)) failures.push(`${label}: PostgreSQL plans it itself`);
          const plan = await queryPlan(db, kind, compiledListQueries(db, definition, request, conditions, true).page);
          if (SORTED.test(plan)) failures.push(`${label}: no index gives the order\n${plan}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Every schema with a filter was checked, the designed module and the store's among them; both kinds of shape occur.
    expect(checked.resources).toContain('crud/test_product');
    for (const id of ['announcement/notice', 'faq/question', 'feedback/ticket']) expect(checked.resources).toContain(id);
    expect(checked.resources).toContain('system/user');
    expect(checked.indexed).toBeGreaterThan(200);
    expect(checked.counted).toBeGreaterThan(50);
  });

  it('sorts a filter\'s matches only while that is cheaper than walking, so no page of 10 reads more than about 1,300 rows in 100,000', () => {
    expect(walksOrderForFilter(50_000, 10, ROWS)).toBe(true);
    expect(walksOrderForFilter(1_000, 10, ROWS)).toBe(false);
    expect(walksOrderForFilter(1_400, 10, ROWS)).toBe(true);
    // the way costs at most about matches read and sorted, or 10 × rows / matches walked
    for (let matches = 1; matches <= ROWS; matches *= 2) {
      const work = walksOrderForFilter(matches, 10, ROWS) ? (10 * ROWS) / matches : matches;
      expect(work, `${matches} matches`).toBeLessThan(1_300);
    }
  });
});
