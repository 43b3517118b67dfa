import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, PROJECT_ROOT, copyProject, startTestServer, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { field, PRODUCT_FIELDS, productTable } from '../support/crud-design.js';

/**
 * BuildAdmin's CRUD generator against our server (issue "The CRUD designer", items 4–6): the calls its
 * start, design and log screens make, with the bodies its `design.vue` posts (written out by hand in tests/support/crud-design.ts),
 * answered in its shapes — and what `generate` makes is a schema, live at once: API, validation, menu,
 * nodes. Edits keep data through renames and refuse a destructive step until confirmed; delete keeps the
 * table unless asked; a design starts from any table; every bad input is refused with nothing created.
 */

type Row = Record<string, unknown>;

/**
 * `npm run gen:check` over the test's schema folder (as the web terminal's "generate the types" reads the
 * project's): its exit code and what it printed. 0 means the committed generated files are what it makes.
 */
async function genCheck(schemasDir: string): Promise<{ code: number; output: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/gen-types.ts', '--check', `--schemas=${schemasDir}`], { cwd: PROJECT_ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
}

/** The test that runs the type generation twice (a Node process each, compiling every schema's types): room on two busy cores. */
const GEN_CHECK_TIMEOUT_MS = 120_000;

describe.each(DATABASES)('the CRUD designer through BuildAdmin’s calls on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;
  let logId = 0;

  const crud = <T = unknown>(action: string, request: { body?: unknown; query?: Row; lang?: 'en' | 'zh-cn'; as?: string } = {}) =>
    server.admin<T>(`crud.Crud/${action}`, { token: request.as ?? token, body: request.body, query: request.query, lang: request.lang });

  /** What a refused design must leave untouched: no design, no log row, no table, no menu. */
  async function nothingCreated(): Promise<{ designs: number; logs: number; tables: string[] }> {
    const db = dynamicDb(server.server.app.db);
    const logs = (await db.selectFrom('crud_log').select('id').execute()).length;
    const tables = (await db.introspection.getTables()).map((table) => table.name).filter((name) => /^test_|^bad|^dashboard$/.test(name));
    return { designs: (await server.server.app.schemas.designs()).length, logs, tables };
  }

  beforeAll(async () => {
    dir = copyProject('chidao-crud-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates a module from BuildAdmin’s design: live at once with its API, validation, menu and nodes', async () => {
    expect((await crud('generateCheck', { body: { table: 'test_product', connection: '', controllerFile: 'app/admin/controller/test/Product.php' } })).code).toBe(1);
    expect((await server.admin('test.Product/index', { token })).status).toBe(404);
    // ours: the migration shown before anything is applied
    const preview = await crud<{ schema: Row; definition: { id: string; fields: { name: string }[] }; migration: { steps: string[]; destructive: string[] } }>('preview', { body: { type: 'create', table: productTable(), fields: PRODUCT_FIELDS } });
    expect(preview.code, preview.msg).toBe(1);
    // the definition the designer's live preview draws the list and the form from
    expect(preview.data.definition).toMatchObject({ id: 'crud/test_product', fields: expect.arrayContaining([expect.objectContaining({ name: 'kind' })]) });
    const revision = (await server.admin<{ revision: number }>('Index/schemaRevision', { token })).data.revision;
    expect(preview.data.migration).toMatchObject({ steps: [expect.stringMatching(/^create table test_product /), ...Array(preview.data.migration.steps.length - 1).fill(expect.stringMatching(/^add index /))], destructive: [] });
    expect((await server.admin('test.Product/index', { token })).status).toBe(404);

    const started = performance.now();
    const generated = await crud<{ id: string; migration: { steps: string[] } }>('generate', { body: { type: 'create', table: productTable(), fields: PRODUCT_FIELDS } });
    console.log(`[${kind}] generate → live in ${(performance.now() - started).toFixed(0)} ms`);
    expect(generated.code, generated.msg).toBe(1);
    expect(generated.data.id).toBe('crud/test_product');
    // the open back office learns of the change from the revision it polls, and its menus carry the revision they are of
    expect((await server.admin<{ revision: number }>('Index/schemaRevision', { token })).data.revision).toBe(revision + 1);
    expect((await server.admin<{ schemaRevision: number }>('Index/index', { token })).data.schemaRevision).toBe(revision + 1);
    expect(generated.data.migration.steps[0]).toMatch(/^create table test_product \(id, title, price, status, kind, tags, cover, owner_id, weigh, create_time, update_time\)$/);

    const added = await server.admin('test.Product/add', { token, body: { title: 'Desk', price: 12.5, status: 1, kind: 'opt1', tags: ['hot', 'new'], owner_id: 1, weigh: 3 } });
    expect(added.code, added.msg).toBe(1);
    const list = await server.admin<{ list: Row[]; total: number }>('test.Product/index', { token, query: { quickSearch: 'Desk' } });
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({ title: 'Desk', price: 12.5, status: 1, kind: 'opt1', tags: ['hot', 'new'], owner_id: 1, weigh: 3 });
    const id = Number(list.data.list[0].id);
    expect((await server.admin('test.Product/edit', { token, body: { id, title: 'Standing desk' } })).code).toBe(1);
    expect((await server.admin<{ row: Row }>('test.Product/edit', { token, query: { id } })).data.row).toMatchObject({ title: 'Standing desk', kind: 'opt1' });

    // validation from the design: title required, the radio's values, the switch's 0/1
    const missing = await server.admin('test.Product/add', { token, body: { price: 1 }, lang: 'zh-cn' });
    expect(missing.code).toBe(0);
    expect(missing.msg).toContain('标题');
    expect((await server.admin('test.Product/add', { token, body: { title: 'X', kind: 'opt9' } })).code).toBe(0);
    expect((await server.admin('test.Product/add', { token, body: { title: 'X', status: 5 } })).code).toBe(0);
    expect((await server.admin('test.Product/del', { token, method: 'DELETE', query: { ids: [id] } })).code).toBe(1);
    expect((await server.admin<{ total: number }>('test.Product/index', { token })).data.total).toBe(0);

    // the menu under BuildAdmin's directory `test`, titled as its generator titles it ("…表" → "…管理"), and its nodes
    const index = await server.admin<{ menus: { name: string; title: string; children?: { name: string; title: string }[] }[] }>('Index/index', { token, lang: 'zh-cn' });
    const directory = index.data.menus.find((menu) => menu.name === 'test');
    expect(directory?.children?.find((menu) => menu.name === 'test/product')?.title).toBe('测试商品管理');
    const nodes = (await server.server.app.db.selectFrom('admin_rule').select('name').where('name', 'like', 'test/product/%').orderBy('name').execute()) as { name: string }[];
    expect(nodes.map((node) => node.name)).toEqual(['test/product/add', 'test/product/del', 'test/product/edit', 'test/product/export', 'test/product/index', 'test/product/sortable']);
    // the schema was written where a developer can commit it
    expect(JSON.parse(readFileSync(join(dir, 'schemas/crud/test_product.json'), 'utf8'))).toMatchObject({ $id: 'crud/test_product', 'x-table': 'test_product', 'x-controller': 'test.Product' });

    // the log screen: its row, `checkCrudLog`, and `generateCheck` now asking whether to go on (code -1)
    const log = await server.admin<{ list: Row[] }>('crud.Log/index', { token });
    expect(log.data.list[0]).toMatchObject({ table_name: 'test_product', status: 'success' });
    logId = Number(log.data.list[0].id);
    // BuildAdmin's log screen reads the design as its model casts it: `table` an object, `fields` an array, in index and edit
    expect(log.data.list[0].table).toMatchObject({ name: 'test_product', comment: '测试商品表' });
    expect((log.data.list[0].fields as Row[]).map((item) => item.name)).toEqual(PRODUCT_FIELDS.map((item) => item.name));
    const logRow = (await server.admin<{ row: Row }>('crud.Log/edit', { token, query: { id: logId } })).data.row;
    expect(logRow.table).toMatchObject({ name: 'test_product' });
    expect(Array.isArray(logRow.fields)).toBe(true);
    expect((await crud<{ id: number }>('checkCrudLog', { query: { table: 'test_product', connection: '' } })).data).toEqual({ id: logId });
    expect((await crud<{ id: number }>('checkCrudLog', { query: { table: 'nothing_here', connection: '' } })).data).toEqual({ id: 0 });
    expect(await crud('generateCheck', { body: { table: 'test_product', connection: '', controllerFile: '' } })).toMatchObject({
      code: -1,
      msg: 'The module of table test_product already exists: generating changes it to this design. Its rows are kept; a change that would lose data is shown and needs your confirmation',
      data: { table: true, controller: true },
    });
    expect((await crud('generateCheck', { body: { table: 'test_product' }, lang: 'zh-cn' })).msg).toBe('数据表 test_product 的模块已存在：生成会按此设计修改它。已有数据会保留；会丢失数据的修改会先列出，确认后才执行');
  });

  it('previews a design written in English only as written in Chinese too, and lists every text without Chinese', async () => {
    type Gap = { language: string; at: string[]; shown: string };
    type Preview = { definition: { title: Record<string, string>; fields: { name: string; title: Record<string, string> }[] }; textGaps: Gap[] };
    const english = [
      field('id', 'pk', { type: 'int', length: 10, defaultType: 'NONE', primaryKey: true, unsigned: true, autoIncrement: true, comment: 'ID' }),
      field('sku', 'string', { length: 20, comment: 'SKU' }),
      field('name', 'string', { length: 100, comment: 'Name' }),
    ];
    const preview = await crud<Preview>('preview', { body: { type: 'create', table: productTable({ name: 'test_item', comment: 'Item', formFields: ['sku', 'name'], columnFields: ['id', 'sku', 'name'], defaultSortField: 'id', quickSearchField: ['id'] }), fields: english } });
    expect(preview.code, preview.msg).toBe(1);
    // "Name" is in the glossary (名称), but the design writes no Chinese: it shows as written
    const titles = Object.fromEntries(preview.data.definition.fields.map((item) => [item.name, item.title['zh-cn']]));
    expect(titles).toEqual({ id: 'ID', sku: 'SKU', name: 'Name' });
    // (and the menu directory the design's table prefix makes, whatever it is titled)
    expect(preview.data.textGaps.every((gap) => gap.language === 'zh-cn')).toBe(true);
    expect(preview.data.textGaps).toEqual(
      expect.arrayContaining([
        { language: 'zh-cn', at: ['title'], shown: 'Item' },
        { language: 'zh-cn', at: ['fields', 'id', 'title'], shown: 'ID' },
        { language: 'zh-cn', at: ['fields', 'sku', 'title'], shown: 'SKU' },
        { language: 'zh-cn', at: ['fields', 'name', 'title'], shown: 'Name' },
        { language: 'zh-cn', at: ['menu', 'title'], shown: 'Item' },
      ]),
    );

    const labelled = english.map((item) => ({ ...item, label: { 'zh-cn': `${String(item.comment)}（中）`, en: item.comment } }));
    const both = await crud<Preview>('preview', { body: { type: 'create', table: productTable({ name: 'test_item', comment: 'Item', title: { 'zh-cn': '物品', en: 'Item' }, formFields: ['sku', 'name'], columnFields: ['id', 'sku', 'name'], defaultSortField: 'id', quickSearchField: ['id'] }), fields: labelled } });
    expect(both.code, both.msg).toBe(1);
    expect(both.data.textGaps.filter((gap) => gap.at.join('.') !== 'menu.parent')).toEqual([]);
  });

  it('edits the module from its log: a rename keeps the data, a dropped field is refused until confirmed, each version kept', async () => {
    expect((await server.admin('test.Product/add', { token, body: { title: 'Lamp', price: 5 } })).code).toBe(1);
    const start = await crud<{ table: Row; fields: Row[] }>('logStart', { body: { id: logId } });
    expect(start.code, start.msg).toBe(1);
    expect(start.data.table).toMatchObject({ name: 'test_product', comment: '测试商品表', empty: false });
    expect(start.data.fields.map((item) => item.name)).toEqual(PRODUCT_FIELDS.map((item) => item.name));

    // `design.vue` after renaming `title` to `name` and adding `stock`: its designChange records both
    const renamed = start.data.fields.map((item) => (item.name === 'title' ? { ...item, name: 'name' } : item));
    const withStock = [...renamed, field('stock', 'number', { type: 'int', length: 10, default: '0', defaultType: 'INPUT', comment: '库存', table: { render: 'none', operator: 'RANGE', sortable: 'false' }, form: { validator: ['number'], validatorMsg: '' } })];
    const table = productTable({
      quickSearchField: ['id', 'name'], formFields: ['name', 'price', 'status', 'kind', 'tags', 'cover', 'owner_id', 'weigh', 'stock'],
      designChange: [{ type: 'change-field-name', index: 1, oldName: 'title', newName: 'name', sync: true }, { type: 'add-field', index: 11, oldName: '', newName: 'stock', sync: true }],
    });
    const edited = await crud('generate', { body: { type: 'log', table, fields: withStock } });
    expect(edited.code, edited.msg).toBe(1);
    const rows = await server.admin<{ list: Row[] }>('test.Product/index', { token });
    expect(rows.data.list[0]).toMatchObject({ name: 'Lamp', price: 5, stock: 0 });
    expect(rows.data.list[0]).not.toHaveProperty('title');

    // dropping `price` loses data: refused, named, nothing changed; with BuildAdmin's "rebuild" it goes through
    const withoutPrice = withStock.filter((item) => item.name !== 'price');
    const refused = await crud<{ destructive: string[] }>('generate', { body: { type: 'log', table: { ...table, designChange: [] }, fields: withoutPrice } });
    expect(refused.code).toBe(0);
    expect(refused.msg).toMatch(/^This change would lose data; confirm it to apply it: Field .*\(price\) is removed: the values it holds are deleted$/);
    expect(refused.data.destructive).toHaveLength(1);
    expect((await crud('generate', { body: { type: 'log', table: { ...table, designChange: [] }, fields: withoutPrice }, lang: 'zh-cn' })).msg).toMatch(/^此修改会丢失数据，确认后才会执行：/);
    expect((await server.admin<{ list: Row[] }>('test.Product/index', { token })).data.list[0].price).toBe(5);
    const confirmed = await crud('generate', { body: { type: 'log', table: { ...table, designChange: [], rebuild: 'Yes' }, fields: withoutPrice } });
    expect(confirmed.code, confirmed.msg).toBe(1);
    expect((await server.admin<{ list: Row[] }>('test.Product/index', { token })).data.list[0]).not.toHaveProperty('price');

    const history = await crud<{ list: { version: number; action: string; adminUsername: string; diff: string[] }[] }>('history', { query: { table: 'test_product' } });
    expect(history.data.list.map((entry) => [entry.version, entry.action])).toEqual([[3, 'update'], [2, 'update'], [1, 'create']]);
    expect(history.data.list[1].diff).toContain('~ field title → name');
    expect(history.data.list[0].diff).toContain('- field price');
    expect(history.data.list[0].adminUsername).toBe('admin');
    // the diff between any two versions: the first and the last
    const between = await crud<{ diff: string[] }>('history', { query: { table: 'test_product', from: 1, to: 3 } });
    expect(between.data.diff).toEqual(expect.arrayContaining(['- field title', '- field price', expect.stringMatching(/^\+ field name: /), expect.stringMatching(/^\+ field stock: /)]));
  });

  it('refuses every bad design with a clear message and creates nothing', async () => {
    const before = await nothingCreated();
    const refusals: [Row, RegExp][] = [
      [{ table: productTable({ name: 'a; DROP TABLE admin' }), fields: PRODUCT_FIELDS }, /^Table name "a; DROP TABLE admin" is not allowed/],
      [{ table: productTable({ name: 'select' }), fields: PRODUCT_FIELDS }, /^Table name "select" is not allowed/],
      [{ table: productTable({ name: 'schema_state' }), fields: PRODUCT_FIELDS }, /^Table "schema_state" is reserved for the system$/],
      [{ table: productTable({ name: 'admin' }), fields: PRODUCT_FIELDS }, /^Table "admin" belongs to the resource "system\/admin"/],
      [{ table: productTable({ name: 'dashboard' }), fields: PRODUCT_FIELDS }, /^The controller Dashboard or the menu dashboard is already used by another module$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('bad-name', 'string')] }, /^Field name "bad-name" is not allowed/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('title', 'string')] }, /^Field title appears more than once$/],
      [{ table: productTable({ name: 'bad_one' }), fields: PRODUCT_FIELDS.filter((item) => item.designType !== 'pk') }, /^The design needs exactly one primary key field$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [{ ...PRODUCT_FIELDS[0], designType: 'spk' }, ...PRODUCT_FIELDS.slice(1)] }, /^Field ID \(id\): snowflake primary keys are not supported here/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('secret', 'password')] }, /^Field secret: a password field is not supported/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('flux', 'flux')] }, /^Field flux: unknown design type "flux"$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('mood', 'select', { comment: 'Mood' })] }, /^Field Mood \(mood\): its options are written as/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('ref_id', 'remoteSelect', { form: { 'remote-table': 'no_such_table', 'remote-field': 'name' } })] }, /^Field ref_id: the related table "no_such_table" is not a resource$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('code', 'string', { form: { validator: ['idCard'] } })] }, /^Field code: the validator "idCard" is not supported here$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('code', 'string', { table: { operator: '; DROP' } })] }, /^Field code: the search operator "; DROP" is not supported$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [...PRODUCT_FIELDS, field('ref_id', 'remoteSelect', { form: { 'remote-table': 'admin', 'remote-field': 'no_such_field' } })] }, /^Field ref_id: "Administrator" has no field "no_such_field" to show as the label$/],
      [{ table: productTable({ name: '' }), fields: PRODUCT_FIELDS }, /^The design needs a table name and at least one field$/],
      [{ table: productTable({ name: 'bad_one' }), fields: [] }, /^The design needs a table name and at least one field$/],
    ];
    for (const [body, message] of refusals) {
      const response = await crud('generate', { body: { type: 'create', ...body } });
      expect(response.code, `${String(message)} → ${response.msg}`).toBe(0);
      expect(response.msg).toMatch(message);
    }
    expect((await crud('generate', { body: { type: 'create', table: productTable({ name: 'select' }), fields: PRODUCT_FIELDS }, lang: 'zh-cn' })).msg).toBe(
      '数据表名“select”不可用：只能使用小写字母、数字和“_”，以字母开头，最多 40 个字符，且不能是 SQL 关键字',
    );
    expect((await crud('parseFieldData', { body: { type: 'sql', sql: 'CREATE TABLE x (id int)', table: '', connection: '' } })).msg).toBe('Only an existing table can be a starting point here; starting from SQL is not supported');
    expect((await crud('generateCheck', { body: { table: 'a b' } })).msg).toMatch(/^Table name "a b" is not allowed/);
    expect(await nothingCreated()).toEqual(before);
    expect(existsSync(join(dir, 'schemas/crud/bad_one.json'))).toBe(false);
  });

  it('refuses, before writing anything, a design one of the two databases would refuse: kept column names, JavaScript names, a menu text too long for the rule table, a weight beyond a whole number', async () => {
    const before = await nothingCreated();
    const rules = async () => (await server.server.app.db.selectFrom('admin_rule').select('name').orderBy('id').execute()).map((rule) => rule.name);
    const rulesBefore = await rules();
    const [idField, titleField] = PRODUCT_FIELDS;
    for (const name of ['ctid', 'xmin', 'tableoid', 'oid', 'rowid', 'constructor', 'prototype']) {
      const kept = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_kept', quickSearchField: [name], defaultSortField: 'id' }), fields: [idField, field(name, 'string')] } });
      expect({ code: kept.code, msg: kept.msg }).toEqual({ code: 0, msg: `Field name "${name}" is kept by SQLite, PostgreSQL or JavaScript for themselves: choose another` });
    }
    const chinese = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_kept' }), fields: [idField, field('ctid', 'string')] }, lang: 'zh-cn' });
    expect(chinese.msg).toBe('字段名“ctid”已被 SQLite、PostgreSQL 或 JavaScript 自身占用，请换一个');
    const table = await crud('generate', { body: { type: 'create', table: productTable({ name: 'constructor' }), fields: [idField, titleField] } });
    expect(table.msg).toBe('Table "constructor" is reserved for the system');
    // an option named after a JavaScript member
    const option = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_option', defaultSortField: 'id' }), fields: [idField, field('kind', 'radio', { type: 'enum', options: { toString: { 'zh-cn': '原型', en: 'Proto' }, plain: { 'zh-cn': '普通', en: 'Plain' } } })] } });
    expect(option.msg).toBe('Field kind: the option value "toString" is a name every JavaScript object has; choose another');
    // the rule table keeps a menu title in 50 characters on PostgreSQL; SQLite would have taken more
    const long = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_long', comment: '很长的标题'.repeat(11), defaultSortField: 'id' }), fields: [idField, titleField] } });
    expect(long.msg).toBe("The module's title is at most 50 characters in each language (it is the menu's title)");
    const icon = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_icon', menu: { icon: `fa ${'x'.repeat(55)}` }, defaultSortField: 'id' }), fields: [idField, titleField] } });
    expect(icon.msg).toBe("The menu icon's name is at most 50 characters");
    const heavy = await crud('generate', { body: { type: 'create', table: productTable({ name: 'test_heavy', menu: { weigh: 1e308 }, defaultSortField: 'id' }), fields: [idField, titleField] } });
    expect(heavy.msg).toBe("The menu's weight must be a whole number");
    expect(await nothingCreated()).toEqual(before);
    expect(await rules()).toEqual(rulesBefore);
  });

  it('lets only super admins and groups holding the generator’s nodes design', async () => {
    const db = dynamicDb(server.server.app.db);
    const rules = (await db.selectFrom('admin_rule').select('id').where('name', 'in', ['auth', 'auth/admin', 'auth/admin/index']).execute()) as { id: number }[];
    const group = await server.admin('auth.Group/add', { token, body: { pid: 1, name: 'Viewers', rules: rules.map((rule) => rule.id), status: '1' } });
    expect(group.code, group.msg).toBe(1);
    const groupId = Number(((await db.selectFrom('admin_group').select('id').where('name', '=', 'Viewers').executeTakeFirstOrThrow()) as { id: number }).id);
    expect((await server.admin('auth.Admin/add', { token, body: { username: 'viewer', nickname: 'Viewer', password: 'Viewer_pass1', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const viewer = (await server.loginAdmin('viewer', 'Viewer_pass1')).token;
    const before = await nothingCreated();
    expect((await crud('generate', { as: viewer, body: { type: 'create', table: productTable({ name: 'test_other' }), fields: PRODUCT_FIELDS } })).code).toBe(401);
    expect((await crud('parseFieldData', { as: viewer, body: { type: 'db', table: 'admin' } })).code).toBe(401);
    expect((await crud('delete', { as: viewer, body: { id: logId } })).code).toBe(401);
    expect(await nothingCreated()).toEqual(before);
  });

  it('deletes the module but keeps its table and rows, starts again from that table, then drops it into the recycle bin', async () => {
    // type generation over a folder holding the design's copy makes the committed files: a design has no types of its own
    expect(existsSync(join(dir, 'schemas/crud/test_product.json'))).toBe(true);
    const whileLive = await genCheck(join(dir, 'schemas'));
    expect(whileLive.code, whileLive.output).toBe(0);
    const deleted = await crud('delete', { body: { id: logId } });
    expect(deleted.code, deleted.msg).toBe(1);
    expect((await server.admin('test.Product/index', { token })).status).toBe(404);
    const db = dynamicDb(server.server.app.db);
    expect(await db.selectFrom('admin_rule').select('name').where('name', 'like', 'test/product%').execute()).toEqual([]);
    expect(await db.selectFrom('test_product').select('name').execute()).toEqual([{ name: 'Lamp' }]);
    expect((await crud<{ id: number }>('checkCrudLog', { query: { table: 'test_product' } })).data.id).toBe(0);
    expect(existsSync(join(dir, 'schemas/crud/test_product.json'))).toBe(false);
    // and after the delete nothing of it is left behind: gen:check still passes
    const afterDelete = await genCheck(join(dir, 'schemas'));
    expect(afterDelete.code, afterDelete.output).toBe(0);
    expect(afterDelete.output).toContain('src/generated/resources.ts is up to date');

    // start.vue: the table is offered (no schema declares it now), design.vue reads its columns
    const tables = await server.admin<{ list: Row[] }>('ajax/getTableList', { token });
    expect(tables.data.list).toContainEqual({ table: 'test_product', comment: '', connection: 'default', prefix: '' });
    expect(tables.data.list.map((row) => row.table)).not.toContain('schema_state');
    expect((await server.admin('ajax/getTablePk', { token, query: { table: 'test_product' } })).data).toEqual({ pk: 'id' });
    const parsed = await crud<{ columns: Record<string, Row>; empty: boolean }>('parseFieldData', { body: { type: 'db', table: 'test_product', connection: '' } });
    expect(parsed.code, parsed.msg).toBe(1);
    expect(parsed.data.empty).toBe(false);
    expect(parsed.data.columns.id).toMatchObject({ name: 'id', primaryKey: true, designType: 'pk' });
    expect(parsed.data.columns.weigh).toMatchObject({ designType: 'weigh' });
    expect(Object.keys(parsed.data.columns)).toEqual(expect.arrayContaining(['name', 'stock', 'owner_id', 'create_time']));

    const fields = [
      field('id', 'pk', { primaryKey: true, autoIncrement: true, defaultType: 'NONE', form: {} }),
      field('name', 'string', { comment: '名称', form: { validator: ['required'] } }),
      field('stock', 'number', { comment: '库存', default: '0', defaultType: 'INPUT' }),
      field('create_time', 'timestamp', { null: true, defaultType: 'NULL' }),
      field('update_time', 'timestamp', { null: true, defaultType: 'NULL' }),
    ];
    const again = await crud('generate', { body: { type: 'db', table: productTable({ comment: 'Products again', quickSearchField: ['name'], defaultSortField: 'id', formFields: ['name', 'stock'], columnFields: ['id', 'name', 'stock'] }), fields } });
    expect(again.code, again.msg).toBe(1);
    expect((await server.admin<{ list: Row[] }>('test.Product/index', { token })).data.list).toMatchObject([{ name: 'Lamp', stock: 0 }]);

    // dropping the table: a data-recycle rule on the module keeps its rows in the recycle bin
    expect((await server.admin('security.DataRecycle/add', { token, body: { name: 'Products', controller: 'test/Product.php', data_table: 'test_product', primary_key: 'id', status: '1' } })).code).toBe(1);
    const lastLog = (await server.admin<{ list: Row[] }>('crud.Log/index', { token })).data.list[0];
    const dropped = await crud('delete', { body: { id: lastLog.id, dropTable: true } });
    expect(dropped.code, dropped.msg).toBe(1);
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain('test_product');
    const recycled = (await db.selectFrom('security_data_recycle_log').select(['data_table', 'data']).execute()) as { data_table: string; data: string }[];
    expect(recycled.map((row) => [row.data_table, JSON.parse(row.data).name])).toEqual([['test_product', 'Lamp']]);
    expect((await crud('delete', { body: { id: lastLog.id } })).msg).toBe('No designed module uses the table test_product');
  }, GEN_CHECK_TIMEOUT_MS);
});

describe.each(DATABASES)('the CRUD designer across restarts on %s', (kind) => {
  it('changes its own module after a restart, and after another, with the copy of the design in schemas/ beside it', async () => {
    const dir = copyProject('chidao-crud-');
    const schemasDir = join(dir, 'schemas');
    let server = await startTestServer(kind, { schemasDir, keepDatabase: true });
    const databaseUrl = server.databaseUrl;
    const restart = async () => {
      await server.close();
      server = await startTestServer(kind, { databaseUrl, schemasDir, keepDatabase: true });
      return (await server.loginAdmin()).token;
    };
    const stock = field('stock', 'number', { type: 'int', length: 10, default: '0', defaultType: 'INPUT', comment: '库存', table: { render: 'none', operator: 'RANGE', sortable: 'false' }, form: { validator: ['number'], validatorMsg: '' } });
    try {
      let token = (await server.loginAdmin()).token;
      expect((await server.admin('crud.Crud/generate', { token, body: { type: 'create', table: productTable(), fields: PRODUCT_FIELDS } })).code).toBe(1);
      const firstCopy = readFileSync(join(schemasDir, 'crud/test_product.json'), 'utf8');

      token = await restart();
      const added = await server.admin('crud.Crud/generate', {
        token,
        body: { type: 'log', table: productTable({ formFields: [...(productTable().formFields as string[]), 'stock'], designChange: [{ type: 'add-field', index: 11, oldName: '', newName: 'stock', sync: true }] }), fields: [...PRODUCT_FIELDS, stock] },
      });
      expect(added.code, added.msg).toBe(1);
      expect((await server.admin('test.Product/add', { token, body: { title: 'Lamp', stock: 4 } })).code).toBe(1);
      expect((await server.admin<{ list: Row[] }>('test.Product/index', { token })).data.list[0]).toMatchObject({ title: 'Lamp', stock: 4 });
      expect(JSON.parse(readFileSync(join(schemasDir, 'crud/test_product.json'), 'utf8')).properties).toHaveProperty('stock');

      // a copy left at an earlier version (as on a machine whose process did not make the change) is a copy still
      writeFileSync(join(schemasDir, 'crud/test_product.json'), firstCopy);
      token = await restart();
      const renamed = PRODUCT_FIELDS.map((item) => (item.name === 'title' ? { ...item, name: 'name' } : item));
      const edited = await server.admin('crud.Crud/generate', {
        token,
        body: {
          type: 'log',
          table: productTable({ quickSearchField: ['id', 'name'], formFields: ['name', 'price', 'status', 'kind', 'tags', 'cover', 'owner_id', 'weigh', 'stock'], designChange: [{ type: 'change-field-name', index: 1, oldName: 'title', newName: 'name', sync: true }] }),
          fields: [...renamed, stock],
        },
      });
      expect(edited.code, edited.msg).toBe(1);
      expect((await server.admin<{ list: Row[] }>('test.Product/index', { token })).data.list[0]).toMatchObject({ name: 'Lamp', stock: 4 });

      // taken out after the restart, it is gone: its copy read at start does not keep it serving
      await server.server.app.schemas.remove('crud/test_product', { id: 1, username: 'admin' });
      expect((await server.admin('test.Product/index', { token })).status).toBe(404);
      expect(existsSync(join(schemasDir, 'crud/test_product.json'))).toBe(false);
    } finally {
      await server.close();
      await startTestServer(kind, { databaseUrl, schemasDir }).then((last) => last.close());
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the CRUD designer across two processes on one postgres database', { tags: 'full' }, () => {
  let first: TestServer;
  let second: TestServer;
  const dirs: string[] = [];

  beforeAll(async () => {
    dirs.push(copyProject('chidao-crud-'), copyProject('chidao-crud-'));
    first = await startTestServer('postgres', { schemasDir: join(dirs[0], 'schemas') });
    second = await startTestServer('postgres', { databaseUrl: first.databaseUrl, schemasDir: join(dirs[1], 'schemas') });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a module generated on one process is served by the other as soon as it looks for changes', async () => {
    const token = (await first.loginAdmin()).token;
    const otherToken = (await second.loginAdmin()).token;
    const generated = await first.admin('crud.Crud/generate', { token, body: { type: 'create', table: productTable(), fields: PRODUCT_FIELDS } });
    expect(generated.code, generated.msg).toBe(1);
    // The other process looks for changes every second; its look is made here, so the test waits on the
    // look itself rather than on a clock (a look already under way is waited for: it runs one at a time).
    // How soon a look follows a change is measured by tests/api/schema-registry.test.ts.
    await second.server.app.schemas.poll();
    const added = await second.admin('test.Product/add', { token: otherToken, body: { title: 'From the other process' } });
    expect(added.code, added.msg).toBe(1);
    expect((await first.admin<{ list: Row[] }>('test.Product/index', { token })).data.list[0]).toMatchObject({ title: 'From the other process' });
  });
});
