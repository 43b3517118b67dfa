// @vitest-environment jsdom
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { HttpError } from 'ra-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { definitionByMenuName, definitionById } from '../../../src/client/schemas.js';
import { createHttpClient } from '../../../src/client/http/http-client.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { buildListQuery, buildSearch, createDataProvider, formatDateTimeValue, type ResourceEndpoint } from '../../../src/client/providers/data-provider.js';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { stringifyQuery } from '../../../src/contract/query-string.js';

const API = '/chidaoadminstator.php';

interface Call {
  method: string;
  path: string;
  /** the raw query string, without `?` */
  query: string;
  body: unknown;
}

const calls: Call[] = [];
/** answer by `METHOD path` (without the API prefix); default an empty success */
let answers: Record<string, unknown> = {};

const server = setupServer(
  http.all(`${API}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(API.length);
    const text = request.method === 'GET' ? '' : await request.text();
    calls.push({ method: request.method, path, query: url.search.slice(1), body: text ? JSON.parse(text) : undefined });
    const answer = answers[`${request.method} ${path}`];
    if (answer instanceof Response) return answer;
    if (typeof answer === 'function') return answer(calls.length) as Response;
    return HttpResponse.json({ code: 1, msg: '', time: 0, data: answer ?? null });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  calls.length = 0;
  answers = {};
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, token: 'tok', refresh_token: '', super: true }));
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => server.close());

const admin = definitionById('system/admin') as ResourceDefinition;
/** a table keyed by `uid`, to check the synthetic `id` */
const keyed: ResourceDefinition = { ...admin, id: 'test/keyed', primaryKey: 'uid', fields: admin.fields.filter((field) => field.name !== 'id') };

function resolve(resource: string): ResourceEndpoint {
  if (resource === 'keyed') return { url: '/admin/test.Keyed/', definition: keyed };
  if (resource === 'bare') return { url: '/admin/test.Bare' };
  const definition = definitionByMenuName(resource);
  if (!definition?.controller) throw new Error(`unknown resource ${resource}`);
  return { url: `/admin/${definition.controller}/`, definition };
}

function setup() {
  const notify = vi.fn();
  const client = createHttpClient({ navigate: vi.fn(), notify, translate: createTranslate(enHttp), currentPath: () => '/chidaoadminstator/auth/admin' });
  return { provider: createDataProvider(client, resolve), notify };
}

const q = (params: Record<string, unknown>) => stringifyQuery(params);

describe('getList query string', () => {
  it('sends page, limit, order and quickSearch', async () => {
    answers['GET /auth.Admin/index'] = { list: [{ id: 3, username: 'a' }], total: 21, remark: 'hi' };
    const { provider } = setup();
    const result = await provider.getList('auth/admin', { pagination: { page: 2, perPage: 20 }, sort: { field: 'username', order: 'ASC' }, filter: { q: 'tom' } });
    expect(calls).toEqual([{ method: 'GET', path: '/auth.Admin/index', query: 'page=2&limit=20&order=username,asc&quickSearch=tom', body: undefined }]);
    expect(result).toEqual({ data: [{ id: 3, username: 'a' }], total: 21, meta: { remark: 'hi' } });
  });

  it('builds search[i][field|val|operator|render] for every filter kind', async () => {
    answers['GET /auth.Admin/index'] = { list: [], total: 0, remark: '' };
    const { provider } = setup();
    await provider.getList('auth/admin', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'DESC' },
      filter: {
        status: '1',
        'username@LIKE': 'ad min',
        'create_time@RANGE': ['2024-01-01', '2024-01-31'],
        'update_time@RANGE': [null, '2024-02-01 08:30:00'],
        'last_login_time@NULL': true,
        'nickname@NULL': false,
        'id@egt': 5,
        'id@NOT IN': [7, 8],
        group_arr: [1, 2],
        group: { name: 'Ops' },
        mobile: '',
        email: undefined,
      },
    });
    expect(calls[0].query).toBe(
      [
        'page=1&limit=10&order=id,desc',
        'search[0][field]=status&search[0][val]=1&search[0][operator]=%3D',
        'search[1][field]=username&search[1][val]=ad+min&search[1][operator]=LIKE',
        'search[2][field]=create_time&search[2][val]=2024-01-01+00:00:00,2024-01-31+23:59:59&search[2][operator]=RANGE&search[2][render]=datetime',
        'search[3][field]=update_time&search[3][val]=,2024-02-01+08:30:00&search[3][operator]=RANGE&search[3][render]=datetime',
        'search[4][field]=last_login_time&search[4][val]=true&search[4][operator]=NULL&search[4][render]=datetime',
        'search[5][field]=id&search[5][val]=5&search[5][operator]=%3E%3D',
        'search[6][field]=id&search[6][val][]=7&search[6][val][]=8&search[6][operator]=NOT+IN',
        'search[7][field]=group_arr&search[7][val][]=1&search[7][val][]=2&search[7][operator]=IN',
        'search[8][field]=group.name&search[8][val]=Ops&search[8][operator]=%3D',
      ].join('&'),
    );
  });

  it('formats datetime values to local YYYY-MM-DD HH:mm:ss and flags them', () => {
    const local = new Date(2024, 5, 1, 10, 0, 5);
    expect(buildSearch({ 'create_time@RANGE': [local, null] }, admin)).toEqual([
      { field: 'create_time', val: '2024-06-01 10:00:05,', operator: 'RANGE', render: 'datetime' },
    ]);
    expect(buildSearch({ create_time: '2024-06-01T10:00' }, admin)).toEqual([{ field: 'create_time', val: '2024-06-01 10:00:00', operator: '=', render: 'datetime' }]);
    expect(formatDateTimeValue(Math.floor(local.getTime() / 1000))).toBe('2024-06-01 10:00:05');
    expect(formatDateTimeValue(local.getTime())).toBe('2024-06-01 10:00:05');
    expect(formatDateTimeValue('2024-06-01', 'end')).toBe('2024-06-01 23:59:59');
    expect(formatDateTimeValue('not a date')).toBe('not a date');
    // Empty ranges filter nothing; without a definition nothing is a datetime.
    expect(buildSearch({ 'create_time@RANGE': ['', null], 'x@RANGE': '1,5' })).toEqual([{ field: 'x', val: '1,5', operator: 'RANGE' }]);
  });

  it('adds meta.params and select mode, and leaves out what is not set', () => {
    expect(q(buildListQuery({ filter: {}, meta: { select: true, params: { isTree: false } } }))).toBe('select=true&isTree=false');
    expect(buildListQuery({ pagination: { page: 1, perPage: 10 }, sort: { field: '', order: 'ASC' }, filter: { q: '' } })).toEqual({ page: 1, limit: 10 });
  });

  it('gives rows of a table keyed otherwise an id, and sorts by its key', async () => {
    answers['GET /test.Keyed/index'] = { list: [{ uid: 'a' }, { uid: 'b' }], total: 2, remark: '' };
    const { provider } = setup();
    const result = await provider.getList('keyed', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(calls[0].query).toBe('page=1&limit=10&order=uid,asc');
    expect(result.data).toEqual([
      { uid: 'a', id: 'a' },
      { uid: 'b', id: 'b' },
    ]);
  });

  it('reads tree lists (no total) as one page, children included', async () => {
    answers['GET /auth.Rule/index'] = { list: [{ id: 1, title: 'Auth', children: [{ id: 2, title: 'Admins' }] }, { id: 3, title: 'Dashboard' }], remark: '' };
    const { provider } = setup();
    const result = await provider.getList('auth/rule', { pagination: { page: 1, perPage: 10 }, sort: { field: 'weigh', order: 'DESC' }, filter: {} });
    expect(result.total).toBe(2);
    expect(result.data[0].children).toEqual([{ id: 2, title: 'Admins' }]);
  });

  it('reads select options (remote select mode)', async () => {
    answers['GET /auth.Rule/index'] = { options: [{ id: 1, title: 'Auth' }, { id: 2, title: '    └Admins' }] };
    const { provider } = setup();
    const result = await provider.getList('auth/rule', { filter: { q: 'a' }, meta: { select: true } });
    expect(calls[0].query).toBe('quickSearch=a&select=true');
    expect(result).toMatchObject({ total: 2, data: [{ id: 1 }, { id: 2 }] });
  });
});

describe('the other methods', () => {
  it('getOne reads GET edit?<pk>=id', async () => {
    answers['GET /auth.Admin/edit'] = { row: { id: 5, username: 'x' } };
    answers['GET /test.Keyed/edit'] = { row: { uid: 'k' } };
    const { provider } = setup();
    expect(await provider.getOne('auth/admin', { id: 5 })).toEqual({ data: { id: 5, username: 'x' } });
    expect(await provider.getOne('keyed', { id: 'k' })).toEqual({ data: { uid: 'k', id: 'k' } });
    expect(calls.map((call) => `${call.method} ${call.path}?${call.query}`)).toEqual(['GET /auth.Admin/edit?id=5', 'GET /test.Keyed/edit?uid=k']);
  });

  it('getMany asks index for initValue[]', async () => {
    answers['GET /auth.Admin/index'] = { list: [{ id: 1 }, { id: 2 }], total: 2, remark: '' };
    const { provider } = setup();
    expect(await provider.getMany('auth/admin', { ids: [1, 2] })).toEqual({ data: [{ id: 1 }, { id: 2 }] });
    expect(await provider.getMany('auth/admin', { ids: [] })).toEqual({ data: [] });
    expect(calls.map((call) => call.query)).toEqual(['initValue[]=1&initValue[]=2']);
  });

  it('getManyReference searches target = id, with the filters, paging and order', async () => {
    answers['GET /user.MoneyLog/index'] = { list: [{ id: 9 }], total: 1, remark: '' };
    const { provider } = setup();
    const result = await provider.getManyReference('user/moneyLog', {
      target: 'user_id',
      id: 4,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'id', order: 'DESC' },
      filter: { 'memo@LIKE': 'bonus' },
    });
    expect(result).toEqual({ data: [{ id: 9 }], total: 1, meta: { remark: '' } });
    expect(calls[0].query).toBe(
      'page=1&limit=5&order=id,desc&search[0][field]=user_id&search[0][val]=4&search[0][operator]=%3D&search[1][field]=memo&search[1][val]=bonus&search[1][operator]=LIKE',
    );
  });

  it('create posts add, then reads the row by the key add answered', async () => {
    answers['POST /auth.Admin/add'] = { id: 12 };
    answers['GET /auth.Admin/edit'] = { row: { id: 12, username: 'newbie', nickname: 'New' } };
    const { provider, notify } = setup();
    const data = { username: 'newbie', nickname: 'New', password: 'secret12', group_arr: [2] };
    const result = await provider.create('auth/admin', { data });
    expect(result).toEqual({ data: { id: 12, username: 'newbie', nickname: 'New' } });
    expect(calls.map((call) => [call.method, call.path, call.query])).toEqual([
      ['POST', '/auth.Admin/add', ''],
      ['GET', '/auth.Admin/edit', 'id=12'],
    ]);
    expect(calls[0].body).toEqual(data);
    expect(notify).not.toHaveBeenCalled();
  });

  it('create keys the row by a primary key of another name', async () => {
    answers['POST /test.Keyed/add'] = { uid: 'u-7' };
    answers['GET /test.Keyed/edit'] = { row: { uid: 'u-7', username: 'keyed' } };
    const { provider } = setup();
    const result = await provider.create('keyed', { data: { username: 'keyed' } });
    expect(result.data).toEqual({ id: 'u-7', uid: 'u-7', username: 'keyed' });
    expect(calls[1].query).toBe('uid=u-7');
  });

  it('create without the right to read the new row gives it as submitted, with the key add answered', async () => {
    answers['POST /auth.Admin/add'] = { id: 13 };
    answers['GET /auth.Admin/edit'] = HttpResponse.json({ code: 401, msg: 'You have no permission to operate', time: 0, data: [] });
    const { provider, notify } = setup();
    const result = await provider.create('auth/admin', { data: { username: 'x1' } });
    expect(result.data).toEqual({ username: 'x1', id: 13 });
    expect(notify).not.toHaveBeenCalled();
  });

  it('update posts the full record with its key and reads nothing back (the saving screen refetches its list)', async () => {
    const { provider } = setup();
    const result = await provider.update('auth/admin', { id: 5, data: { id: 5, nickname: 'A&B', group_arr: [1] }, previousData: { id: 5, nickname: 'A', status: '1' } });
    expect(calls.map((call) => [call.method, call.path, call.query, call.body])).toEqual([['POST', '/auth.Admin/edit', '', { id: 5, nickname: 'A&B', group_arr: [1] }]]);
    expect(result.data).toEqual({ id: 5, nickname: 'A&B', group_arr: [1], status: '1' });
  });

  it('update drops tree children from the body', async () => {
    answers['GET /auth.Rule/edit'] = { row: { id: 1 } };
    const { provider } = setup();
    await provider.update('auth/rule', { id: 1, data: { id: 1, title: 'x', children: [{ id: 2 }] }, previousData: { id: 1 } });
    expect(calls[0].body).toEqual({ id: 1, title: 'x' });
  });

  it('updateMany posts one edit per id', async () => {
    const { provider } = setup();
    expect(await provider.updateMany('auth/admin', { ids: [3, 4], data: { status: '0' } })).toEqual({ data: [3, 4] });
    expect(calls.map((call) => call.body)).toEqual([
      { status: '0', id: 3 },
      { status: '0', id: 4 },
    ]);
    expect(calls.every((call) => call.method === 'POST' && call.path === '/auth.Admin/edit')).toBe(true);
  });

  it('delete and deleteMany send DELETE del?ids[]=', async () => {
    const { provider } = setup();
    expect(await provider.delete('auth/admin', { id: 5, previousData: { id: 5, username: 'x' } })).toEqual({ data: { id: 5, username: 'x' } });
    expect(await provider.deleteMany('auth/admin', { ids: [5, 6] })).toEqual({ data: [5, 6] });
    expect(calls.map((call) => `${call.method} ${call.path}?${call.query}`)).toEqual(['DELETE /auth.Admin/del?ids[]=5', 'DELETE /auth.Admin/del?ids[]=5&ids[]=6']);
  });

  it('sortable posts {id, targetId}', async () => {
    const { provider } = setup();
    expect(await provider.sortable('auth/rule', { id: 3, targetId: 9 })).toEqual({ data: null });
    expect(calls).toEqual([{ method: 'POST', path: '/auth.Rule/sortable', query: '', body: { id: 3, targetId: 9 } }]);
  });

  it('action posts its body to the resource endpoint, or GETs with a query, and resolves to data', async () => {
    answers['GET /security.DataRecycleLog/info'] = { row: { id: 4, data: { username: 'gone' } } };
    const { provider } = setup();
    expect(await provider.action('security/dataRecycleLog', 'restore', { data: { ids: [4, 5] } })).toEqual({ data: null });
    expect(await provider.action('security/dataRecycleLog', 'info', { params: { id: 4 } })).toEqual({ data: { row: { id: 4, data: { username: 'gone' } } } });
    expect(calls).toEqual([
      { method: 'POST', path: '/security.DataRecycleLog/restore', query: '', body: { ids: [4, 5] } },
      { method: 'GET', path: '/security.DataRecycleLog/info', query: 'id=4', body: undefined },
    ]);
  });

  it('action rejects with the HttpError of a code 0 answer, without a toast', async () => {
    answers['POST /security.SensitiveDataLog/rollback'] = HttpResponse.json({ code: 0, msg: 'No rows were rollback', time: 0, data: null });
    const { provider, notify } = setup();
    const error = await provider.action('security/sensitiveDataLog', 'rollback', { data: { ids: [1] } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('No rows were rollback');
    expect(calls).toEqual([{ method: 'POST', path: '/security.SensitiveDataLog/rollback', query: '', body: { ids: [1] } }]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('accepts a controller URL without the trailing slash', async () => {
    answers['GET /test.Bare/index'] = { list: [], total: 0, remark: '' };
    const { provider } = setup();
    await provider.getList('bare', { filter: {} });
    expect(calls[0].path).toBe('/test.Bare/index');
  });

  it('rejects with the HttpError and leaves the toast to react-admin', async () => {
    answers['POST /auth.Admin/add'] = HttpResponse.json({ code: 0, msg: 'Username already exists', time: 0, data: null });
    const { provider, notify } = setup();
    const error = await provider.create('auth/admin', { data: { username: 'admin' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('Username already exists');
    expect(notify).not.toHaveBeenCalled();
  });
});
