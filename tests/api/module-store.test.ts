import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { catalogTables } from '../../src/server/db/table-catalog.js';
import { DATABASES, PROJECT_ROOT, copyProject, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';
import { storedMessage } from '../../src/server/stored-text.js';

/**
 * The module store: modules of data — schemas, texts, seed rows, images — installed through the
 * schema registry with BuildAdmin's calls (`ajax/upload`, `module/upload`, `module/state`, `module/install`,
 * `module/changeState`, `module/uninstall`), checked whole before anything is written, live on every
 * process, disabled and enabled with their rows kept, upgraded with the designer's confirmation, and
 * reserved to super administrators.
 */

interface Item {
  uid: string;
  title: string;
  intro: string;
  version: string;
  state: number;
  source: string;
  newVersion: string;
  keptTables: string[];
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function info(uid: string, version = '1.0.0', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { uid, title: { 'zh-cn': '小工具', en: 'Gadgets' }, version, description: { 'zh-cn': '管理小工具', en: 'Keep a list of gadgets' }, author: 'Test', ...extra };
}

function gadgetSchema(properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $id: 'gadgets/gadget', title: { 'zh-cn': '小工具', en: 'Gadget' }, type: 'object', 'x-table': 'gadgets_gadget', 'x-controller': 'gadgets.Gadget',
    'x-menu': { title: { 'zh-cn': '小工具', en: 'Gadgets' }, icon: 'fa fa-cube' }, required: ['name'],
    properties: {
      id: { type: 'integer', title: 'ID', readOnly: true, 'x-ui': { list: true } },
      name: { type: 'string', title: { 'zh-cn': '名称', en: 'Name' }, minLength: 1, maxLength: 50, 'x-ui': { list: true } },
      price: { type: 'string', title: { 'zh-cn': '价格', en: 'Price' }, format: 'money' },
      ...properties,
    },
    ...extra,
  };
}

const json = (value: unknown) => strToU8(JSON.stringify(value));

/** A module zip: module.json, the schema, a locale file, a seed file and a logo. */
function gadgetZip(version = '1.0.0', schema = gadgetSchema(), more: Zippable = {}): Uint8Array {
  return zipSync({
    'module.json': json(info('gadgets', version)),
    'schemas/gadgets/gadget.json': json(schema),
    'locales/zh-cn/schemas/gadgets/gadget.json': json({ fields: { name: '名称' } }),
    'seed/gadgets.json': json({ $id: 'gadgets/gadget', rows: [{ id: 1, name: 'Spanner', price: '12.50' }] }),
    'images/logo.png': PNG,
    ...more,
  });
}

/** Set the uncompressed size an entry declares (central directory and local header) — a zip that lies. */
function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at < out.length - 4; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x02014b50 && new TextDecoder().decode(out.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))) === name) view.setUint32(at + 24, size, true);
    if (signature === 0x04034b50 && new TextDecoder().decode(out.subarray(at + 30, at + 30 + view.getUint16(at + 26, true))) === name) view.setUint32(at + 22, size, true);
  }
  return out;
}

async function within(ms: number, check: () => Promise<void>): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Upload bytes through `ajax/upload` as BuildAdmin's client does; answers the stored file's URL. */
async function uploadFile(server: TestServer, token: string, bytes: Uint8Array, name = 'module.zip'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), name);
  const response = await server.raw(`/${server.server.app.settings.adminEntrance.replace(/^\//, '')}.php/ajax/upload`, { method: 'POST', headers: { batoken: token, 'think-lang': 'en', server: 'true' }, body: form });
  const envelope = (await response.json()) as Envelope<{ file: { url: string } }>;
  expect(envelope.code, envelope.msg).toBe(1);
  return envelope.data.file.url;
}

