import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, PROJECT_ROOT, startTestServer, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * The generic resource engine through HTTP (docs/wire-contract.md#generic-resources): a schema directory with the system schemas
 * plus two demo resources, and nothing else — no hooks, no controller code. That a working CRUD API,
 * its table and its menu appear from the schema files alone is part of what is proven here.
 */

type Row = Record<string, unknown>;
interface ListData {
  list: Row[];
  total: number;
  remark: string;
}

const CATEGORY_SCHEMA = {
  $id: 'demo/category',
  title: 'Category',
  type: 'object',
  'x-table': 'demo_category',
  'x-controller': 'demo.Category',
  required: ['name'],
  'x-list': { quickSearch: ['name'] },
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true },
    name: { type: 'string', title: 'Name', maxLength: 50, 'x-unique': true },
    create_time: { type: ['integer', 'null'], title: 'Create time', readOnly: true },
    update_time: { type: ['integer', 'null'], title: 'Update time', readOnly: true },
  },
};

const ARTICLE_SCHEMA = {
  $id: 'demo/article',
  title: 'Article',
  type: 'object',
  'x-table': 'demo_article',
  'x-controller': 'demo.Article',
  'x-menu': { title: 'Articles', icon: 'fa fa-file' },
  required: ['title'],
  'x-list': { quickSearch: ['title', 'category.name'], weighField: 'weigh' },
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true },
    title: { type: 'string', title: 'Title', maxLength: 100, 'x-unique': true, 'x-ui': { search: 'LIKE', list: true } },
    status: {
      type: 'string',
      title: 'Status',
      enum: ['draft', 'published', 'archived'],
      default: 'draft',
      'x-transitions': { draft: ['published'], published: ['archived', 'draft'] },
    },
    views: { type: 'integer', title: 'Views', minimum: 0, 'x-ui': { sortable: true } },
    price: { type: 'string', title: 'Price', format: 'money', 'x-ui': { sortable: true } },
    tags: { type: 'array', title: 'Tags', items: { type: 'string' }, 'x-storage': 'csv' },
    publish_time: { type: ['integer', 'null'], title: 'Publish time', 'x-ui': { render: 'datetime' } },
    category_id: { type: 'integer', title: 'Category', 'x-ref': { resource: 'demo/category', label: 'name', as: 'category' } },
    password: { type: 'string', title: 'Access password', maxLength: 64, writeOnly: true },
    weigh: { type: 'integer', title: 'Weigh' },
    create_time: { type: ['integer', 'null'], title: 'Create time', readOnly: true },
    update_time: { type: ['integer', 'null'], title: 'Update time', readOnly: true },
  },
};

