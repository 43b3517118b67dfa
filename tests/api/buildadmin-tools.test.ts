import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * BuildAdmin's module store and CRUD generator screens against our server: they open and
 * list, every change of the store says clearly it is not available here (the generator's own tests are in
 * crud-designer.test.ts); the module store's menu has BuildAdmin's
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

  it('lists no installed modules and refuses to install, in both languages', async () => {
    const index = await server.admin<{ sysVersion: string; installed: unknown[] }>('module/index', { token });
    expect(index.code, index.msg).toBe(1);
    expect(index.data.installed).toEqual([]);
    expect(typeof index.data.sysVersion).toBe('string');
    expect(await server.admin('module/install', { token, query: { uid: 'demo' }, body: {} })).toMatchObject({ code: 0, msg: 'The module store is not available in this version' });
    expect((await server.admin('module/changeState', { token, body: { uid: 'demo', state: true }, lang: 'zh-cn' })).msg).toBe('此版本未提供模块市场');
    expect((await server.admin('crud.Crud/generate', { token, body: {} })).msg).toBe('The design needs a table name and at least one field');
    expect((await server.admin('crud.Log/index', { token })).code).toBe(1);
  });

  it('answers the store the stock module screen reads at siteConfig.apiUrl: nothing listed, a remark saying it is not available', async () => {
    // the stock screen: GET `<siteConfig.apiUrl>/api/v6.store/modules?activeTab=all&sysVersion=…`, then shows
    // `data.remark` above the list; apiUrl is this server (buildadmin.com would offer modules we cannot install)
    const index = await server.admin<{ siteConfig: { apiUrl: string; cdnUrl: string } }>('Index/index', { token });
    expect(index.data.siteConfig.apiUrl).toMatch(/^\/\/127\.0\.0\.1:\d+$/);
    expect(index.data.siteConfig.apiUrl).toBe(index.data.siteConfig.cdnUrl);
    const store = await server.api<{ rows: unknown[]; remark: string }>('v6.store/modules', { query: { activeTab: 'all', sysVersion: 'v1.0.0' }, lang: 'en' });
    expect(store).toMatchObject({ code: 1, data: { rows: [], total: 0, remark: 'The module store is not available in this version' } });
    expect((await server.api<{ remark: string }>('v6.store/modules', { lang: 'zh-cn' })).data.remark).toBe('此版本未提供模块市场');
    expect(await server.api('v6.store/info', { query: { uid: 'demo' }, lang: 'en' })).toMatchObject({ code: 0, msg: 'The module store is not available in this version' });
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
