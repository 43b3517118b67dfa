import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, copyProject, startTestServer, type TestServer } from '../support/test-server.js';
import { newField, OPTION_COLORS, requestBodyOf, scratchDesign, type DesignDraft } from '../../src/client/admin/pages/crud/design-model.js';

/**
 * The CRUD designer offers only what it then accepts (issue 40, items 2 and 3): every chip colour of its
 * list generates, every refusal a person reads is in their language and names the field as the screen
 * does, never a JSON path or a column path; "start from an existing table" lists only tables a module can
 * be designed from, and no table list shows the platform's secrets or its own tables.
 */

type Row = Record<string, unknown>;

/** Signs of a machine's words in a message: a JSON path, a schema file, a table.column, an English refusal in Chinese. */
const MACHINE_WORDS = /\/properties\/|\/x-[a-z]|crud\/[a-z_]+|\.json|[a-z_]+\.[a-z_]+"|must be equal|x-renamedFrom/;

function shopDesign(name: string): DesignDraft {
  const design = scratchDesign();
  design.table = { ...design.table, name, title: { 'zh-cn': '商品', en: 'Goods' } };
  const kind = { ...newField('select', 'kind', { 'zh-cn': '类别', en: 'Kind' }), options: OPTION_COLORS.map((color, index) => ({ value: `c${index}`, 'zh-cn': `颜色${index}`, en: `Colour ${index}`, color })) };
  const price = { ...newField('money', 'price', { 'zh-cn': '价格', en: 'Price' }) };
  design.fields.splice(1, 0, kind, price);
  return design;
}