/** A schemas directory: the real schemas (the system ones refer to other areas) plus the demo module. */
function makeSchemasDir(): { root: string; schemas: string } {
  const root = mkdtempSync(join(tmpdir(), 'chidao-schemas-'));
  const schemas = join(root, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
  mkdirSync(join(schemas, 'demo'), { recursive: true });
  writeFileSync(join(schemas, 'demo/category.json'), JSON.stringify(CATEGORY_SCHEMA, null, 2));
  writeFileSync(join(schemas, 'demo/article.json'), JSON.stringify(ARTICLE_SCHEMA, null, 2));
  return { root, schemas };
}

const schemasDir = makeSchemasDir();
afterAll(() => rmSync(schemasDir.root, { recursive: true, force: true }));

/** Unix seconds of `2024-01-01 00:00:00` and `2024-01-31 23:59:59` in Asia/Shanghai (UTC+8). */
const JAN_START = Date.UTC(2023, 11, 31, 16, 0, 0) / 1000;
const JAN_END = Date.UTC(2024, 0, 31, 15, 59, 59) / 1000;

const ARTICLES = [
  { title: 'Alpha', status: 'published', views: 10, price: '12.5', tags: ['news', 'tech'], publish_time: JAN_START, category: 'News', weigh: 10, password: 'hunter2' },
  { title: 'Beta', status: 'draft', views: 20, price: '5', tags: ['tech'], publish_time: JAN_END, category: 'Tech', weigh: 20 },
  { title: 'Gamma 100% pure', status: 'published', views: 30, price: '0.99', tags: ['news'], publish_time: JAN_END + 1, category: 'News', weigh: 30 },
  { title: 'under_score', status: 'archived', views: 40, price: '100', tags: [], publish_time: null, category: null, weigh: 40 },
  { title: 'underXscore', status: 'draft', views: 50, price: '20.00', tags: ['x'], publish_time: null, category: null, weigh: 50 },
] as const;
const ALL_TITLES = ARTICLES.map((article) => article.title).sort();

function sorted(values: unknown[]): string[] {
  return values.map(String).sort();
}

describe.each(DATABASES)('resource engine on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const ids: Record<string, number> = {};
  const categoryIds: Record<string, number> = {};

  const t = (key: string, params: (string | number)[] = []) => server.server.app.messages.translator('en')(key, params);
  const db = () => dynamicDb(server.server.app.db);
  const article = <T = unknown>(action: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(`demo.Article/${action}`, { token, ...request });

  async function list(query: Record<string, unknown> = {}): Promise<ListData> {
    const response = await article<ListData>('index', { query });
    expect(response.status).toBe(200);
    expect(response.msg, JSON.stringify(query)).toBe('');
    expect(response.code).toBe(1);
    return response.data;
  }

  /** Titles matched by one or more `search[]` entries, sorted. */
  async function search(...entries: Row[]): Promise<string[]> {
    const data = await list({ search: entries, limit: 100 });
    return sorted(data.list.map((row) => row.title));
  }

  async function storedArticle(id: number): Promise<Row> {
    return (await db().selectFrom('demo_article').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
  }

  async function snapshot() {
    const tables = (await db().introspection.getTables()).map((table) => table.name).sort();
    const articles = await db().selectFrom('demo_article').selectAll().orderBy('id').execute();
    const categories = await db().selectFrom('demo_category').selectAll().orderBy('id').execute();
    return { tables, articles, categories };
  }

  async function addArticle(values: Row): Promise<number> {
    const response = await article('add', { body: values });
    expect(response.msg).toBe(t('Added successfully!'));
    expect(response.code).toBe(1);
    const found = (await db().selectFrom('demo_article').select('id').where('title', '=', String(values.title)).executeTakeFirstOrThrow()) as { id: number };
    return Number(found.id);
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { schemasDir: schemasDir.schemas });
    ({ token } = await server.loginAdmin());
    for (const name of ['News', 'Tech']) {
      const response = await server.admin('demo.Category/add', { token, body: { name } });
      expect(response.code).toBe(1);
      const row = (await db().selectFrom('demo_category').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as { id: number };
      categoryIds[name] = Number(row.id);
    }
    for (const { category, ...values } of ARTICLES) {
      ids[values.title] = await addArticle({ ...values, category_id: category ? categoryIds[category] : 0 });
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('a schema file alone yields the resource', () => {
    it('creates the tables', async () => {
      const tables = (await db().introspection.getTables()).map((table) => table.name);
      expect(tables).toEqual(expect.arrayContaining(['demo_article', 'demo_category']));
    });

    it('adds the menu rule with its buttons to the admin menus', async () => {
      const response = await server.admin<{ menus: Row[] }>('Index/index', { token });
      expect(response.code).toBe(1);
      const find = (nodes: Row[]): Row | undefined => {
        for (const node of nodes) {
          if (node.name === 'demo/article') return node;
          const inner = Array.isArray(node.children) ? find(node.children as Row[]) : undefined;
          if (inner) return inner;
        }
        return undefined;
      };
      const menu = find(response.data.menus);
      expect(menu).toMatchObject({ name: 'demo/article', path: 'demo/article', type: 'menu', title: 'Articles' });
      const buttons = ((menu?.children ?? []) as Row[]).map((child) => child.name);
      expect(sorted(buttons)).toEqual(sorted(['index', 'add', 'edit', 'del', 'sortable', 'export'].map((button) => `demo/article/${button}`)));
      // No menu is declared for categories: no rule either.
      const rule = await db().selectFrom('admin_rule').select('id').where('name', 'like', 'demo/category%').executeTakeFirst();
      expect(rule).toBeUndefined();
    });

    it('answers index, add, edit, del and sortable', async () => {
      const data = await list();
      expect(data.total).toBe(ARTICLES.length);
      expect(data.remark).toBe('');
      const id = await addArticle({ title: 'Lifecycle', views: 1, weigh: 1 });
      expect((await article('edit', { body: { id, views: 2 } })).code).toBe(1);
      expect((await article('sortable', { body: { id, targetId: ids.Alpha } })).code).toBe(1);
      expect((await article('sortable', { body: { id, targetId: ids.Alpha } })).code).toBe(1);
      const deleted = await article('del', { method: 'DELETE', query: { ids: [id] } });
      expect(deleted.msg).toBe(t('Deleted successfully!'));
      expect(deleted.code).toBe(1);
      expect((await list()).total).toBe(ARTICLES.length);
    });
  });

  describe('index: paging and order', () => {
    it('pages with page/limit and reports the total', async () => {
      const first = await list({ order: 'views,asc', limit: 2, page: 1 });
      expect(first.total).toBe(5);
      expect(first.list.map((row) => row.title)).toEqual(['Alpha', 'Beta']);
      const second = await list({ order: 'views,asc', limit: 2, page: 2 });
      expect(second.list.map((row) => row.title)).toEqual(['Gamma 100% pure', 'under_score']);
      const third = await list({ order: 'views,asc', limit: 2, page: 3 });
      expect(third.list.map((row) => row.title)).toEqual(['underXscore']);
      expect(third.total).toBe(5);
      const beyond = await list({ order: 'views,asc', limit: 2, page: 9 });
      expect(beyond.list).toEqual([]);
      expect(beyond.total).toBe(5);
    });

    it('defaults to limit 10 and id desc', async () => {
      const data = await list();
      const expected = [...ARTICLES].map((item) => ids[item.title]).sort((a, b) => b - a);
      expect(data.list.map((row) => row.id)).toEqual(expected);
    });

    it('orders by "field,asc|desc"', async () => {
      expect((await list({ order: 'title,asc' })).list.slice(0, 3).map((row) => row.title)).toEqual(['Alpha', 'Beta', 'Gamma 100% pure']);
      expect((await list({ order: 'views,desc' })).list.map((row) => row.views)).toEqual([50, 40, 30, 20, 10]);
      expect((await list({ order: 'price,asc' })).list.map((row) => row.price)).toEqual(['0.99', '5.00', '12.50', '20.00', '100.00']);
    });

    it('refuses an order by a column no index serves, in the request’s language', async () => {
      const refused = await article('index', { query: { order: 'publish_time,desc' }, lang: 'en' });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'The list cannot be ordered by Publish time' });
      const chinese = await article('index', { query: { order: 'publish_time,desc' }, lang: 'zh-cn' });
      expect(chinese.msg).toMatch(/^列表不能按.+排序$/);
    });

    it.each([
      ['no direction', 'views'],
      ['a bad direction', 'views,up'],
      ['extra parts', 'views,asc,desc'],
      ['an unknown field', 'nope,asc'],
      ['a write-only field', 'password,asc'],
      ['a relation field', 'category.name,asc'],
      ['an injection attempt', 'id;DROP TABLE demo_article'],
      ['SQL in the direction', 'views,asc;DELETE FROM demo_article'],
    ])('falls back to the default order on %s', async (_label, order) => {
      const before = await snapshot();
      const fallback = (await list()).list.map((row) => row.id);
      const data = await list({ order });
      expect(data.list.map((row) => row.id)).toEqual(fallback);
      expect(data.total).toBe(5);
      expect(await snapshot()).toEqual(before);
    });

    it('falls back to the default order when order is an array', async () => {
      const before = await snapshot();
      const fallback = (await list()).list.map((row) => row.id);
      expect((await list({ order: ['x'] })).list.map((row) => row.id)).toEqual(fallback);
      expect((await list({ order: { a: 'views,asc' } })).list.map((row) => row.id)).toEqual(fallback);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('index: rows on the wire', () => {
    it('converts money, csv and relations, and never sends write-only fields', async () => {
      const data = await list({ order: 'views,asc' });
      const alpha = data.list[0];
      expect(alpha).toMatchObject({ title: 'Alpha', status: 'published', views: 10, price: '12.50', tags: ['news', 'tech'], publish_time: JAN_START, weigh: 10 });
      expect(alpha.category).toMatchObject({ id: categoryIds.News, name: 'News' });
      expect(typeof alpha.create_time).toBe('number');
      expect(alpha).not.toHaveProperty('password');
      expect(JSON.stringify(data)).not.toContain('hunter2');
      const underScore = data.list[3];
      expect(underScore).toMatchObject({ title: 'under_score', tags: [], publish_time: null, category_id: 0, category: null });
    });

    it('stores money as cents and lists as CSV', async () => {
      const stored = await storedArticle(ids.Alpha);
      expect(Number(stored.price)).toBe(1250);
      expect(stored.tags).toBe('news,tech');
      expect(Number((await storedArticle(ids.Beta)).price)).toBe(500);
    });

    it('answers select mode with the normal list shape', async () => {
      const response = await article<ListData>('index', { query: { select: 'true', order: 'views,asc', limit: 2 } });
      expect(response.code).toBe(1);
      expect(response.data.total).toBe(5);
      expect(response.data.list.map((row) => row.title)).toEqual(['Alpha', 'Beta']);
      expect(response.data.list[0].category).toMatchObject({ name: 'News' });
    });
  });

  describe('index: quickSearch', () => {
    it('matches any quick-search field, through relations too', async () => {
      expect(sorted((await list({ quickSearch: 'amm' })).list.map((row) => row.title))).toEqual(['Gamma 100% pure']);
      expect(sorted((await list({ quickSearch: 'Tech' })).list.map((row) => row.title))).toEqual(['Beta']);
      expect(sorted((await list({ quickSearch: 'News' })).list.map((row) => row.title))).toEqual(['Alpha', 'Gamma 100% pure']);
      expect((await list({ quickSearch: 'nothing like this' })).total).toBe(0);
      expect((await list({ quickSearch: '' })).total).toBe(5);
    });

    it('treats % and _ as literal characters', async () => {
      expect(sorted((await list({ quickSearch: '%' })).list.map((row) => row.title))).toEqual(['Gamma 100% pure']);
      expect(sorted((await list({ quickSearch: '_' })).list.map((row) => row.title))).toEqual(['under_score']);
      expect(sorted((await list({ quickSearch: 'under_' })).list.map((row) => row.title))).toEqual(['under_score']);
      expect((await list({ quickSearch: '\\' })).total).toBe(0);
    });
  });

  describe('index: search operators', () => {
    it('= and <> (and their aliases eq, ne)', async () => {
      expect(await search({ field: 'views', val: '20', operator: '=' })).toEqual(['Beta']);
      expect(await search({ field: 'views', val: '20', operator: 'eq' })).toEqual(['Beta']);
      expect(await search({ field: 'status', val: 'draft', operator: '=' })).toEqual(['Beta', 'underXscore']);
      expect(await search({ field: 'views', val: '20', operator: '<>' })).toEqual(sorted(['Alpha', 'Gamma 100% pure', 'under_score', 'underXscore']));
      expect(await search({ field: 'views', val: '20', operator: 'ne' })).toEqual(sorted(['Alpha', 'Gamma 100% pure', 'under_score', 'underXscore']));
      expect(await search({ field: 'price', val: '12.5', operator: '=' })).toEqual(['Alpha']);
    });

    it('>, >=, <, <= (and gt, egt, lt, elt)', async () => {
      expect(await search({ field: 'views', val: '30', operator: '>' })).toEqual(sorted(['under_score', 'underXscore']));
      expect(await search({ field: 'views', val: '30', operator: 'gt' })).toEqual(sorted(['under_score', 'underXscore']));
      expect(await search({ field: 'views', val: '30', operator: '>=' })).toEqual(sorted(['Gamma 100% pure', 'under_score', 'underXscore']));
      expect(await search({ field: 'views', val: '30', operator: 'egt' })).toEqual(sorted(['Gamma 100% pure', 'under_score', 'underXscore']));
      expect(await search({ field: 'views', val: '20', operator: '<' })).toEqual(['Alpha']);
      expect(await search({ field: 'views', val: '20', operator: 'lt' })).toEqual(['Alpha']);
      expect(await search({ field: 'views', val: '20', operator: '<=' })).toEqual(['Alpha', 'Beta']);
      expect(await search({ field: 'views', val: '20', operator: 'elt' })).toEqual(['Alpha', 'Beta']);
      // Money compares in cents: 12.50, 100.00 and 20.00 are above 10.
      expect(await search({ field: 'price', val: '10', operator: '>' })).toEqual(sorted(['Alpha', 'under_score', 'underXscore']));
    });

    it('LIKE and NOT LIKE', async () => {
      expect(await search({ field: 'title', val: 'eta', operator: 'LIKE' })).toEqual(['Beta']);
      expect(await search({ field: 'title', val: 'eta', operator: 'like' })).toEqual(['Beta']);
      expect(await search({ field: 'title', val: '100%', operator: 'LIKE' })).toEqual(['Gamma 100% pure']);
      expect(await search({ field: 'title', val: 'r_s', operator: 'LIKE' })).toEqual(['under_score']);
      expect(await search({ field: 'title', val: 'a', operator: 'NOT LIKE' })).toEqual(sorted(['under_score', 'underXscore']));
      expect(await search({ field: 'title', val: '_', operator: 'NOT LIKE' })).toEqual(sorted(['Alpha', 'Beta', 'Gamma 100% pure', 'underXscore']));
    });

    it('IN with an array or a comma string, and NOT IN', async () => {
      expect(await search({ field: 'views', val: ['10', '30'], operator: 'IN' })).toEqual(['Alpha', 'Gamma 100% pure']);
      expect(await search({ field: 'views', val: '10,30', operator: 'IN' })).toEqual(['Alpha', 'Gamma 100% pure']);
      expect(await search({ field: 'status', val: ['archived', 'published'], operator: 'in' })).toEqual(sorted(['Alpha', 'Gamma 100% pure', 'under_score']));
      expect(await search({ field: 'views', val: '10,30', operator: 'NOT IN' })).toEqual(sorted(['Beta', 'under_score', 'underXscore']));
      expect(await search({ field: 'views', val: ['10', '30'], operator: 'not in' })).toEqual(sorted(['Beta', 'under_score', 'underXscore']));
    });

    it('RANGE with both ends, "a," and ",b"', async () => {
      expect(await search({ field: 'views', val: '20,40', operator: 'RANGE' })).toEqual(sorted(['Beta', 'Gamma 100% pure', 'under_score']));
      expect(await search({ field: 'views', val: '30,', operator: 'RANGE' })).toEqual(sorted(['Gamma 100% pure', 'under_score', 'underXscore']));
      expect(await search({ field: 'views', val: ',20', operator: 'RANGE' })).toEqual(['Alpha', 'Beta']);
      expect(await search({ field: 'price', val: '1,20', operator: 'RANGE' })).toEqual(sorted(['Alpha', 'Beta', 'underXscore']));
    });

    it('NOT RANGE with both ends, "a," and ",b"', async () => {
      expect(await search({ field: 'views', val: '20,40', operator: 'NOT RANGE' })).toEqual(sorted(['Alpha', 'underXscore']));
      expect(await search({ field: 'views', val: '30,', operator: 'NOT RANGE' })).toEqual(['Alpha', 'Beta']);
      expect(await search({ field: 'views', val: ',20', operator: 'NOT RANGE' })).toEqual(sorted(['Gamma 100% pure', 'under_score', 'underXscore']));
    });

    it('NULL and NOT NULL', async () => {
      expect(await search({ field: 'publish_time', val: 'true', operator: 'NULL' })).toEqual(sorted(['under_score', 'underXscore']));
      expect(await search({ field: 'publish_time', val: 'true', operator: 'NOT NULL' })).toEqual(['Alpha', 'Beta', 'Gamma 100% pure']);
    });

    it('FIND_IN_SET on a CSV column, one condition per value', async () => {
      expect(await search({ field: 'tags', val: 'tech', operator: 'FIND_IN_SET' })).toEqual(['Alpha', 'Beta']);
      expect(await search({ field: 'tags', val: 'news', operator: 'find_in_set' })).toEqual(['Alpha', 'Gamma 100% pure']);
      expect(await search({ field: 'tags', val: ['news', 'tech'], operator: 'FIND_IN_SET' })).toEqual(['Alpha']);
      // Whole items only: "ech" is part of "tech", not an item.
      expect(await search({ field: 'tags', val: 'ech', operator: 'FIND_IN_SET' })).toEqual([]);
    });

    it('combines several entries with AND', async () => {
      expect(await search({ field: 'status', val: 'published', operator: '=' }, { field: 'views', val: '20', operator: '>' })).toEqual(['Gamma 100% pure']);
    });

    it('ignores entries missing field, val or operator', async () => {
      expect(await search({ field: 'views', val: '10' })).toEqual(ALL_TITLES);
      expect(await search({ val: '10', operator: '=' })).toEqual(ALL_TITLES);
      expect(await search({ field: 'views', operator: '=' })).toEqual(ALL_TITLES);
      expect(await search({ field: 'views', val: '10' }, { field: 'views', val: '10', operator: '=' })).toEqual(['Alpha']);
    });

    it('ignores an unknown operator (docs/wire-contract.md#search-operators)', async () => {
      const before = await snapshot();
      expect(await search({ field: 'views', val: '10', operator: 'EXEC' })).toEqual(ALL_TITLES);
      expect(await search({ field: 'views', val: '10', operator: '= 1 OR 1=1 --' })).toEqual(ALL_TITLES);
      expect(await snapshot()).toEqual(before);
    });

    it('applies the datetime render rule in the site time zone (Asia/Shanghai)', async () => {
      const month = '2024-01-01 00:00:00,2024-01-31 23:59:59';
      expect(await search({ field: 'publish_time', val: month, operator: 'RANGE', render: 'datetime' })).toEqual(['Alpha', 'Beta']);
      expect(await search({ field: 'publish_time', val: month, operator: 'NOT RANGE', render: 'datetime' })).toEqual(['Gamma 100% pure']);
      expect(await search({ field: 'publish_time', val: '2024-01-31 23:59:59', operator: '=', render: 'datetime' })).toEqual(['Beta']);
      // Any operator other than a range compares the exact second.
      expect(await search({ field: 'publish_time', val: '2024-01-01 00:00:00', operator: '>', render: 'datetime' })).toEqual(['Alpha']);
      expect(await search({ field: 'publish_time', val: '2024-02-01 00:00:00', operator: 'eq', render: 'datetime' })).toEqual(['Gamma 100% pure']);
      // A range without a comma is skipped.
      expect(await search({ field: 'publish_time', val: '2024-01-01 00:00:00', operator: 'RANGE', render: 'datetime' })).toEqual(ALL_TITLES);
    });

    it('refuses a date that is not a date under the datetime render', async () => {
      const response = await article('index', { query: { search: [{ field: 'publish_time', val: 'yesterday', operator: '=', render: 'datetime' }] } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Invalid search value for %s', ['Publish time']));
    });

    it('searches relation fields the schema declares', async () => {
      expect(await search({ field: 'category.name', val: 'ech', operator: 'LIKE' })).toEqual(['Beta']);
      expect(await search({ field: 'category.name', val: 'News', operator: '=' })).toEqual(['Alpha', 'Gamma 100% pure']);
      expect(await search({ field: 'category.id', val: String(categoryIds.Tech), operator: 'IN' })).toEqual(['Beta']);
      expect(await search({ field: 'demo_article.views', val: '10', operator: '=' })).toEqual(['Alpha']);
    });

    it.each([
      ['=', 'ten'],
      ['<>', 'ten'],
      ['>', '1 OR 1=1'],
      ['<=', ''],
      ['IN', '10,ten'],
      ['NOT IN', 'x'],
      ['RANGE', 'a,b'],
      ['NOT RANGE', '10,b'],
      ['RANGE', '1,2,3'],
    ])('refuses %s with %j on a numeric column', async (operator, val) => {
      const before = await snapshot();
      const response = await article('index', { query: { search: [{ field: 'views', val, operator }] } });
      expect(response.status).toBe(200);
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Invalid search value for %s', ['Views']));
      expect(await snapshot()).toEqual(before);
    });

    it('refuses non-numbers on a money column', async () => {
      const response = await article('index', { query: { search: [{ field: 'price', val: '12,50', operator: '=' }] } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Invalid search value for %s', ['Price']));
    });

    it.each([
      ['nope'],
      ['password'],
      ['category.nope'],
      ['nope.name'],
      ['category'],
      ['other_table.views'],
      ['a.b.c'],
    ])('refuses the unknown or hidden field %s', async (field) => {
      const response = await article('index', { query: { search: [{ field, val: '1', operator: '=' }] } });
      expect(response.status).toBe(200);
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Unknown field: %s', [field]));
    });
  });

  describe('index: initKey/initValue', () => {
    it('looks up by primary key with an array or a scalar, ignoring paging', async () => {
      const byArray = await list({ initValue: [ids.Alpha, ids['Gamma 100% pure']], limit: 1, page: 3 });
      expect(sorted(byArray.list.map((row) => row.title))).toEqual(['Alpha', 'Gamma 100% pure']);
      expect(byArray.total).toBe(2);
      const byScalar = await list({ initValue: String(ids.Beta), limit: 1, page: 2 });
      expect(byScalar.list.map((row) => row.title)).toEqual(['Beta']);
      const byCommaString = await list({ initValue: `${ids.Alpha},${ids.Beta}`, limit: 1 });
      expect(sorted(byCommaString.list.map((row) => row.title))).toEqual(['Alpha', 'Beta']);
    });

    it('looks up by another column with initKey', async () => {
      expect((await list({ initKey: 'title', initValue: 'Beta' })).list.map((row) => row.id)).toEqual([ids.Beta]);
      expect(sorted((await list({ initKey: 'title', initValue: ['Alpha', 'Beta'] })).list.map((row) => row.id))).toEqual(sorted([ids.Alpha, ids.Beta]));
    });

    it('ignores an empty initValue', async () => {
      expect((await list({ initKey: 'title', initValue: '' })).total).toBe(5);
    });

    it.each([['nope'], ['password'], ['title) OR (1=1']])('refuses initKey=%s', async (initKey) => {
      const before = await snapshot();
      const response = await article('index', { query: { initKey, initValue: '1' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Unknown field: %s', [initKey]));
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('add', () => {
    it('round-trips money and CSV', async () => {
      const id = await addArticle({ title: 'Money round trip', price: '12.5', tags: ['a', 'b c'] });
      const stored = await storedArticle(id);
      expect(Number(stored.price)).toBe(1250);
      expect(stored.tags).toBe('a,b c');
      const row = (await list({ initValue: [id] })).list[0];
      expect(row).toMatchObject({ price: '12.50', tags: ['a', 'b c'], status: 'draft', views: 0, category: null });
      const edit = await article<{ row: Row }>('edit', { query: { id } });
      expect(edit.data.row).toMatchObject({ price: '12.50', tags: ['a', 'b c'] });
    });

    it('answers the new row\'s key: two adds at once each get the key of their own row', async () => {
      const titles = ['Twin at once A', 'Twin at once B'];
      const answers = await Promise.all(titles.map((title) => article<{ id: number }>('add', { body: { title, views: 7 } })));
      expect(answers.map((answer) => [answer.code, answer.msg, Object.keys(answer.data)])).toEqual([[1, 'Added successfully!', ['id']], [1, 'Added successfully!', ['id']]]);
      for (const [index, answer] of answers.entries()) expect((await storedArticle(answer.data.id)).title).toBe(titles[index]);
    });

    it('fills defaults and timestamps, and ignores a read-only id', async () => {
      const response = await article('add', { body: { id: 987654, title: 'Defaults', create_time: 1 } });
      expect(response.code).toBe(1);
      const stored = (await db().selectFrom('demo_article').selectAll().where('title', '=', 'Defaults').executeTakeFirstOrThrow()) as Row;
      expect(Number(stored.id)).not.toBe(987654);
      expect(stored.status).toBe('draft');
      expect(Number(stored.create_time)).toBeGreaterThan(1_600_000_000);
      expect(Number(stored.price)).toBe(0);
      expect(stored.tags).toBe('');
    });

    it('refuses a missing required field, naming it', async () => {
      const before = await snapshot();
      const response = await article('add', { body: { views: 3 } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('%s cannot be empty', ['Title']));
      expect(response.data).toMatchObject({ field: 'title' });
      const empty = await article('add', { body: { title: '', views: 3 } });
      expect(empty.code).toBe(0);
      expect(empty.msg).toBe(t('%s cannot be empty', ['Title']));
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an invalid enum value and an invalid amount', async () => {
      const before = await snapshot();
      const status = await article('add', { body: { title: 'Bad status', status: 'deleted' } });
      expect(status.code).toBe(0);
      expect(status.data).toMatchObject({ field: 'status' });
      for (const price of ['abc', '1.234', '1e3', '']) {
        const response = await article('add', { body: { title: 'Bad price', price } });
        expect(response.code, price).toBe(0);
        expect(response.data, price).toMatchObject({ field: 'price' });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a duplicate of an x-unique field', async () => {
      const before = await snapshot();
      const response = await article('add', { body: { title: 'Alpha' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('%s already exists', ['Title']));
      expect(response.data).toEqual({ field: 'title', errorId: 'alreadyExists' });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses GET', async () => {
      const response = await article('add', { query: { title: 'Via GET' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Parameter error'));
    });
  });

  describe('edit', () => {
    it('GET answers {row} without write-only fields or relations', async () => {
      const response = await article<{ row: Row }>('edit', { query: { id: ids.Alpha } });
      expect(response.code).toBe(1);
      expect(response.data.row).toMatchObject({ id: ids.Alpha, title: 'Alpha', price: '12.50', tags: ['news', 'tech'], category_id: categoryIds.News });
      expect(response.data.row).not.toHaveProperty('password');
      expect(response.data.row).not.toHaveProperty('category');
    });

    it('POST changes only the fields sent; unknown and read-only keys are ignored', async () => {
      const id = await addArticle({ title: 'Partial', views: 5, price: '3.30', tags: ['p'], weigh: 3, category_id: categoryIds.Tech, publish_time: JAN_START });
      const before = await storedArticle(id);
      // `update_time` is the one the form loaded: a guard against stale saves (tests/api/stale-writes.test.ts), never written.
      const response = await article('edit', { body: { id, views: 77, create_time: 1, update_time: before.update_time, nope: 'x', category: { id: 1, name: 'Hacked' } } });
      expect(response.msg).toBe(t('Update successful!'));
      expect(response.code).toBe(1);
      const after = await storedArticle(id);
      expect(Number(after.views)).toBe(77);
      expect(after.create_time).toEqual(before.create_time);
      expect(Number(after.update_time)).toBeGreaterThan(Number(before.update_time));
      const { views: _v1, update_time: _u1, ...restBefore } = before;
      const { views: _v2, update_time: _u2, ...restAfter } = after;
      expect(restAfter).toEqual(restBefore);
      const category = await db().selectFrom('demo_category').select('name').where('id', '=', categoryIds.News).executeTakeFirstOrThrow();
      expect(category.name).toBe('News');
    });

    it('POST validates the fields sent', async () => {
      const before = await snapshot();
      const response = await article('edit', { body: { id: ids.Alpha, title: '' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('%s cannot be empty', ['Title']));
      const views = await article('edit', { body: { id: ids.Alpha, views: -1 } });
      expect(views.code).toBe(0);
      expect(views.data).toMatchObject({ field: 'views' });
      expect(await snapshot()).toEqual(before);
    });

    it('enforces x-transitions', async () => {
      const id = await addArticle({ title: 'Workflow' });
      const before = await storedArticle(id);
      const refused = await article('edit', { body: { id, status: 'archived', views: 9 } });
      expect(refused.code).toBe(0);
      expect(refused.msg).toBe(t('%s cannot change from "%s" to "%s"', ['Status', 'draft', 'archived']));
      expect(await storedArticle(id)).toEqual(before);

      for (const status of ['published', 'draft', 'published', 'archived']) {
        const response = await article('edit', { body: { id, status } });
        expect(response.msg, status).toBe(t('Update successful!'));
        expect((await storedArticle(id)).status).toBe(status);
      }
      for (const status of ['draft', 'published']) {
        const response = await article('edit', { body: { id, status } });
        expect(response.code).toBe(0);
        expect(response.msg).toBe(t('%s cannot change from "%s" to "%s"', ['Status', 'archived', status]));
      }
      expect((await storedArticle(id)).status).toBe('archived');
      // Staying in the same state is not a transition.
      expect((await article('edit', { body: { id, status: 'archived', views: 4 } })).code).toBe(1);
    });

    it('refuses to take the value of an x-unique field from another row', async () => {
      const before = await snapshot();
      const response = await article('edit', { body: { id: ids.Beta, title: 'Alpha' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('%s already exists', ['Title']));
      expect(await snapshot()).toEqual(before);
      // Keeping its own value is fine.
      expect((await article('edit', { body: { id: ids.Beta, title: 'Beta' } })).code).toBe(1);
    });

    it('answers Record not found for a missing id', async () => {
      const get = await article('edit', { query: { id: 99_999_999 } });
      expect(get.code).toBe(0);
      expect(get.msg).toBe(t('Record not found'));
      const before = await snapshot();
      const post = await article('edit', { body: { id: 99_999_999, views: 1 } });
      expect(post.code).toBe(0);
      expect(post.msg).toBe(t('Record not found'));
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('del', () => {
    it('deletes the rows in ids[] with DELETE', async () => {
      const first = await addArticle({ title: 'Delete me 1' });
      const second = await addArticle({ title: 'Delete me 2' });
      const response = await article('del', { method: 'DELETE', query: { ids: [first, second] } });
      expect(response.code).toBe(1);
      expect(await db().selectFrom('demo_article').select('id').where('id', 'in', [first, second]).execute()).toEqual([]);
    });

    it('refuses POST and a scalar ids; GET only tells the confirmation whether the rows are kept', async () => {
      const id = await addArticle({ title: 'Keep me' });
      const before = await snapshot();
      const asked = await article('del', { method: 'GET', query: { ids: [id] } });
      expect({ code: asked.code, data: asked.data }).toEqual({ code: 1, data: { recycle: false } });
      for (const request of [
        { method: 'POST' as const, query: { ids: [id] }, body: { ids: [id] } },
        { method: 'DELETE' as const, query: { ids: id } },
        { method: 'DELETE' as const, query: { ids: { a: id } } },
        { method: 'DELETE' as const },
      ]) {
        const response = await article('del', request);
        expect(response.status).toBe(200);
        expect(response.code, JSON.stringify(request)).toBe(0);
        expect(response.msg).toBe(t('Parameter error'));
      }
      expect(await snapshot()).toEqual(before);
    });

    it('answers No rows were deleted when nothing matches', async () => {
      const before = await snapshot();
      for (const list of [[99_999_999], ['abc'], ['1 OR 1=1']]) {
        const response = await article('del', { method: 'DELETE', query: { ids: list } });
        expect(response.code).toBe(0);
        expect(response.msg).toBe(t('No rows were deleted'));
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('sortable', () => {
    it('swaps the weigh of two rows', async () => {
      const a = await addArticle({ title: 'Sort A', weigh: 5 });
      const b = await addArticle({ title: 'Sort B', weigh: 7 });
      const response = await article('sortable', { body: { id: a, targetId: b } });
      expect(response.code).toBe(1);
      expect(response.msg).toBe('');
      expect(Number((await storedArticle(a)).weigh)).toBe(7);
      expect(Number((await storedArticle(b)).weigh)).toBe(5);
    });

    it('refuses equal weights, missing rows and GET', async () => {
      const a = await addArticle({ title: 'Sort equal A', weigh: 3 });
      const b = await addArticle({ title: 'Sort equal B', weigh: 3 });
      const before = await snapshot();
      const equal = await article('sortable', { body: { id: a, targetId: b } });
      expect(equal.code).toBe(0);
      expect(equal.msg).toBe(t('Invalid sort, because these two target weight is equal.'));
      const missing = await article('sortable', { body: { id: a, targetId: 99_999_999 } });
      expect(missing.code).toBe(0);
      expect(missing.msg).toBe(t('Record not found'));
      const get = await article('sortable', { query: { id: a, targetId: ids.Alpha } });
      expect(get.code).toBe(0);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('hostile input: code 0 with a clear message, never HTTP 500, nothing changes', () => {
    const cases: [string, Record<string, unknown>, (t: (key: string, params?: (string | number)[]) => string) => string][] = [
      ['search field 1=1', { search: [{ field: '1=1', val: '1', operator: '=' }] }, (t) => t('Unknown field: %s', ['1=1'])],
      ['search field with SQL', { search: [{ field: 'title) OR (1=1', val: '1', operator: '=' }] }, (t) => t('Unknown field: %s', ['title) OR (1=1'])],
      ['search field with a quote', { search: [{ field: "title' --", val: '1', operator: 'LIKE' }] }, (t) => t('Unknown field: %s', ["title' --"])],
      ['search val as an object', { search: [{ field: 'title', val: { a: 'b' }, operator: 'LIKE' }] }, (t) => t('Invalid search value for %s', ['Title'])],
      ['search val as an object with =', { search: [{ field: 'title', val: { a: 'b' }, operator: '=' }] }, (t) => t('Invalid search value for %s', ['Title'])],
      ['search val as an object with RANGE', { search: [{ field: 'views', val: { a: 'b' }, operator: 'RANGE' }] }, (t) => t('Invalid search value for %s', ['Views'])],
      ['search as a string', { search: 'x' }, (t) => t('Parameter error')],
      ['search entry as a string', { search: ['x'] }, (t) => t('Parameter error')],
      ['operator as an object', { search: [{ field: 'title', val: 'a', operator: { a: 'b' } }] }, (t) => t('Parameter error')],
      ['quickSearch as an array', { quickSearch: ['x'] }, (t) => t('Quick search must be a short text')],
      ['quickSearch of 300 characters', { quickSearch: 'x'.repeat(300) }, (t) => t('Quick search must be a short text')],
      ['limit=-1', { limit: '-1' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['limit=abc', { limit: 'abc' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['limit=100000', { limit: '100000' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['limit=1.5', { limit: '1.5' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['limit as an array', { limit: ['5'] }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['page=0', { page: '0' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['page=-3', { page: '-3' }, (t) => t('page and limit must be whole numbers; limit at most %d', [1000])],
      ['initKey=password', { initKey: 'password', initValue: 'hunter2' }, (t) => t('Unknown field: %s', ['password'])],
      ['initKey with SQL', { initKey: 'id) OR (1=1', initValue: '1' }, (t) => t('Unknown field: %s', ['id) OR (1=1'])],
      ['initValue as an object', { initValue: { a: '1' } }, (t) => t('Invalid search value for %s', ['ID'])],
    ];

    it.each(cases)('index with %s', async (_label, query, message) => {
      const before = await snapshot();
      const response = await article('index', { query });
      expect(response.status).toBe(200);
      expect(response.code).toBe(0);
      expect(response.msg).toBe(message(t));
      expect(await snapshot()).toEqual(before);
    });

    it('an order with SQL or as an array falls back to the default order (docs/wire-contract.md#index), touching nothing', async () => {
      const before = await snapshot();
      for (const order of ['id;DROP TABLE demo_article', ['x'], 'title desc; DELETE FROM demo_article']) {
        const response = await article<ListData>('index', { query: { order } });
        expect(response.status).toBe(200);
        expect(response.code).toBe(1);
        expect(response.data.total).toBe(before.articles.length);
      }
      expect(await snapshot()).toEqual(before);
    });

    const bodies: [string, 'add' | 'edit', unknown, (t: (key: string, params?: (string | number)[]) => string) => string][] = [
      ['title as an object', 'add', { title: { a: 1 } }, (t) => t('%s must be text', ['Title'])],
      ['views as text', 'add', { title: 'Typed', views: 'ten' }, (t) => t('%s must be an integer', ['Views'])],
      ['tags as a string', 'add', { title: 'Typed', tags: 'a' }, (t) => t('%s must be a list', ['Tags'])],
      ['tags with an object inside', 'add', { title: 'Typed', tags: [{ a: 1 }] }, (t) => t('%s must be text', ['Tags'])],
      ['an array body', 'add', [1, 2], (t) => t('Parameter %s can not be empty', [''])],
      ['a JSON string body', 'add', '"string"', (t) => t('Parameter %s can not be empty', [''])],
      ['invalid JSON', 'add', '{bad', (t) => t('The request body is not valid JSON')],
      ['an empty object', 'add', {}, (t) => t('Parameter %s can not be empty', [''])],
      ['views as text on edit', 'edit', { id: 1, views: 'ten' }, (t) => t('%s must be an integer', ['Views'])],
      ['an array body on edit', 'edit', [1, 2], (t) => t('Parameter %s can not be empty', ['id'])],
      ['invalid JSON on edit', 'edit', '{bad', (t) => t('The request body is not valid JSON')],
      ['id as an object', 'edit', { id: { a: 1 }, views: 1 }, (t) => t('Parameter %s can not be empty', ['id'])],
      ['id as an array', 'edit', { id: [1], views: 1 }, (t) => t('Parameter %s can not be empty', ['id'])],
      ['id as text', 'edit', { id: 'abc', views: 1 }, (t) => t('Record not found')],
      ['id with SQL', 'edit', { id: '1 OR 1=1', views: 1 }, (t) => t('Record not found')],
      ['id as a fraction', 'edit', { id: 1.5, views: 1 }, (t) => t('Record not found')],
      ['id as true', 'edit', { id: true, views: 1 }, (t) => t('Record not found')],
    ];

    it.each(bodies)('%s (%s)', async (_label, action, body, message) => {
      const before = await snapshot();
      // `id: 1` stands for a real row: the first article.
      const resolved = body && typeof body === 'object' && !Array.isArray(body) && (body as Row).id === 1 ? { ...(body as Row), id: ids.Alpha } : body;
      const response = await article(action, { body: resolved });
      expect(response.status).toBe(200);
      expect(response.code).toBe(0);
      expect(response.msg).toBe(message(t));
      expect(await snapshot()).toEqual(before);
    });
  });
});
