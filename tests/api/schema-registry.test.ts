import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DestructiveMigrationError } from '../../src/server/db/migrate.js';
import { DATABASES, copyProject, startTestServer, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { catalogTables } from '../../src/server/db/table-catalog.js';

/**
 * The schema registry (issue "The CRUD designer", item 1): a schema made live at run time is served at
 * once — API, validation, menu, nodes, screen definitions — without a restart, on this process and
 * within 5 s on another one on the same database; it is kept with its history and written to `schemas/`;
 * a changed design renames with its data kept and refuses a destructive step unless confirmed.
 */

const ACTOR = { id: 1, username: 'admin' };

function gadget(extra: Record<string, unknown> = {}, properties: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $id: 'demo/gadget',
    title: { 'zh-cn': '小工具', en: 'Gadgets' },
    type: 'object',
    'x-table': 'gadget',
    'x-controller': 'demo.Gadget',
    'x-menu': { title: { 'zh-cn': '小工具', en: 'Gadgets' }, icon: 'fa fa-cube', weigh: 1 },
    'x-list': { quickSearch: ['name'], defaultSort: 'id,desc' },
    required: ['name'],
    properties: {
      id: { type: 'integer', title: 'ID', readOnly: true, 'x-ui': { list: true } },
      name: { type: 'string', title: { 'zh-cn': '名称', en: 'Name' }, minLength: 1, maxLength: 50, 'x-ui': { list: true, search: 'LIKE' } },
      price: { type: 'string', title: { 'zh-cn': '价格', en: 'Price' }, format: 'money' },
      create_time: { type: ['integer', 'null'], title: 'Create time', readOnly: true },
      update_time: { type: ['integer', 'null'], title: 'Update time', readOnly: true },
      ...properties,
    },
    ...extra,
  };
}

