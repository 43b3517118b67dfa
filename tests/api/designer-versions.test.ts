import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, copyProject, startTestServer, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { designOf, newField, requestBodyOf, scratchDesign, type DesignDraft } from '../../src/client/admin/pages/crud/design-model.js';
import { storedMessage } from '../../src/server/stored-text.js';

/**
 * The CRUD designer's leftovers (issue 40, item 16), through the calls its screen makes with the bodies
 * its working copy posts: a new enum or date field is a list filter from the start; the menu directory
 * made for the table's prefix carries the titles the operator typed, in both languages; the versions read
 * as a list of changes in the reader's language, and restoring one makes a new version equal to it (the
 * history kept, a data-losing step held back as in any change); one delete writes one admin-log row, even
 * when the first try met an expired token.
 */

type Row = Record<string, unknown>;

interface Version {
  id: number;
  version: number;
  action: string;
  definition: Row | null;
  changes: string[];
  logId: number | null;
}

/** `shop_goods`: a name, a kind (enum) and a release date, under a new directory `shop`. */
function goodsDesign(): DesignDraft {
  const design = scratchDesign();
  design.table = { ...design.table, name: 'shop_goods', title: { 'zh-cn': '商品', en: 'Goods' }, menuDirTitle: { 'zh-cn': '商城', en: 'Shop' } };
  const name = newField('string', 'name', { 'zh-cn': '名称', en: 'Name' });
  const kind = { ...newField('select', 'kind', { 'zh-cn': '类别', en: 'Kind' }), options: [{ value: 'book', 'zh-cn': '图书', en: 'Book', color: '' as const }, { value: 'toy', 'zh-cn': '玩具', en: 'Toy', color: '' as const }] };
  const released = newField('date', 'released', { 'zh-cn': '上架日期', en: 'Released' });
  design.fields.splice(1, 0, name, kind, released);
  return design;
}