describe.each(DATABASES)('what the designer offers, it accepts, and it refuses in words on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;
  const crud = <T = unknown>(action: string, request: { body?: unknown; query?: Row; lang?: 'en' | 'zh-cn' } = {}) => server.admin<T>(`crud.Crud/${action}`, { token, ...request });

  beforeAll(async () => {
    dir = copyProject('chidao-choices-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates an enum with every colour the designer offers, each kept as chosen', async () => {
    expect(OPTION_COLORS.length).toBeGreaterThanOrEqual(6);
    const body = requestBodyOf(shopDesign('shop_goods'));
    const preview = await crud('preview', { body, lang: 'zh-cn' });
    expect(preview.code, preview.msg).toBe(1);
    const generated = await crud('generate', { body });
    expect(generated.code, generated.msg).toBe(1);
    const definition = server.server.app.resources.get('crud/shop_goods');
    const colours = definition?.fields.find((field) => field.name === 'kind')?.ui.colors ?? {};
    // '' is no colour: the chip is neutral
    expect(OPTION_COLORS.map((color, index) => colours[`c${index}`] ?? '')).toEqual(OPTION_COLORS.map((color) => color));
  });

  it('refuses a colour it does not offer, and a title or icon longer than the menu keeps, in the reader’s language and the screen’s words', async () => {
    const design = shopDesign('shop_refused');
    const body = requestBodyOf(design) as { table: Row; fields: Row[] };
    const withColour = (color: string) => ({ ...body, fields: body.fields.map((field) => (field.name === 'kind' ? { ...field, options: { c0: { 'zh-cn': '紫', en: 'Purple', color } } } : field)) });
    const zh = await crud('preview', { body: withColour('secondary'), lang: 'zh-cn' });
    expect({ code: zh.code, msg: zh.msg }).toEqual({ code: 0, msg: '字段“类别 (kind)”：选项“紫”的颜色不在设计器提供的颜色之中' });
    const en = await crud('preview', { body: withColour('secondary'), lang: 'en' });
    expect(en.msg).toBe('Field Kind (kind): the colour of option "Purple" is not one the designer offers');

    const longTitle = await crud('preview', { body: { ...body, table: { ...body.table, title: { 'zh-cn': '很'.repeat(51), en: 'Goods' } } }, lang: 'zh-cn' });
    expect(longTitle.msg).toBe('模块标题每种语言最多 50 个字符（它也是菜单的标题）');
    const longIcon = await crud('preview', { body: { ...body, table: { ...body.table, menu: { icon: `fa ${'x'.repeat(55)}` } } }, lang: 'en' });
    expect(longIcon.msg).toBe("The menu icon's name is at most 50 characters");
    const kept = await crud('preview', { body: { ...body, fields: body.fields.map((field) => (field.name === 'kind' ? { ...field, options: { toString: { 'zh-cn': '原型', en: 'Proto' } } } : field)) }, lang: 'zh-cn' });
    expect(kept.msg).toBe('字段“类别 (kind)”：选项值“toString”是每个 JavaScript 对象都有的名称，请换一个');
    // a default the field itself would refuse: not one of its options, not a number
    const withDefault = (name: string, value: string) => ({ ...body, fields: body.fields.map((field) => (field.name === name ? { ...field, default: value, defaultType: 'INPUT' } : field)) });
    const notAnOption = await crud('preview', { body: withDefault('kind', 'zz'), lang: 'zh-cn' });
    expect(notAnOption.msg).toBe('字段“类别 (kind)”：默认值“zz”不是该字段接受的值');
    const notMoney = await crud('preview', { body: withDefault('price', 'cheap'), lang: 'en' });
    expect(notMoney.msg).toBe('Field Price (price): the default "cheap" is not a value the field accepts');
    expect((await crud('preview', { body: withDefault('kind', 'c1') })).code).toBe(1);
    for (const response of [zh, en, longTitle, longIcon, kept, notAnOption, notMoney]) expect(response.msg).not.toMatch(MACHINE_WORDS);
    expect(server.server.app.resources.has('crud/shop_refused')).toBe(false);
  });

  it('words a change that would lose data by the field’s label, in both languages, and changes nothing until confirmed', async () => {
    const design = shopDesign('shop_goods');
    design.fields = design.fields.filter((field) => field.name !== 'price');
    const body = requestBodyOf(design);
    const zh = await crud<{ migration: { destructive: string[] } }>('preview', { body, lang: 'zh-cn' });
    expect(zh.data.migration.destructive).toEqual(['字段“价格 (price)”将被删除：其中的数据一并删除']);
    const en = await crud<{ migration: { destructive: string[] } }>('preview', { body, lang: 'en' });
    expect(en.data.migration.destructive).toEqual(['Field Price (price) is removed: the values it holds are deleted']);
    const refused = await crud<{ destructive: string[] }>('generate', { body, lang: 'zh-cn' });
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: '此修改会丢失数据，确认后才会执行：字段“价格 (price)”将被删除：其中的数据一并删除' });
    expect(refused.data.destructive).toEqual(['字段“价格 (price)”将被删除：其中的数据一并删除']);
    expect(server.server.app.resources.get('crud/shop_goods')?.fields.some((field) => field.name === 'price')).toBe(true);
  });

  it('offers to start only from tables a module can be designed from, and lists no platform table anywhere', async () => {
    // a table of the database no schema declares: the designer can adopt it
    await sql`CREATE TABLE legacy_notes (id integer PRIMARY KEY, body varchar(200))`.execute(server.server.app.db);
    const offered = await crud<{ list: { table: string; comment: string }[] }>('designableTables', { lang: 'zh-cn' });
    expect(offered.code, offered.msg).toBe(1);
    expect(offered.data.list).toEqual([
      { table: 'legacy_notes', comment: '' },
      { table: 'shop_goods', comment: '商品' },
    ]);
    // each one offered can be started from and generated
    for (const { table } of offered.data.list) {
      const parsed = await crud<{ columns: Record<string, Row> }>('parseFieldData', { body: { type: 'db', table } });
      expect(parsed.code, `${table}: ${parsed.msg}`).toBe(1);
      expect((await crud('generateCheck', { body: { table } })).code, table).toBe(-1);
    }
    // no list of tables shows the platform's secrets, its tokens or its internal tables
    const tables = (await server.admin<{ list: { table: string }[] }>('ajax/getTableList', { token })).data.list.map((row) => row.table);
    for (const internal of ['security_secret', 'token', 'captcha', 'verification_code', 'login_attempt', 'schema_state', 'schema_design']) {
      expect(tables, internal).not.toContain(internal);
      expect((await server.admin('ajax/getTableFieldList', { token, query: { table: internal } })).code, internal).toBe(0);
    }
    expect(tables).toEqual(expect.arrayContaining(['admin', 'survey', 'legacy_notes', 'shop_goods']));
  });
});