describe.each(DATABASES)('module store on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;

  const store = <T = unknown>(action: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(`module/${action}`, { token, ...request });
  const upload = async (bytes: Uint8Array, lang: 'en' | 'zh-cn' = 'en') => store<{ info: Item }>('upload', { method: 'POST', query: { file: await uploadFile(server, token, bytes) }, lang });
  const install = (uid: string, extend: Record<string, unknown> = {}, lang: 'en' | 'zh-cn' = 'en') => store<{ data: Item }>('install', { query: { uid }, body: { extend }, lang });
  const state = async (uid: string) => (await store<{ state: number }>('state', { query: { uid } })).data.state;
  const listed = async (lang: 'en' | 'zh-cn' = 'en') => (await store<{ installed: Item[] }>('index', { lang })).data.installed;
  const tables = async () => catalogTables(server.server.app.handle);
  const rowsOf = async (table: string) => (await dynamicDb(server.server.app.db).selectFrom(table).selectAll().orderBy('id').execute()) as Record<string, unknown>[];
  const menus = async () => (await server.admin<{ menus: { name: string; children?: { name: string }[] }[] }>('Index/index', { token })).data.menus.flatMap((menu) => [menu.name, ...(menu.children ?? []).map((child) => child.name)]);

  /** What a refused package could have written: store rows, designs, tables, module images, the project's schemas. */
  async function footprint() {
    const db = server.server.app.db;
    return {
      modules: await db.selectFrom('store_module').select(['uid', 'state', 'version']).orderBy('uid').execute(),
      designs: await db.selectFrom('schema_design').select(['schema_id', 'version']).orderBy('schema_id').execute(),
      tables: await tables(),
      images: existsSync(join(server.server.app.settings.storageDir, 'modules')) ? readdirSync(join(server.server.app.settings.storageDir, 'modules')) : [],
      projectSchemas: readdirSync(join(PROJECT_ROOT, 'schemas')),
      projectRoot: readdirSync(PROJECT_ROOT),
    };
  }

  beforeAll(async () => {
    dir = copyProject('chidao-store-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the first-party catalogue, not installed, in the page language', async () => {
    const index = await store<{ sysVersion: string; installed: Item[] }>('index');
    expect(index.code, index.msg).toBe(1);
    expect(typeof index.data.sysVersion).toBe('string');
    const catalogue = index.data.installed.filter((item) => item.source === 'catalogue');
    expect(catalogue.map((item) => [item.uid, item.state])).toEqual([['announcement', 0], ['faq', 0], ['feedback', 0]]);
    expect(catalogue.find((item) => item.uid === 'faq')).toMatchObject({ title: 'Help centre', version: '1.0.0' });
    expect((await listed('zh-cn')).find((item) => item.uid === 'faq')?.title).toBe('帮助中心');
    expect(await state('faq')).toBe(0);
    // what installing would do, nothing applied
    const preview = await store<{ migration: { steps: string[]; destructive: string[] }; conflicts: unknown[]; missing: string[]; info: Item }>('preview', { query: { uid: 'faq' } });
    expect(preview.data.migration.steps).toEqual(expect.arrayContaining([expect.stringMatching(/^create table faq_category \(/), expect.stringMatching(/^create table faq_question \(/)]));
    expect(preview.data).toMatchObject({ conflicts: [], missing: [], info: { uid: 'faq', state: 0 }, migration: { destructive: [] } });
    expect(await tables()).not.toContain('faq_category');
  });

  it('installs a catalogue module: its resources answer, with seed rows, menus and an admin log entry', async () => {
    expect((await server.admin('faq.Category/index', { token })).status).toBe(404);
    const installed = await install('faq');
    expect(installed.code, installed.msg).toBe(1);
    expect(installed.data.data).toMatchObject({ uid: 'faq', state: 1 });
    expect(await state('faq')).toBe(1);
    const categories = await server.admin<{ list: { name: string }[] }>('faq.Category/index', { token });
    expect(categories.data.list.map((row) => row.name)).toEqual(['Account', 'Surveys', 'Payouts']);
    const added = await server.admin('faq.Question/add', { token, body: { category_id: 1, question: 'How do I change my password?', answer: 'In your profile.' } });
    expect(added.code, added.msg).toBe(1);
    expect(await menus()).toEqual(expect.arrayContaining(['faq', 'faq/category', 'faq/question']));
    const zh = await server.admin<{ definitions: { id: string; title: Record<string, string> }[] }>('Index/index', { token, lang: 'zh-cn' });
    expect(zh.data.definitions.find((definition) => definition.id === 'faq/question')?.title['zh-cn']).toBe('问题');
    const log = await server.server.app.db.selectFrom('admin_log').select(['title', 'url']).where('url', 'like', '%module/install%').execute();
    expect(log.map((row) => row.title)).toContain(storedMessage('Install module'));
    // installing again: BuildAdmin's refusal, in both languages
    expect((await install('faq')).msg).toBe('Module already exists');
    expect((await store('install', { query: { uid: 'faq' }, body: { extend: {} }, lang: 'zh-cn' })).msg).toBe('模块已存在！');
    // nothing of it was written into the project's schemas
    expect(existsSync(join(dir, 'schemas', 'faq'))).toBe(false);
  });

  it('installs the whole catalogue: every list answers, every text in both languages; a disabled module leaves no empty menu', async () => {
    for (const uid of ['announcement', 'feedback']) {
      const response = await install(uid);
      expect(response.code, response.msg).toBe(1);
    }
    for (const controller of ['announcement.Notice', 'feedback.Ticket', 'faq.Question', 'faq.Category']) expect((await server.admin(`${controller}/index`, { token })).code, controller).toBe(1);
    const definitions = [...server.server.app.resources.values()].filter((definition) => /^(faq|feedback|announcement)\//.test(definition.id));
    expect(definitions.map((definition) => definition.id).sort()).toEqual(['announcement/notice', 'faq/category', 'faq/question', 'feedback/ticket']);
    expect(definitions.flatMap((definition) => definition.textGaps)).toEqual([]);
    const ticket = await server.admin<{ id: number }>('feedback.Ticket/add', { token, body: { user_id: 1, kind: 'problem', subject: 'Payout late', content: 'My payout has not arrived.' } });
    expect(ticket.code, ticket.msg).toBe(1);
    const tickets = await server.admin<{ list: { id: number; status: string; user: { username: string } }[] }>('feedback.Ticket/index', { token });
    expect(tickets.data.list[0]).toMatchObject({ status: 'open', user: { username: 'user' } });

    // a group granted the help centre's menus; disabling takes them out of the group, which stays editable
    const db = server.server.app.db;
    const faqRules = (await db.selectFrom('admin_rule').select('id').where('name', 'like', 'faq%').execute()).map((rule) => Number(rule.id));
    const group = (await db.selectFrom('admin_group').select('rules').where('id', '=', 2).executeTakeFirstOrThrow()) as { rules: string };
    await db.updateTable('admin_group').set({ rules: [group.rules, ...faqRules].join(',') }).where('id', '=', 2).execute();

    // the help centre's directory goes with its two menus, and comes back with them
    expect((await store('changeState', { body: { uid: 'faq', state: 0 } })).code).toBe(1);
    const after = (await db.selectFrom('admin_group').select(['name', 'rules']).where('id', '=', 2).executeTakeFirstOrThrow()) as { name: string; rules: string };
    expect(after.rules).toBe(group.rules);
    const form = await server.admin<{ row: { rules: string[] } }>('auth.Group/edit', { token, query: { id: 2 } });
    const edited = await server.admin('auth.Group/edit', { token, body: { id: 2, pid: 1, name: after.name, rules: form.data.row.rules, status: 1 } });
    expect(edited.code, edited.msg).toBe(1);
    expect((await menus()).filter((name) => name.startsWith('faq'))).toEqual([]);
    expect((await store('changeState', { body: { uid: 'faq', state: 1 } })).code).toBe(1);
    expect((await install('faq')).code).toBe(1);
    expect(await menus()).toEqual(expect.arrayContaining(['faq', 'faq/category', 'faq/question']));

    for (const uid of ['announcement', 'feedback']) {
      expect((await store('changeState', { body: { uid, state: 0 } })).code).toBe(1);
      expect((await store('uninstall', { method: 'POST', query: { uid, dropData: 1 } })).code).toBe(1);
    }
    expect(await tables()).not.toContain('feedback_ticket');
  });

  it('installs an uploaded zip in BuildAdmin’s two steps: upload waits (state 2), install makes it live', async () => {
    const uploaded = await upload(gadgetZip());
    expect(uploaded.code, uploaded.msg).toBe(1);
    expect(uploaded.data.info).toMatchObject({ uid: 'gadgets', state: 2, version: '1.0.0', title: 'Gadgets', source: 'upload' });
    expect(await state('gadgets')).toBe(2);
    expect((await server.admin('gadgets.Gadget/index', { token })).status).toBe(404);
    const installed = await install('gadgets');
    expect(installed.code, installed.msg).toBe(1);
    const list = await server.admin<{ list: { name: string; price: string }[] }>('gadgets.Gadget/index', { token });
    expect(list.data.list).toMatchObject([{ name: 'Spanner', price: '12.50' }]);
    expect(await menus()).toContain('gadgets/gadget');
    const logo = await server.raw('/storage/modules/gadgets/images/logo.png');
    expect(logo.status).toBe(200);
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(PNG);
    // the same version again is refused
    expect((await upload(gadgetZip())).msg).toBe('Module already exists');
  });

  it('disables (API refused, menus hidden, rows kept), refuses to uninstall while enabled, and enables again', async () => {
    expect((await server.admin('gadgets.Gadget/add', { token, body: { name: 'Hammer', price: '3.00' } })).code).toBe(1);
    const refused = await store('uninstall', { method: 'POST', query: { uid: 'gadgets' } });
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'Please disable the module first' });
    const disabled = await store('changeState', { body: { uid: 'gadgets', state: 0 } });
    expect(disabled.code, disabled.msg).toBe(1);
    expect(await state('gadgets')).toBe(6);
    expect((await server.admin('gadgets.Gadget/index', { token })).status).toBe(404);
    expect(await menus()).not.toContain('gadgets/gadget');
    expect((await rowsOf('gadgets_gadget')).map((row) => row.name)).toEqual(['Spanner', 'Hammer']);
    expect((await store('changeState', { body: { uid: 'gadgets', state: 0 } })).msg).toBe('The current state of the module cannot be set to disabled');

    // enable, then install, as BuildAdmin's client does
    expect((await store('changeState', { body: { uid: 'gadgets', state: 1 } })).code).toBe(1);
    expect(await state('gadgets')).toBe(2);
    expect((await install('gadgets')).code).toBe(1);
    const list = await server.admin<{ list: { name: string }[] }>('gadgets.Gadget/index', { token });
    expect(list.data.list.map((row) => row.name).sort()).toEqual(['Hammer', 'Spanner']);
    expect(await menus()).toContain('gadgets/gadget');
  });

  it('gives a group back the module’s menus and nodes it held, by name, when the module is disabled and enabled again', async () => {
    const db = server.server.app.db;
    const granted = ['gadgets/gadget', 'gadgets/gadget/add', 'gadgets/gadget/index'];
    const ruleIds = (await db.selectFrom('admin_rule').select('id').where('name', 'in', granted).execute()).map((rule) => Number(rule.id));
    expect(ruleIds).toHaveLength(3);
    const group = await server.admin('auth.Group/add', { token, body: { pid: 1, name: 'Gadget keepers', rules: ruleIds, status: '1' } });
    expect(group.code, group.msg).toBe(1);
    const groupId = Number((await db.selectFrom('admin_group').select('id').where('name', '=', 'Gadget keepers').executeTakeFirstOrThrow()).id);
    const added = await server.admin('auth.Admin/add', { token, body: { username: 'keeper', nickname: 'Keeper', password: 'Keeper_pass1', email: 'keeper@example.com', mobile: '13712345679', group_arr: [groupId], status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const keeper = (await server.loginAdmin('keeper', 'Keeper_pass1')).token;
    const names = async () => new Map((await db.selectFrom('admin_rule').select(['id', 'name']).execute()).map((rule) => [String(rule.id), rule.name]));
    /** The rules the group holds, by name. */
    const held = async () => {
      const rules = String((await db.selectFrom('admin_group').select('rules').where('id', '=', groupId).executeTakeFirstOrThrow()).rules ?? '');
      const byId = await names();
      return rules.split(',').filter(Boolean).map((id) => byId.get(id) ?? `no rule ${id}`).sort();
    };
    /** The rules the group's edit form shows ticked (the menu itself is half-ticked, so not listed), by name. */
    const ticked = async () => {
      const form = await server.admin<{ row: { rules: (string | number)[] } }>('auth.Group/edit', { token, query: { id: groupId } });
      expect(form.code, form.msg).toBe(1);
      const byId = await names();
      return form.data.row.rules.map((id) => byId.get(String(id)) ?? `no rule ${id}`).sort();
    };
    expect(await held()).toEqual(granted);
    expect(await ticked()).toEqual(['gadgets/gadget/add', 'gadgets/gadget/index']);
    expect((await server.admin('gadgets.Gadget/index', { token: keeper })).code).toBe(1);
    expect((await server.admin('gadgets.Gadget/add', { token: keeper, body: { name: 'Chisel' } })).code).toBe(1);

    // disabled: the keeper is refused, and the group lists none of the old ids
    expect((await store('changeState', { body: { uid: 'gadgets', state: 0 } })).code).toBe(1);
    expect((await server.admin('gadgets.Gadget/index', { token: keeper })).code).not.toBe(1);
    expect((await server.admin('gadgets.Gadget/add', { token: keeper, body: { name: 'Drill' } })).code).not.toBe(1);
    expect(await held()).toEqual([]);
    expect(await ticked()).toEqual([]);

    // enabled and installed again, as the client does: the same rules by name, new ids, nothing more
    expect((await store('changeState', { body: { uid: 'gadgets', state: 1 } })).code).toBe(1);
    expect((await install('gadgets')).code).toBe(1);
    expect(await held()).toEqual(granted);
    expect(await ticked()).toEqual(['gadgets/gadget/add', 'gadgets/gadget/index']);
    const list = await server.admin<{ list: { name: string }[] }>('gadgets.Gadget/index', { token: keeper });
    expect(list.code, list.msg).toBe(1);
    expect(list.data.list.map((row) => row.name)).toContain('Chisel');
    const again = await server.admin('gadgets.Gadget/add', { token: keeper, body: { name: 'Drill' } });
    expect(again.code, again.msg).toBe(1);
    expect((await server.admin('gadgets.Gadget/del', { token: keeper, method: 'POST', body: { ids: [1] } })).code).toBe(401);
    expect((await rowsOf('gadgets_gadget')).map((row) => row.name)).toEqual(['Spanner', 'Hammer', 'Chisel', 'Drill']);
    await dynamicDb(db).deleteFrom('gadgets_gadget').where('name', 'in', ['Chisel', 'Drill']).execute();
    // the record is used once: a later disable records afresh
    expect(await db.selectFrom('store_module_grant').selectAll().where('uid', '=', 'gadgets').execute()).toEqual([]);
  });

  it('upgrades from a higher version: the rename keeps the data, a dropped column waits for confirmation', async () => {
    const { name, ...rest } = gadgetSchema().properties as Record<string, Record<string, unknown>>;
    const { price: _price, ...withoutPrice } = rest;
    const v2 = gadgetSchema({}, { required: ['label'], properties: { ...withoutPrice, label: { ...name, 'x-renamedFrom': 'name' } } });
    const zip = zipSync({ 'module.json': json(info('gadgets', '1.1.0')), 'schemas/gadgets/gadget.json': json(v2) });
    const uploaded = await upload(zip);
    expect(uploaded.code, uploaded.msg).toBe(1);
    expect(uploaded.data.info).toMatchObject({ state: 2, version: '1.0.0', newVersion: '1.1.0' });
    const preview = await store<{ migration: { steps: string[]; destructive: string[] } }>('preview', { query: { uid: 'gadgets' } });
    // worded for the admin who confirms it: the field as its screens name it, and what happens to its values
    expect(preview.data.migration.destructive).toEqual(['Field Price (price) is removed: the values it holds are deleted']);
    const chinese = await store<{ migration: { destructive: string[] } }>('preview', { query: { uid: 'gadgets' }, lang: 'zh-cn' });
    expect(chinese.data.migration.destructive).toEqual(['字段“价格 (price)”将被删除：其中的数据一并删除']);

    const unconfirmed = await install('gadgets');
    expect(unconfirmed.code).toBe(0);
    expect(unconfirmed.msg).toBe('This change would lose data; confirm it to apply it: Field Price (price) is removed: the values it holds are deleted');
    expect((unconfirmed.data as unknown as { destructive: string[] }).destructive).toHaveLength(1);
    expect((await install('gadgets', {}).then((response) => response.code))).toBe(0);
    expect((await server.admin<{ list: { name: string; price: string }[] }>('gadgets.Gadget/index', { token })).data.list[0]).toHaveProperty('price');

    const confirmed = await install('gadgets', { confirm: 1 });
    expect(confirmed.code, confirmed.msg).toBe(1);
    expect(confirmed.data.data).toMatchObject({ version: '1.1.0', state: 1, newVersion: '' });
    const list = await server.admin<{ list: Record<string, unknown>[] }>('gadgets.Gadget/index', { token });
    expect(list.data.list.map((row) => row.label).sort()).toEqual(['Hammer', 'Spanner']);
    expect(list.data.list[0]).not.toHaveProperty('price');
    expect((await upload(zip)).msg).toBe('Module already exists');
  });

  it('uninstalls: only when disabled; tables and rows kept, or dropped for good when asked', async () => {
    expect((await store('changeState', { body: { uid: 'gadgets', state: false } })).code).toBe(1);
    const kept = await store<{ keptTables: string[] }>('uninstall', { method: 'POST', query: { uid: 'gadgets' } });
    expect({ code: kept.code, msg: kept.msg }).toEqual({ code: 1, msg: 'The module was uninstalled; its data was kept' });
    expect(kept.data.keptTables).toEqual(['gadgets_gadget']);
    expect(await state('gadgets')).toBe(0);
    expect((await rowsOf('gadgets_gadget')).map((row) => row.label)).toEqual(['Spanner', 'Hammer']);
    expect(existsSync(join(server.server.app.settings.storageDir, 'modules', 'gadgets'))).toBe(false);
    expect((await server.server.app.db.selectFrom('admin_rule').select('name').where('name', 'like', 'gadgets%').execute())).toEqual([]);

    // installed again from a zip, the kept table is its own again, rows and all
    expect((await upload(gadgetZip('1.2.0', gadgetSchema({ label: { type: 'string', title: 'Label', maxLength: 50 } }, { required: [] })))).code).toBe(1);
    const again = await install('gadgets', { confirm: true });
    expect(again.code, again.msg).toBe(1);
    expect((await server.admin<{ total: number }>('gadgets.Gadget/index', { token })).data.total).toBe(2);

    expect((await store('changeState', { body: { uid: 'gadgets', state: 0 } })).code).toBe(1);
    const dropped = await store('uninstall', { method: 'POST', query: { uid: 'gadgets', dropData: 1 }, lang: 'zh-cn' });
    expect({ code: dropped.code, msg: dropped.msg }).toEqual({ code: 1, msg: '模块已卸载，其数据已永久删除' });
    expect(await tables()).not.toContain('gadgets_gadget');
    expect((await listed()).some((item) => item.uid === 'gadgets')).toBe(false);
    // every change went to the admin log, under BuildAdmin's titles
    const titles = (await server.server.app.db.selectFrom('admin_log').select('title').where('url', 'like', '%/module/%').execute()).map((row) => row.title);
    expect(new Set(titles)).toEqual(new Set(['Upload install module', 'Install module', 'Change module state', 'Unload module'].map((title) => storedMessage(title))));
  });

  it('refuses every hostile or broken package, naming the problem, with nothing written', async () => {
    const before = await footprint();
    const base = { 'module.json': json(info('evil')), 'schemas/evil/thing.json': json({ ...gadgetSchema(), $id: 'evil/thing', 'x-table': 'evil_thing', 'x-controller': 'evil.Thing' }) };
    const twoMb = new Uint8Array(2 * 1024 * 1024);
    const cases: [string, Uint8Array, RegExp][] = [
      ['a path with ..', zipSync({ ...base, '../outside.json': json({}) }), /The package entry "\.\.\/outside\.json" is refused/],
      ['an absolute path', zipSync({ ...base, '/etc/evil.json': json({}) }), /The package entry "\/etc\/evil\.json" is refused/],
      ['a hidden file', zipSync({ ...base, 'images/.logo.png': PNG }), /The package entry "images\/\.logo\.png" is refused/],
      ['a link', zipSync({ ...base, 'images/link.png': [strToU8('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }] }), /The package entry "images\/link\.png" is refused/],
      ['a script', zipSync({ ...base, 'install.js': strToU8('module.exports = 1') }), /The package file "install\.js" is refused/],
      ['a shell file', zipSync({ ...base, 'seed/run.sh': strToU8('rm -rf /') }), /The package file "seed\/run\.sh" is refused/],
      ['a PHP file posing as an image', zipSync({ ...base, 'images/logo.png': strToU8('<?php system($_GET[1]);') }), /"images\/logo\.png" is not valid: not a PNG/],
      ['an SVG', zipSync({ ...base, 'images/logo.svg': strToU8('<svg onload="alert(1)"/>') }), /The package file "images\/logo\.svg" is refused/],
      ['a file over the limit', zipSync({ ...base, 'images/big.png': twoMb }), /The package file "images\/big\.png" is larger than 1024 KB/],
      ['a zip bomb lying about its size', lieAboutSize(zipSync({ ...base, 'images/bomb.png': twoMb }), 'images/bomb.png', 1000), /Unable to open the zip file: images\/bomb\.png: it inflates to more than the size the zip declares/],
      ['too much in total', zipSync({ ...base, ...Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`images/${index}.png`, Uint8Array.from({ length: 1000 * 1024 }, () => 0x89)])) }), /The package is larger than 8 MB once unpacked/],
      ['not a zip', strToU8('PK\u0003\u0004 not really a zip'), /Unable to open the zip file: not a zip file/],
      ['no module.json', zipSync({ 'schemas/evil/thing.json': base['schemas/evil/thing.json'] }), /Basic configuration of the Module is incomplete: the package has no module\.json/],
      ['a bad uid', zipSync({ ...base, 'module.json': json(info('Evil!')) }), /"uid" is 2 to 40 lower-case letters/],
      ['the designer’s uid', zipSync({ 'module.json': json(info('crud')), 'schemas/crud/thing.json': json({ ...gadgetSchema(), $id: 'crud/thing' }) }), /the uid "crud" is reserved/],
      ['a title in one language', zipSync({ ...base, 'module.json': json(info('evil', '1.0.0', { title: { en: 'Evil' } })) }), /"title" needs a text in each language/],
      ['a schema outside its uid', zipSync({ ...base, 'schemas/system/admin.json': json({ ...gadgetSchema(), $id: 'system/admin' }) }), /a module's schemas have "\$id"s starting with "evil\/"/],
      ['a schema failing the meta-schema', zipSync({ ...base, 'schemas/evil/thing.json': json({ ...gadgetSchema(), $id: 'evil/thing', 'x-table': 'evil_thing', 'x-controller': 'evil.Thing', 'x-bogus': 1 }) }), /A schema of the module is not valid: .*unknown x- keyword "x-bogus"/],
      ['an unmet requirement', zipSync({ ...base, 'module.json': json(info('evil', '1.0.0', { requires: ['ledger_plus'] })) }), /The module needs these modules installed and enabled first: ledger_plus/],
    ];
    for (const [what, zip, message] of cases) {
      const response = await upload(zip);
      expect(response.code, what).not.toBe(1);
      expect(response.msg, what).toMatch(message);
    }
    const chinese = await store('upload', { method: 'POST', query: { file: await uploadFile(server, token, (cases.find(([what]) => what === 'a script') as (typeof cases)[number])[1]) }, lang: 'zh-cn' });
    expect(chinese.msg).toBe('模块包中的文件“install.js”被拒绝：模块只能包含 module.json、schema、语言文件、初始数据，以及 PNG、JPEG、GIF 或 WebP 图片');
    // every refusal reads in the reader's language, the parser's and the zip reader's own words included
    const inChinese = async (zip: Uint8Array) => (await store('upload', { method: 'POST', query: { file: await uploadFile(server, token, zip) }, lang: 'zh-cn' })).msg;
    expect(await inChinese(strToU8('PK\u0003\u0004 not really a zip'))).toBe('无法打开压缩包文件：这不是 zip 压缩包');
    expect(await inChinese(zipSync({ ...base, 'schemas/evil/thing.json': strToU8('{\n  "$id": "evil/thing",\n  oops\n}') }))).toBe('模块包中的文件“schemas/evil/thing.json”不是有效的 JSON（请检查第 3 行）');
    expect(await inChinese(zipSync({ 'schemas/evil/thing.json': base['schemas/evil/thing.json'] }))).toBe('模块基础配置不完整：模块包中没有 module.json');
    expect(await inChinese(lieAboutSize(zipSync({ ...base, 'images/bomb.png': twoMb }), 'images/bomb.png', 1000))).toBe('无法打开压缩包文件：images/bomb.png：解压后的大小超过压缩包声明的大小');
    expect((await store('upload', { method: 'POST', query: { file: '/storage/../../etc/passwd' } })).msg).toBe('Zip file not found');
    expect((await store('upload', { method: 'POST', query: { file: '/etc/passwd' } })).msg).toBe('Zip file not found');
    expect((await store('upload', { method: 'POST', query: { file: '/storage/%E0%A4%A.zip' } })).msg).toBe('Zip file not found');
    expect((await store('upload', { method: 'POST' })).msg).toBe('Parameter error');
    expect(await footprint()).toEqual(before);
  });

  it('reports clashes with a table, a $id, a controller or a menu in BuildAdmin’s conflict shape, and never installs over them', async () => {
    const before = await footprint();
    const clash = (uid: string, schema: Record<string, unknown>) => zipSync({ 'module.json': json(info(uid)), [`schemas/${String(schema.$id)}.json`]: json(schema) });
    const table = await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/team', 'x-table': 'team', 'x-controller': 'clash.Team' }));
    expect(table.code).toBe(-1);
    expect(table.msg).toBe('The module clashes with what is installed: table team (resource team/team)');
    expect(table.data).toMatchObject({
      uid: 'clash', dependConflict: [],
      conflicts: [{ kind: 'table', item: 'team', ownerKind: 'resource', ownerRef: 'team/team', name: 'table team', owner: 'resource team/team', message: 'table team (resource team/team)' }],
      fileConflict: [{ newFile: 'table team', oldFile: 'resource team/team', solution: 'cover' }],
    });
    // a Chinese reader reads the clash in Chinese, in the message and in both lists; only the names stay as written
    const chineseTable = await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/team', 'x-table': 'team', 'x-controller': 'clash.Team' }), 'zh-cn');
    expect(chineseTable.code).toBe(-1);
    expect(chineseTable.msg).toBe('模块与已安装的内容冲突：数据表 team（资源 team/team）');
    expect(chineseTable.msg.replace(/team\/team|team/g, '')).not.toMatch(/[a-z]/i);
    expect(chineseTable.data).toMatchObject({
      conflicts: [{ kind: 'table', item: 'team', name: '数据表 team', owner: '资源 team/team', message: '数据表 team（资源 team/team）' }],
      fileConflict: [{ newFile: '数据表 team', oldFile: '资源 team/team', solution: 'cover' }],
    });
    const id = await upload(clash('faq', { ...gadgetSchema(), $id: 'faq/category', 'x-table': 'faq_other', 'x-controller': 'faq.Other' }));
    // faq is installed at 1.0.0: the same version is refused before its contents are looked at
    expect(id.msg).toBe('Module already exists');
    const controller = await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/thing', 'x-table': 'clash_thing', 'x-controller': 'faq.Question' }));
    expect(controller.msg).toBe('The module clashes with what is installed: controller faq.Question (resource faq/question) | menu faq/question (an existing menu)');
    const menu = await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/thing', 'x-table': 'clash_thing', 'x-controller': 'Survey' }));
    expect(menu.msg).toContain('menu survey (an existing menu)');
    const chineseMenu = await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/thing', 'x-table': 'clash_thing', 'x-controller': 'Survey' }), 'zh-cn');
    expect(chineseMenu.msg).toContain('菜单 survey（已有的菜单）');
    expect(chineseMenu.msg.replace(/survey/gi, '')).not.toMatch(/[a-z]/i);
    expect((await upload(clash('clash', { ...gadgetSchema(), $id: 'clash/thing', 'x-table': 'clash_thing', 'x-controller': 'clash.Thing' }))).code).toBe(1);
    // a table of the database that no schema declares is not taken over either
    await server.server.app.db.schema.createTable('clash_loose').addColumn('id', 'integer', (column) => column.primaryKey()).execute();
    const loose = await upload(clash('loose', { ...gadgetSchema(), $id: 'loose/thing', 'x-table': 'clash_loose', 'x-controller': 'loose.Thing' }));
    expect({ code: loose.code, msg: loose.msg }).toEqual({ code: -1, msg: 'The module clashes with what is installed: table clash_loose (a table of the database)' });
    await server.server.app.db.schema.dropTable('clash_loose').execute();
    // a catalogue module whose table appeared meanwhile: install answers the conflict, and refuses when told to go on
    await server.server.app.db.schema.createTable('feedback_ticket').addColumn('id', 'integer', (column) => column.primaryKey()).execute();
    const preview = await store<{ conflicts: { name: string; owner: string }[] }>('preview', { query: { uid: 'feedback' } });
    expect(preview.data.conflicts).toEqual([{ kind: 'table', item: 'feedback_ticket', ownerKind: 'databaseTable', ownerRef: '', name: 'table feedback_ticket', owner: 'a table of the database', message: 'table feedback_ticket (a table of the database)' }]);
    const chinesePreview = await store<{ conflicts: { name: string; owner: string }[] }>('preview', { query: { uid: 'feedback' }, lang: 'zh-cn' });
    expect(chinesePreview.data.conflicts).toMatchObject([{ name: '数据表 feedback_ticket', owner: '数据库中已有的数据表' }]);
    const conflict = await install('feedback');
    expect(conflict.code).toBe(-1);
    expect((conflict.data as unknown as { fileConflict: { newFile: string }[] }).fileConflict.map((item) => item.newFile)).toEqual(['table feedback_ticket']);
    const goOn = await install('feedback', { fileConflict: { 'table feedback_ticket': 'cover' } });
    expect({ code: goOn.code, msg: goOn.msg }).toEqual({ code: 0, msg: 'The module cannot be installed over what is installed: table feedback_ticket (a table of the database)' });
    const chineseGoOn = await install('feedback', { fileConflict: { '数据表 feedback_ticket': 'cover' } }, 'zh-cn');
    expect({ code: chineseGoOn.code, msg: chineseGoOn.msg }).toEqual({ code: 0, msg: '模块不能覆盖已安装的内容：数据表 feedback_ticket（数据库中已有的数据表）' });
    await server.server.app.db.schema.dropTable('feedback_ticket').execute();
    expect(await state('feedback')).toBe(0);
    const after = await footprint();
    expect(after.tables).toEqual(before.tables);
    expect(after.modules.map((row) => row.uid)).toEqual([...before.modules.map((row) => row.uid), 'clash'].sort());
  });

  it('refuses a module claiming a menu or node of the platform or of another module, and takes away only the rules it made', async () => {
    const db = server.server.app.db;
    const rules = async () => (await db.selectFrom('admin_rule').select(['id', 'name']).orderBy('id').execute()).map((rule) => `${rule.id}:${rule.name}`);
    const claim = (uid: string, menu: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      zipSync({ 'module.json': json(info(uid)), [`schemas/${uid}/thing.json`]: json({ ...gadgetSchema(), $id: `${uid}/thing`, 'x-table': `${uid}_thing`, 'x-controller': `${uid}.Thing`, 'x-menu': { title: { 'zh-cn': '东西', en: 'Things' }, ...menu }, ...extra }) });
    const before = { rules: await rules(), footprint: await footprint() };
    // the platform's dashboard and administrators, another schema's menu, a node under a platform menu
    for (const [name, owner] of [['dashboard', 'an existing menu'], ['auth/admin', 'an existing menu'], ['team/team', 'an existing menu'], ['Auth/Admin/Index', 'an existing menu']]) {
      const refused = await upload(claim('claimer', { name }));
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: -1, msg: `The module clashes with what is installed: menu ${name.toLowerCase()} (${owner})` });
    }
    // a node its menu implies, held by the platform: a menu whose buttons reach into auth/admin
    const node = await upload(claim('claimer', { name: 'auth', buttons: ['admin'] }));
    expect(node.msg).toBe('The module clashes with what is installed: menu auth (an existing menu)');
    // the platform's seeded rule, deleted by an administrator, is still the platform's
    const dashboard = await db.selectFrom('admin_rule').selectAll().where('name', '=', 'dashboard').executeTakeFirstOrThrow();
    await db.deleteFrom('admin_rule').where('id', '=', dashboard.id).execute();
    try {
      expect((await upload(claim('claimer', { name: 'dashboard' }))).msg).toBe('The module clashes with what is installed: menu dashboard (the platform)');
    } finally {
      await db.insertInto('admin_rule').values(dashboard).execute();
    }
    expect(await rules()).toEqual(before.rules);
    expect((await footprint()).designs).toEqual(before.footprint.designs);

    // rules an administrator made beside a module's names (a node under its menu's name, an empty directory it
    // puts its menu in) stay when the module is disabled and uninstalled: only what it created goes
    const now = Math.floor(Date.now() / 1000);
    const base = { type: 'menu_dir', title: 'Mine', path: '', icon: '', menu_type: null, url: '', component: '', keepalive: 0, extend: 'none', remark: '', weigh: 0, status: '1', create_time: now, update_time: now } as const;
    await db.insertInto('admin_rule').values({ ...base, pid: 0, name: 'tidy_dir' }).execute();
    await db.insertInto('admin_rule').values({ ...base, pid: 0, type: 'button', name: 'tidy/thing/custom' } as const).execute();
    const made = await rules();
    expect((await upload(claim('tidy', { parent: { name: 'tidy_dir', title: { 'zh-cn': '整理', en: 'Tidy' } } }))).code).toBe(1);
    const installed = await install('tidy');
    expect(installed.code, installed.msg).toBe(1);
    expect((await rules()).filter((rule) => !made.includes(rule)).map((rule) => rule.split(':')[1])).toEqual(['tidy/thing', 'tidy/thing/index', 'tidy/thing/add', 'tidy/thing/edit', 'tidy/thing/del', 'tidy/thing/export']);
    // another module's menu, and its controller's address under a menu name of one's own
    expect((await upload(claim('claimer', { name: 'Tidy/Thing' }))).msg).toBe('The module clashes with what is installed: menu tidy/thing (an existing menu)');
    expect((await upload(claim('claimer', { name: 'claimer/own' }, { 'x-controller': 'tidy.thing.Index' }))).msg).toBe('The module clashes with what is installed: menu tidy/thing/index (an existing menu)');
    expect((await store('changeState', { body: { uid: 'tidy', state: 0 } })).code).toBe(1);
    expect(await rules()).toEqual(made);
    expect((await store('uninstall', { method: 'POST', query: { uid: 'tidy', dropData: 1 } })).code).toBe(1);
    expect(await rules()).toEqual(made);
    await db.deleteFrom('admin_rule').where('name', 'in', ['tidy_dir', 'tidy/thing/custom']).execute();
  });

  it('refuses a schema either database would refuse before writing anything, and undoes an install the database refuses halfway', async () => {
    const db = server.server.app.db;
    const rules = async () => (await db.selectFrom('admin_rule').select('name').orderBy('id').execute()).map((rule) => rule.name);
    const before = { rules: await rules(), footprint: await footprint() };
    const zip = (schema: Record<string, unknown>, more: Zippable = {}) => zipSync({ 'module.json': json(info('portable')), 'schemas/portable/thing.json': json({ ...gadgetSchema(), $id: 'portable/thing', 'x-table': 'portable_thing', 'x-controller': 'portable.Thing', ...schema }), ...more });
    const base = gadgetSchema().properties as Record<string, unknown>;
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ properties: { ...base, xmin: { type: 'string', title: 'X' } } }, /\/properties\/xmin: "xmin" is a column name SQLite or PostgreSQL keeps for itself$/],
      [{ properties: { ...base, rowid: { type: 'integer', title: 'R' } }, 'x-list': { quickSearch: ['rowid'] } }, /\/properties\/rowid: "rowid" is a column name/],
      [{ 'x-table': 'sqlite_stat1' }, /\/x-table: table names starting with "sqlite_" belong to the database's own catalog$/],
      [{ 'x-table': 'pg_stat_activity' }, /\/x-table: table names starting with "pg_" belong to the database's own catalog$/],
      [{ properties: { ...base, constructor: { type: 'string', title: 'C' } } }, /\/properties\/constructor: "constructor" is a name every JavaScript object has/],
      [{ properties: { ...base, kind: { type: 'string', title: 'K', enum: ['valueOf', 'plain'] } } }, /\/properties\/kind\/enum\/0: "valueOf" is a name every JavaScript object has/],
      [{ 'x-menu': { title: { 'zh-cn': '标'.repeat(51), en: 'Long' } } }, /\/x-menu\/title: ".*" is longer than the 50 characters a menu's title may have$/],
      [{ 'x-menu': { title: 'Heavy', weigh: 1e308 } }, /\/x-menu\/weigh: 1e\+308 is outside the whole numbers a column holds/],
      [{ 'x-list': { quickSearch: ['id', 'price_label'] }, properties: { ...base, price_label: { type: 'string', title: 'P', 'x-storage': 'virtual' } } }, /quickSearch\/1: "price_label" is not a column of the table/],
    ];
    for (const [schema, message] of refusals) {
      const refused = await upload(zip(schema));
      expect(refused.code, refused.msg).toBe(0);
      expect(refused.msg).toMatch(/^A schema of the module is not valid: /);
      expect(refused.msg).toMatch(message);
    }
    expect(await rules()).toEqual(before.rules);
    expect(await footprint()).toEqual(before.footprint);

    // seed rows the database refuses (the same key twice): the install stops with its reason, and leaves no
    // table, no rule, no design behind, so it can be corrected and installed again
    const seeded = zip({}, { 'seed/things.json': json({ $id: 'portable/thing', rows: [{ id: 1, name: 'One' }, { id: 1, name: 'Again' }] }) });
    expect((await upload(seeded)).code).toBe(1);
    const failed = await install('portable');
    expect(failed.code).toBe(0);
    expect(failed.msg).toMatch(/^A schema of the module is not valid: portable\/thing .*the database refused it: /);
    expect(await rules()).toEqual(before.rules);
    expect((await footprint()).tables).toEqual(before.footprint.tables);
    expect((await footprint()).designs).toEqual(before.footprint.designs);
    expect(await state('portable')).toBe(2);
    expect((await upload(zip({}, { 'seed/things.json': json({ $id: 'portable/thing', rows: [{ id: 1, name: 'One' }] }) }))).code).toBe(1);
    const installed = await install('portable');
    expect(installed.code, installed.msg).toBe(1);
    expect((await rowsOf('portable_thing')).map((row) => row.name)).toEqual(['One']);
    expect((await store('changeState', { body: { uid: 'portable', state: 0 } })).code).toBe(1);
    expect((await store('uninstall', { method: 'POST', query: { uid: 'portable', dropData: 1 } })).code).toBe(1);
  });

  it('answers only super administrators', async () => {
    const added = await server.admin('auth.Admin/add', { token, body: { username: 'storeclerk', nickname: 'Clerk', password: 'Clerk_pass1', email: 'clerk@example.com', mobile: '13712345678', group_arr: [2], status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const clerk = (await server.loginAdmin('storeclerk', 'Clerk_pass1')).token;
    const before = await footprint();
    for (const [action, request] of [['index', {}], ['state', { query: { uid: 'faq' } }], ['preview', { query: { uid: 'faq' } }], ['upload', { method: 'POST', query: { file: '/storage/x.zip' } }], ['install', { query: { uid: 'announcement' }, body: { extend: {} } }], ['changeState', { body: { uid: 'faq', state: 0 } }], ['uninstall', { method: 'POST', query: { uid: 'faq' } }]] as const) {
      const response: ApiResponse = await server.admin(`module/${action}`, { token: clerk, ...request });
      expect({ code: response.code, msg: response.msg }, action).toEqual({ code: 401, msg: 'Only super administrators can use the module store' });
    }
    expect((await server.admin('module/index', { token: clerk, lang: 'zh-cn' })).msg).toBe('只有超级管理员可以使用模块市场');
    expect((await server.admin('module/index')).code).toBe(303);
    expect(await footprint()).toEqual(before);
  });
});

describe('module store across two processes on one postgres database', { tags: 'full' }, () => {
  let first: TestServer;
  let second: TestServer;
  let dirs: string[];

  beforeAll(async () => {
    dirs = [copyProject('chidao-store-'), copyProject('chidao-store-')];
    first = await startTestServer('postgres', { schemasDir: join(dirs[0], 'schemas') });
    second = await startTestServer('postgres', { databaseUrl: first.databaseUrl, schemasDir: join(dirs[1], 'schemas') });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a module installed on one process is live on the other within 5 s, gone there when disabled, and back for the groups that held it when enabled', async () => {
    const token = (await first.loginAdmin()).token;
    const otherToken = (await second.loginAdmin()).token;
    const url = await uploadFile(first, token, gadgetZip());
    expect((await first.admin('module/upload', { token, method: 'POST', query: { file: url } })).code).toBe(1);
    expect((await second.admin<{ state: number }>('module/state', { token: otherToken, query: { uid: 'gadgets' } })).data.state).toBe(2);
    expect((await first.admin('module/install', { token, query: { uid: 'gadgets' }, body: { extend: {} } })).code).toBe(1);
    const took = await within(5_000, async () => expect((await second.admin('gadgets.Gadget/index', { token: otherToken })).code).toBe(1));
    console.log(`[postgres] an installed module is live on another process after ${took} ms`);
    expect((await second.admin('gadgets.Gadget/add', { token: otherToken, body: { name: 'Level' } })).code).toBe(1);
    // a group granted the list on the first process; its admin signed in on the second
    const ids = (await first.server.app.db.selectFrom('admin_rule').select('id').where('name', 'in', ['gadgets/gadget', 'gadgets/gadget/index']).execute()).map((rule) => Number(rule.id));
    expect((await first.admin('auth.Group/add', { token, body: { pid: 1, name: 'Gadget readers', rules: ids, status: '1' } })).code).toBe(1);
    const groupId = Number((await first.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Gadget readers').executeTakeFirstOrThrow()).id);
    expect((await first.admin('auth.Admin/add', { token, body: { username: 'reader', nickname: 'Reader', password: 'Reader_pass1', email: 'reader@example.com', mobile: '13712345670', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const reader = (await second.loginAdmin('reader', 'Reader_pass1')).token;
    expect((await second.admin('gadgets.Gadget/index', { token: reader })).code).toBe(1);
    expect((await first.admin('module/changeState', { token, body: { uid: 'gadgets', state: 0 } })).code).toBe(1);
    await within(5_000, async () => expect((await second.admin('gadgets.Gadget/index', { token: otherToken })).status).toBe(404));
    expect((await second.admin('gadgets.Gadget/index', { token: reader })).code).not.toBe(1);
    // enabled again on the first process: the reader lists again on the second
    expect((await first.admin('module/changeState', { token, body: { uid: 'gadgets', state: 1 } })).code).toBe(1);
    expect((await first.admin('module/install', { token, query: { uid: 'gadgets' }, body: { extend: {} } })).code).toBe(1);
    await within(5_000, async () => expect((await second.admin('gadgets.Gadget/index', { token: reader })).code).toBe(1));
  });
});