/** Poll until `check` passes, for at most `ms`; returns how long it took. */
async function within(ms: number, check: () => Promise<void> | void): Promise<number> {
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

describe.each(DATABASES)('schema registry on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    dir = copyProject('chidao-registry-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a new schema live without a restart: API, validation, menu, nodes and screen definitions', async () => {
    expect((await server.admin('demo.Gadget/index', { token })).status).toBe(404);
    const registry = server.server.app.schemas;
    const preview = await registry.preview(gadget());
    expect(preview.migration.steps[0]).toMatch(/^create table gadget \(id, name, price, create_time, update_time\)$/);
    expect(preview.migration.destructive).toEqual([]);
    expect((await server.admin('demo.Gadget/index', { token })).status).toBe(404);

    const started = performance.now();
    await registry.apply(gadget(), ACTOR);
    const took = performance.now() - started;
    console.log(`[${kind}] a new schema is live on the designing process after ${took.toFixed(0)} ms`);

    const added = await server.admin('demo.Gadget/add', { token, body: { name: 'Spanner', price: '12.50' } });
    expect(added.code, added.msg).toBe(1);
    const list = await server.admin<{ list: { name: string; price: string }[]; total: number }>('demo.Gadget/index', { token });
    expect(list.data.list).toMatchObject([{ name: 'Spanner', price: '12.50' }]);
    const invalid = await server.admin('demo.Gadget/add', { token, body: { price: '1.00' } });
    expect(invalid.code).toBe(0);
    expect(invalid.msg).toContain('Name');
    expect((await server.admin('demo.Gadget/add', { token, body: { price: '1.00' }, lang: 'zh-cn' })).msg).toContain('名称');

    const index = await server.admin<{ menus: { name: string; title: string }[]; definitions: { id: string }[] }>('Index/index', { token });
    expect(index.data.menus.map((menu) => menu.name)).toContain('demo/gadget');
    expect(index.data.definitions.map((definition) => definition.id)).toContain('demo/gadget');
    const nodes = (await server.server.app.db.selectFrom('admin_rule').select('name').where('name', 'like', 'demo/gadget/%').orderBy('name').execute()) as { name: string }[];
    expect(nodes.map((node) => node.name)).toEqual(['demo/gadget/add', 'demo/gadget/del', 'demo/gadget/edit', 'demo/gadget/export', 'demo/gadget/index']);

    const history = await registry.history('demo/gadget');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'create', version: 1, adminUsername: 'admin' });
    expect(history[0].diff).toContain(`+ field name: ${JSON.stringify((gadget().properties as Record<string, unknown>).name)}`);
    expect(JSON.parse(readFileSync(join(dir, 'schemas/demo/gadget.json'), 'utf8'))).toEqual(gadget());
  });

  it('edits a live design: a rename keeps the data, a dropped column is refused until confirmed', async () => {
    const registry = server.server.app.schemas;
    const { name, ...others } = gadget().properties as Record<string, Record<string, unknown>>;
    const renamed = gadget({ required: ['label'], 'x-list': { quickSearch: ['label'], defaultSort: 'id,desc' }, properties: { ...others, label: { ...name, 'x-renamedFrom': 'name' } } });
    await registry.apply(renamed, ACTOR);
    const list = await server.admin<{ list: { label: string; name?: string }[] }>('demo.Gadget/index', { token });
    expect(list.data.list[0]).toMatchObject({ label: 'Spanner' });
    expect(list.data.list[0].name).toBeUndefined();

    const { price: _price, ...withoutPrice } = (renamed.properties as Record<string, unknown>);
    const dropped = { ...renamed, properties: withoutPrice };
    const preview = await registry.preview(dropped);
    expect(preview.migration.destructive).toEqual([expect.stringContaining('column "gadget.price" would be dropped')]);
    // By name: the registry may be the server bundle's (TEST_SERVER=bundle), whose classes are its own.
    await expect(registry.apply(dropped, ACTOR)).rejects.toMatchObject({ name: DestructiveMigrationError.name, problems: [expect.stringContaining('column "gadget.price" would be dropped')] });
    expect((await server.admin<{ list: { price: string }[] }>('demo.Gadget/index', { token })).data.list[0].price).toBe('12.50');
    await registry.apply(dropped, ACTOR, { allowDestructive: true });
    expect((await server.admin<{ list: Record<string, unknown>[] }>('demo.Gadget/index', { token })).data.list[0]).not.toHaveProperty('price');

    const history = await registry.history('demo/gadget');
    expect(history.map((entry) => [entry.action, entry.version])).toEqual([['update', 3], ['update', 2], ['create', 1]]);
    expect(history[1].diff).toContain('~ field name → label');
    expect(history[0].diff).toContain('- field price');
  });

  it('starts again with the design and its identical copy in schemas/, and refuses a copy that differs from it', async () => {
    const again = await startTestServer(kind, { databaseUrl: server.databaseUrl, schemasDir: join(dir, 'schemas') });
    try {
      const login = await again.loginAdmin();
      expect((await again.admin<{ list: { label: string }[] }>('demo.Gadget/index', { token: login.token })).data.list[0].label).toBe('Spanner');
    } finally {
      await again.close();
    }
    const file = join(dir, 'schemas/demo/gadget.json');
    const copy = readFileSync(file, 'utf8');
    writeFileSync(file, copy.replace('"Gadgets"', '"Gadget list"'));
    try {
      await expect(startTestServer(kind, { databaseUrl: server.databaseUrl, schemasDir: join(dir, 'schemas') })).rejects.toThrow(
        /schemas\/demo\/gadget\.json.*"demo\/gadget" is also a schema designed in the back office/s,
      );
    } finally {
      writeFileSync(file, copy);
    }
  });

  it('a schema file either database would refuse stops start-up, naming the file and the field', async () => {
    const file = join(dir, 'schemas/demo/portable.json');
    writeFileSync(file, JSON.stringify(gadget({ $id: 'demo/portable', 'x-table': 'demo_portable', 'x-controller': 'demo.Portable' }, { ctid: { type: 'string', title: 'Row' } })));
    try {
      await expect(startTestServer(kind, { databaseUrl: server.databaseUrl, schemasDir: join(dir, 'schemas') })).rejects.toThrow(
        'schemas/demo/portable.json: /properties/ctid: "ctid" is a column name SQLite or PostgreSQL keeps for itself',
      );
    } finally {
      rmSync(file);
    }
  });

  it('a menu whose parent names no menu stops start-up, naming the file, the field and the parent, and makes nothing', async () => {
    const file = join(dir, 'schemas/demo/orphan.json');
    writeFileSync(file, JSON.stringify(gadget({ $id: 'demo/orphan', 'x-table': 'demo_orphan', 'x-controller': 'demo.Orphan', 'x-menu': { title: 'Orphans', parent: 'nowhere' } })));
    try {
      await expect(startTestServer(kind, { databaseUrl: server.databaseUrl, schemasDir: join(dir, 'schemas') })).rejects.toThrow(
        'schemas/demo/orphan.json: /x-menu/parent: the parent menu "nowhere" does not exist: no admin rule has that name and no schema declares it',
      );
    } finally {
      rmSync(file);
    }
    expect(await catalogTables(server.server.app.handle)).not.toContain('demo_orphan');
    const rules = await server.server.app.db.selectFrom('admin_rule').select('name').where('name', 'like', 'demo/orphan%').execute();
    expect(rules).toEqual([]);
  });

  it('refuses a design whose menu parent names no menu, in its preview too, and changes nothing', async () => {
    const registry = server.server.app.schemas;
    const orphan = gadget({ $id: 'demo/orphan', 'x-table': 'demo_orphan', 'x-controller': 'demo.Orphan', 'x-menu': { title: 'Orphans', parent: 'Nowhere/else' } });
    const refusal = /demo\/orphan \(designed in the back office\): \/x-menu\/parent: the parent menu "Nowhere\/else" does not exist/;
    await expect(registry.preview(orphan)).rejects.toThrow(refusal);
    await expect(registry.apply(orphan, ACTOR)).rejects.toThrow(refusal);
    expect((await registry.designs()).map((design) => design.id)).toEqual(['demo/gadget']);
    expect(await catalogTables(server.server.app.handle)).not.toContain('demo_orphan');
    expect(existsSync(join(dir, 'schemas/demo/orphan.json'))).toBe(false);
  });

  it('puts a menu under another schema’s menu added with it, whichever comes first', async () => {
    const registry = server.server.app.schemas;
    const shelf = gadget({ $id: 'demo/shelf', 'x-table': 'demo_shelf', 'x-controller': 'demo.Shelf', 'x-menu': { title: 'Shelves', parent: 'demo/rack' } });
    const rack = gadget({ $id: 'demo/rack', 'x-table': 'demo_rack', 'x-controller': 'demo.Rack', 'x-menu': { title: 'Racks', parent: 'auth' } });
    await registry.apply([{ raw: shelf }, { raw: rack }], ACTOR);
    try {
      const rules = (await server.server.app.db.selectFrom('admin_rule').select(['id', 'pid', 'name']).where('name', 'in', ['auth', 'demo/rack', 'demo/shelf']).execute()) as { id: number; pid: number; name: string }[];
      const id = (name: string) => Number(rules.find((rule) => rule.name === name)?.id);
      expect(Number(rules.find((rule) => rule.name === 'demo/shelf')?.pid)).toBe(id('demo/rack'));
      expect(Number(rules.find((rule) => rule.name === 'demo/rack')?.pid)).toBe(id('auth'));
    } finally {
      await registry.remove(['demo/shelf', 'demo/rack'], ACTOR);
    }
  });

  it('refuses a design with the $id of a project schema, or with its table, and changes nothing', async () => {
    const registry = server.server.app.schemas;
    await expect(registry.apply(gadget({ $id: 'team/team' }), ACTOR)).rejects.toThrow(/"team\/team" is a schema of the project/);
    await expect(registry.apply(gadget({ $id: 'demo/other', 'x-table': 'team', 'x-controller': 'demo.Other' }), ACTOR)).rejects.toThrow(/table "team" is also declared by schemas\/team\/team\.json/);
    await expect(registry.apply(gadget({ $id: 'demo/other', 'x-table': 'other', 'x-controller': 'demo.Other', 'x-bogus': 1 }), ACTOR)).rejects.toThrow(/unknown x- keyword "x-bogus"/);
    expect((await registry.designs()).map((design) => design.id)).toEqual(['demo/gadget']);
    expect(existsSync(join(dir, 'schemas/demo/other.json'))).toBe(false);
  });

  it('installs a module’s schemas together, with their locale texts and seed rows, and removes them together', async () => {
    const registry = server.server.app.schemas;
    const shelf = {
      $id: 'library/shelf', title: 'Shelf', type: 'object', 'x-table': 'lib_shelf', 'x-controller': 'library.Shelf',
      'x-menu': { title: 'Shelves', parent: { name: 'library', title: { 'zh-cn': '图书馆', en: 'Library' } } },
      'x-seed': [{ id: 1, name: 'Fiction' }], required: ['name'],
      properties: { id: { type: 'integer', title: 'ID', readOnly: true }, name: { type: 'string', title: 'Name', maxLength: 40, 'x-ui': { list: true } } },
    };
    const book = {
      $id: 'library/book', title: { 'zh-cn': '图书', en: 'Books' }, type: 'object', 'x-table': 'lib_book', 'x-controller': 'library.Book',
      'x-menu': { title: { 'zh-cn': '图书', en: 'Books' }, parent: 'library' }, required: ['title'],
      properties: {
        id: { type: 'integer', title: 'ID', readOnly: true },
        title: { type: 'string', title: { 'zh-cn': '书名', en: 'Title' }, maxLength: 80 },
        shelf_id: { type: 'integer', title: { 'zh-cn': '书架', en: 'Shelf' }, 'x-ref': { resource: 'library/shelf', label: 'name' } },
      },
    };
    await expect(registry.apply(book, ACTOR)).rejects.toThrow(/unknown resource "library\/shelf"/);
    await registry.apply([{ raw: book }, { raw: shelf, locale: { 'zh-cn': { title: '书架', fields: { name: '名称' } } } }], ACTOR);
    const shelves = await server.admin<{ list: { id: number; name: string }[] }>('library.Shelf/index', { token });
    expect(shelves.data.list).toMatchObject([{ id: 1, name: 'Fiction' }]);
    const added = await server.admin('library.Book/add', { token, body: { title: 'Dune', shelf_id: 1 } });
    expect(added.code, added.msg).toBe(1);
    const index = await server.admin<{ definitions: { id: string; title: Record<string, string>; fields: { name: string; title: Record<string, string> }[] }[] }>('Index/index', { token });
    const shelfDefinition = index.data.definitions.find((definition) => definition.id === 'library/shelf');
    expect(shelfDefinition?.title).toEqual({ 'zh-cn': '书架', en: 'Shelf' });
    expect(shelfDefinition?.fields.find((field) => field.name === 'name')?.title).toEqual({ 'zh-cn': '名称', en: 'Name' });
    expect(JSON.parse(readFileSync(join(dir, 'locales/zh-cn/schemas/library/shelf.json'), 'utf8'))).toEqual({ title: '书架', fields: { name: '名称' } });

    await expect(registry.remove('library/shelf', ACTOR)).rejects.toThrow(/unknown resource "library\/shelf"/);
    await registry.remove(['library/book', 'library/shelf'], ACTOR);
    expect((await server.admin('library.Book/index', { token })).status).toBe(404);
    expect((await server.admin('library.Shelf/index', { token })).status).toBe(404);
    expect(existsSync(join(dir, 'locales/zh-cn/schemas/library/shelf.json'))).toBe(false);
  });

  it('removes a design: API, menu and nodes go, the table and its rows stay', async () => {
    const registry = server.server.app.schemas;
    await registry.remove('demo/gadget', ACTOR);
    expect((await server.admin('demo.Gadget/index', { token })).status).toBe(404);
    const rules = await server.server.app.db.selectFrom('admin_rule').select('name').where('name', 'like', 'demo/gadget%').execute();
    expect(rules).toEqual([]);
    expect(await dynamicDb(server.server.app.db).selectFrom('gadget').select('label').execute()).toEqual([{ label: 'Spanner' }]);
    expect(existsSync(join(dir, 'schemas/demo/gadget.json'))).toBe(false);
    expect((await registry.history('demo/gadget'))[0]).toMatchObject({ action: 'delete', version: 4 });
  });
});

