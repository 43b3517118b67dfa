import type { Action } from '../../src/server/app-context.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, copyProject, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A generate swaps the running definitions as a whole; a request that started before the swap finishes on
 * the definitions it started with (its answer has the old fields), while requests after it see the new
 * ones — and the generate does not wait for the slow request. Then an edit in the shape the back office's
 * designer posts (`renamedFrom`, `options` with labels and colours).
 */

type Row = Record<string, unknown>;

/** A field as the back office's designer posts it. */
function field(name: string, designType: string, values: Row = {}): Row {
  return {
    name, designType, type: 'varchar', length: 255, default: '', defaultType: 'NONE', null: false, primaryKey: false, autoIncrement: false,
    comment: name, label: { 'zh-cn': name, en: name }, table: {}, form: { validator: [] }, ...values,
  };
}

const V1 = [
  field('id', 'pk', { primaryKey: true, autoIncrement: true }),
  field('title', 'string', { form: { validator: ['required'] } }),
];
const V2 = [...V1, field('stock', 'number', { default: '7', defaultType: 'INPUT' })];

function table(formFields: string[]): Row {
  return { name: 'test_shelf', comment: 'Shelves', title: { 'zh-cn': '货架', en: 'Shelves' }, quickSearchField: ['title'], defaultSortField: 'id', defaultSortType: 'desc', formFields, columnFields: ['id', ...formFields], designChange: [], rebuild: 'No' };
}

describe.each(DATABASES)('a generate while a request is in flight on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    dir = copyProject('chidao-swap-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes a slow list on the old definitions while the new ones serve the requests after the swap', async () => {
    const first = await server.admin('crud.Crud/generate', { token, body: { type: 'create', table: table(['title']), fields: V1 } });
    expect(first.code, first.msg).toBe(1);
    expect((await server.admin('test.Shelf/add', { token, body: { title: 'Oak' } })).code).toBe(1);

    // The list of the running module waits at a gate before it reads anything: a slow request.
    const app = server.server.app;
    const controller = app.controllers.find('admin', 'test.Shelf');
    const list = controller?.actions.index as Action;
    let arrived: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.controllers.register({
      ...(controller as NonNullable<typeof controller>),
      actions: { ...controller?.actions, index: async (ctx) => { arrived(); await gate; return list(ctx); } },
    });
    const slow = server.admin<{ list: Row[] }>('test.Shelf/index', { token });
    await inside;

    // The generate adds a field and answers while the slow list is still waiting.
    const second = await server.admin('crud.Crud/generate', { token, body: { type: 'log', table: table(['title', 'stock']), fields: V2 } });
    expect(second.code, second.msg).toBe(1);
    const after = await server.admin<{ list: Row[] }>('test.Shelf/index', { token });
    expect(after.data.list).toEqual([expect.objectContaining({ title: 'Oak', stock: 7 })]);

    release();
    const before = await slow;
    expect(before.code, before.msg).toBe(1);
    expect(before.data.list).toHaveLength(1);
    expect(before.data.list[0]).toMatchObject({ title: 'Oak' });
    expect(before.data.list[0]).not.toHaveProperty('stock');
  });

  it('takes the designer’s own keys: a rename by `renamedFrom` keeps the data, enum choices carry both labels and a colour', async () => {
    const fields = [
      ...V2.map((item) => (item.name === 'title' ? { ...item, name: 'label', renamedFrom: 'title' } : item)),
      field('kind', 'select', { label: { 'zh-cn': '种类', en: 'Kind' }, default: 'wood', defaultType: 'INPUT', options: { wood: { 'zh-cn': '木', en: 'Wood', color: 'success' }, steel: { 'zh-cn': '钢', en: 'Steel' } } }),
    ];
    const edited = await server.admin('crud.Crud/generate', { token, body: { type: 'log', table: table(['label', 'stock', 'kind']), fields } });
    expect(edited.code, edited.msg).toBe(1);
    const rows = await server.admin<{ list: Row[] }>('test.Shelf/index', { token });
    expect(rows.data.list).toEqual([expect.objectContaining({ label: 'Oak', stock: 7, kind: 'wood' })]);
    const kind = server.server.app.resources.get('crud/test_shelf')?.fields.find((item) => item.name === 'kind');
    expect(kind?.enum).toEqual(['wood', 'steel']);
    expect(kind?.ui.options).toEqual({ wood: { 'zh-cn': '木', en: 'Wood' }, steel: { 'zh-cn': '钢', en: 'Steel' } });
    expect(kind?.ui.colors).toEqual({ wood: 'success' });
    expect(kind?.title).toEqual({ 'zh-cn': '种类', en: 'Kind' });
  });
});