describe.each(DATABASES)('the designer’s filters, menu directory, versions and log on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;
  const crud = <T = unknown>(action: string, request: { body?: unknown; query?: Row; lang?: 'en' | 'zh-cn' } = {}) => server.admin<T>(`crud.Crud/${action}`, { token, ...request });
  const versions = async (lang: 'en' | 'zh-cn' = 'en') => (await crud<{ list: Version[] }>('history', { query: { table: 'shop_goods' }, lang })).data.list;

  beforeAll(async () => {
    dir = copyProject('chidao-versions-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a new enum and a new date a filter of the list, and titles the new menu directory as typed', async () => {
    const generated = await crud('generate', { body: requestBodyOf(goodsDesign()) });
    expect(generated.code, generated.msg).toBe(1);
    for (const row of [{ name: 'Dune', kind: 'book', released: '2026-01-10' }, { name: 'Yo-yo', kind: 'toy', released: '2026-03-02' }]) {
      const added = await server.admin('shop.Goods/add', { token, body: row });
      expect(added.code, added.msg).toBe(1);
    }
    // the list filters by both without any setting in the designer
    const definition = server.server.app.resources.get('crud/shop_goods');
    expect(definition?.fields.filter((field) => field.ui.search).map((field) => [field.name, field.ui.search])).toEqual([['id', 'RANGE'], ['name', 'LIKE'], ['kind', '='], ['released', 'RANGE'], ['create_time', 'RANGE'], ['update_time', 'RANGE']]);
    const byKind = await server.admin<{ list: Row[] }>('shop.Goods/index', { token, query: { 'search[0][field]': 'kind', 'search[0][val]': 'toy', 'search[0][operator]': '=' } });
    expect(byKind.data.list.map((row) => row.name)).toEqual(['Yo-yo']);
    const byDate = await server.admin<{ list: Row[] }>('shop.Goods/index', { token, query: { 'search[0][field]': 'released', 'search[0][val]': '2026-01-01,2026-01-31', 'search[0][operator]': 'RANGE' } });
    expect(byDate.data.list.map((row) => row.name)).toEqual(['Dune']);

    // the directory `shop` is titled 商城 (the rule, in the site's language) and Shop (its schema's English the menu shows), not its rule name
    const index = (await server.admin<{ menus: { name: string; title: string; children?: { name: string }[] }[]; definitions: { id: string; menu?: Row }[] }>('Index/index', { token })).data;
    const directory = index.menus.find((menu) => menu.name === 'shop');
    expect(directory?.title).toBe('商城');
    expect(directory?.children?.map((menu) => menu.name)).toEqual(['shop/goods']);
    expect(index.definitions.find((item) => item.id === 'crud/shop_goods')?.menu).toMatchObject({ parent: 'shop', parentDirectory: { title: { 'zh-cn': '商城', en: 'Shop' } } });
    // a design that types no directory title still gets one: its prefix
    const plain = scratchDesign();
    plain.table = { ...plain.table, name: 'club_member', title: { 'zh-cn': '会员', en: 'Members' } };
    const made = await crud<{ schema: Row }>('preview', { body: requestBodyOf(plain) });
    expect(made.data.schema['x-menu']).toMatchObject({ parent: { name: 'club', title: 'club' } });
  });

  it('lists each version’s changes in the reader’s language and restores an earlier one as a new version, data loss held back', async () => {
    // version 2: the date goes, a note comes, the kind becomes required
    const logs = (await server.admin<{ list: Row[] }>('crud.Log/index', { token })).data.list;
    const start = await crud<{ table: Row; fields: Row[] }>('logStart', { body: { id: logs[0].id } });
    const edited = designOf('log', start.data.table, start.data.fields, true);
    edited.fields = edited.fields.filter((field) => field.name !== 'released').map((field) => (field.name === 'kind' ? { ...field, required: true } : field));
    edited.fields.splice(3, 0, newField('textarea', 'note', { 'zh-cn': '备注', en: 'Note' }));
    const changed = await crud('generate', { body: requestBodyOf(edited, true) });
    expect(changed.code, changed.msg).toBe(1);

    const english = await versions('en');
    expect(english.map((entry) => [entry.version, entry.action])).toEqual([[2, 'update'], [1, 'create']]);
    expect(english[1].changes).toEqual(['The module was created with 6 fields']);
    expect(english[0].changes).toEqual(['Field Released (released) was removed', 'Field Kind (kind) is now required', 'Field Note (note) was added']);
    expect((await versions('zh-cn'))[0].changes).toEqual(['删除了字段“上架日期 (released)”', '字段“类别 (kind)”改为必填', '新增了字段“备注 (note)”']);
    // between any two, too; no JSON, no schema keyword
    const between = await crud<{ changes: string[] }>('history', { query: { table: 'shop_goods', from: 1, to: 2 } });
    expect(between.data.changes).toEqual(english[0].changes);
    expect(JSON.stringify(english.map((entry) => entry.changes))).not.toMatch(/[{}]|x-|properties|"type"/);

    // restore version 1: its design from the log, through generate as any change; the note would be lost
    const first = english[1];
    expect(first.logId).toEqual(expect.any(Number));
    const restored = await crud<{ table: Row; fields: Row[] }>('logStart', { body: { id: first.logId } });
    const body = requestBodyOf(designOf('log', restored.data.table, restored.data.fields, true));
    const held = await crud<{ destructive: string[] }>('generate', { body, lang: 'zh-cn' });
    expect(held.code).toBe(0);
    expect(held.msg).toMatch(/^此修改会丢失数据，确认后才会执行：.*备注 \(note\)/);
    expect((await versions()).map((entry) => entry.version)).toEqual([2, 1]);
    const applied = await crud('generate', { body: { ...body, confirm: 1 } });
    expect(applied.code, applied.msg).toBe(1);
    const after = await versions();
    expect(after.map((entry) => [entry.version, entry.action])).toEqual([[3, 'update'], [2, 'update'], [1, 'create']]);
    // the new version is the old one again, and says so in words
    expect(after[0].definition).toEqual(first.definition);
    expect(after[0].changes).toEqual(['Field Note (note) was removed', 'Field Kind (kind) is no longer required', 'Field Released (released) was added']);
    expect(server.server.app.resources.get('crud/shop_goods')?.fields.map((field) => field.name)).toEqual(['id', 'name', 'kind', 'released', 'create_time', 'update_time']);
    // its log entry opens the restored design, and the running version offers no restore of itself
    expect(after[0].logId).not.toBe(first.logId);
    expect((await crud<{ fields: Row[] }>('logStart', { body: { id: after[0].logId } })).data.fields.map((field) => field.name)).toEqual(['id', 'name', 'kind', 'released', 'create_time', 'update_time']);
  });

  it('writes one admin-log row for one delete, though its first try met an expired token', async () => {
    const db = dynamicDb(server.server.app.db);
    const deletes = async () => (await db.selectFrom('admin_log').select(['username', 'title']).where('url', 'like', '%crud.Crud/delete%').execute()) as Row[];
    expect(await deletes()).toEqual([]);
    const logId = (await server.admin<{ list: Row[] }>('crud.Log/index', { token })).data.list[0].id;
    // the back office's token expired while the dialog was open: refused with 409, nothing done, nothing logged
    const result = await db.updateTable('token').set({ expire_time: Math.floor(Date.now() / 1000) - 10 }).where('token', '=', server.server.app.tokens.digest(token)).executeTakeFirst();
    expect(Number(result.numUpdatedRows)).toBe(1);
    const expired = await crud('delete', { body: { id: logId } });
    expect(expired.code).toBe(409);
    expect(server.server.app.resources.has('crud/shop_goods')).toBe(true);
    expect(await deletes()).toEqual([]);
    // sent again with a fresh token: done, and logged once
    token = (await server.loginAdmin()).token;
    const deleted = await crud('delete', { body: { id: logId } });
    expect(deleted.code, deleted.msg).toBe(1);
    expect(server.server.app.resources.has('crud/shop_goods')).toBe(false);
    expect(await deletes()).toEqual([{ username: 'admin', title: storedMessage('CRUD delete') }]);
  });
});
