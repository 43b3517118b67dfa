import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * BuildAdmin's module store and CRUD generator screens against our server: they open and list (the
 * store's own tests are in module-store.test.ts, the generator's in crud-designer.test.ts); buying from
 * the online store says clearly it is not available here; the module store's menu has BuildAdmin's
 * path, and a database made before the menus carried BuildAdmin's values is brought up to them.
 */

describe.each(DATABASES)('module store and code generator on %s', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the module catalogue and refuses a module it does not have, in both languages', async () => {
    const index = await server.admin<{ sysVersion: string; installed: { uid: string; state: number }[] }>('module/index', { token });
    expect(index.code, index.msg).toBe(1);
    expect(index.data.installed.map((item) => [item.uid, item.state])).toEqual([['announcement', 0], ['faq', 0], ['feedback', 0]]);
    expect(typeof index.data.sysVersion).toBe('string');
    expect(await server.admin('module/install', { token, query: { uid: 'demo' }, body: {} })).toMatchObject({ code: 0, msg: 'No module "demo" was uploaded or is in the catalogue' });
    expect((await server.admin('module/changeState', { token, body: { uid: 'demo', state: true }, lang: 'zh-cn' })).msg).toBe('模块当前状态无法设定为启用');
    expect((await server.admin('crud.Crud/generate', { token, body: {} })).msg).toBe('The design needs a table name and at least one field');
    expect((await server.admin('crud.Log/index', { token })).code).toBe(1);
  });

  it('answers the store the stock module screen reads at siteConfig.apiUrl: nothing to buy, a remark saying so', async () => {
    // the stock screen: GET `<siteConfig.apiUrl>/api/v6.store/modules?activeTab=all&sysVersion=…`, shows
    // `data.remark` above the list and adds the modules of `module/index` to it; apiUrl is this server
    const index = await server.admin<{ siteConfig: { apiUrl: string; cdnUrl: string } }>('Index/index', { token });
    expect(index.data.siteConfig.apiUrl).toMatch(/^\/\/127\.0\.0\.1:\d+$/);
    expect(index.data.siteConfig.apiUrl).toBe(index.data.siteConfig.cdnUrl);
    const remark = 'Buying modules online is not available here: install a module from the list or upload its zip';
    const store = await server.api<{ rows: unknown[]; remark: string }>('v6.store/modules', { query: { activeTab: 'all', sysVersion: 'v1.0.0' }, lang: 'en' });
    expect(store).toMatchObject({ code: 1, data: { rows: [], total: 0, remark } });
    expect((await server.api<{ remark: string }>('v6.store/modules', { lang: 'zh-cn' })).data.remark).toBe('此处不提供在线购买模块：请从列表中安装模块，或上传模块压缩包');
    expect(await server.api('v6.store/info', { query: { uid: 'demo' }, lang: 'en' })).toMatchObject({ code: 0, msg: remark });
    expect((await server.api('v6.store/order', { body: { uid: 'demo' }, lang: 'en' })).code).toBe(0);
  });

  it('gives the module store BuildAdmin’s menu path and view file', async () => {
    const rule = (await server.server.app.db.selectFrom('admin_rule').select(['path', 'component']).where('name', '=', 'moduleStore/moduleStore').executeTakeFirstOrThrow()) as { path: string; component: string };
    expect(rule).toEqual({ path: 'moduleStore', component: '/src/views/backend/module/index.vue' });
  });

  it('brings the menus of an older database up to BuildAdmin’s values at the next start', async () => {
    const db = server.server.app.db;
    await db.updateTable('admin_rule').set({ path: 'moduleStore/moduleStore' }).where('name', '=', 'moduleStore/moduleStore').execute();
    await db.updateTable('admin_rule').set({ component: 'system/admin' }).where('name', '=', 'auth/admin').execute();
    await db.updateTable('admin_rule').set({ component: 'survey/survey' }).where('name', '=', 'survey/survey').execute();
    await db.updateTable('admin_rule').set({ component: '/src/views/backend/custom/mine.vue' }).where('name', '=', 'auth/group').execute();
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl })).close();
    const row = async (name: string) => (await db.selectFrom('admin_rule').select(['path', 'component']).where('name', '=', name).executeTakeFirstOrThrow()) as { path: string; component: string };
    expect((await row('moduleStore/moduleStore')).path).toBe('moduleStore');
    expect((await row('auth/admin')).component).toBe('/src/views/backend/auth/admin/index.vue');
    expect((await row('survey/survey')).component).toBe('/src/views/backend/survey/survey/index.vue');
    // A view file an admin chose stays.
    expect((await row('auth/group')).component).toBe('/src/views/backend/custom/mine.vue');
  });
});