describe('schema registry across two processes on one postgres database', { tags: 'full' }, () => {
  let dir: string;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    dir = copyProject('chidao-registry-');
    first = await startTestServer('postgres', { schemasDir: join(dir, 'schemas') });
    // the second process has its own copy of schemas/: it learns of the design from the database only
    const other = copyProject('chidao-registry-');
    second = await startTestServer('postgres', { databaseUrl: first.databaseUrl, schemasDir: join(other, 'schemas') });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the second process serves a resource designed on the first within 5 s, and drops it when removed', async () => {
    const token = (await second.loginAdmin()).token;
    expect((await second.admin('demo.Gadget/index', { token })).status).toBe(404);
    await first.server.app.schemas.apply(gadget(), ACTOR);
    const took = await within(5_000, async () => expect((await second.admin('demo.Gadget/index', { token })).code).toBe(1));
    console.log(`[postgres] a new schema is live on another process after ${took} ms`);
    const added = await second.admin('demo.Gadget/add', { token, body: { name: 'Hammer' } });
    expect(added.code, added.msg).toBe(1);
    const menus = await second.admin<{ menus: { name: string }[] }>('Index/index', { token });
    expect(menus.data.menus.map((menu) => menu.name)).toContain('demo/gadget');

    await first.server.app.schemas.remove('demo/gadget', ACTOR);
    await within(5_000, async () => expect((await second.admin('demo.Gadget/index', { token })).status).toBe(404));
  });

  it('a process started after a design and a module follows later changes within 5 s, serves the revision it reports, and runs the module store', async () => {
    const token = (await first.loginAdmin()).token;
    await first.server.app.schemas.apply(gadget(), ACTOR);
    expect((await first.admin('module/install', { token, query: { uid: 'faq' }, body: { extend: {} } })).code).toBe(1);
    // on the first process's machine: its schemas/ holds the design's copy
    const late = await startTestServer('postgres', { databaseUrl: first.databaseUrl, schemasDir: join(dir, 'schemas') });
    try {
      const lateToken = (await late.loginAdmin()).token;
      const revision = async (server: TestServer, as: string) => (await server.admin<{ revision: number }>('Index/schemaRevision', { token: as })).data.revision;

      // a column renamed on the first process: the late one writes and reads it under its new name
      const { name, ...others } = gadget().properties as Record<string, Record<string, unknown>>;
      await first.server.app.schemas.apply(gadget({ required: ['label'], 'x-list': { quickSearch: ['label'], defaultSort: 'id,desc' }, properties: { ...others, label: { ...name, 'x-renamedFrom': 'name' } } }), ACTOR);
      const took = await within(5_000, async () => {
        const added = await late.admin('demo.Gadget/add', { token: lateToken, body: { label: 'Chisel' } });
        expect(added.code, added.msg).toBe(1);
      });
      console.log(`[postgres] a renamed column is served by a process started after the design within ${took} ms`);
      expect((await late.admin<{ list: { label: string }[] }>('demo.Gadget/index', { token: lateToken })).data.list[0].label).toBe('Chisel');
      expect(await revision(late, lateToken)).toBe(await revision(first, token));

      // the module store through the late process: disable, enable and install again, each seen by the first
      const store = (action: string, body: Record<string, unknown>, query?: Record<string, unknown>) => late.admin(`module/${action}`, { token: lateToken, body, query });
      const disabled = await store('changeState', { uid: 'faq', state: 0 });
      expect(disabled.code, disabled.msg).toBe(1);
      await within(5_000, async () => expect((await first.admin('faq.Question/index', { token })).status).toBe(404));
      expect((await store('changeState', { uid: 'faq', state: 1 })).code).toBe(1);
      const reinstalled = await store('install', { extend: {} }, { uid: 'faq' });
      expect(reinstalled.code, reinstalled.msg).toBe(1);
      await within(5_000, async () => expect((await first.admin('faq.Question/index', { token })).code).toBe(1));

      // a module installed on the first process reaches the late one
      expect((await first.admin('module/install', { token, query: { uid: 'announcement' }, body: { extend: {} } })).code).toBe(1);
      await within(5_000, async () => expect((await late.admin('announcement.Notice/index', { token: lateToken })).code).toBe(1));
      expect(await revision(late, lateToken)).toBe(await revision(first, token));

      // disabled on the first and at once enabled and installed through the late one, before its next look
      // at the revision: the clash checks weigh the set as stored, not the module it still serves
      expect((await first.admin('module/changeState', { token, body: { uid: 'announcement', state: 0 } })).code).toBe(1);
      expect((await store('changeState', { uid: 'announcement', state: 1 })).code).toBe(1);
      const again = await store('install', { extend: {} }, { uid: 'announcement' });
      expect(again.code, again.msg).toBe(1);
      await within(5_000, async () => expect((await first.admin('announcement.Notice/index', { token })).code).toBe(1));
    } finally {
      await late.close();
    }
  });
});
