import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The back office's table and cache calls as BuildAdmin's CRUD and data-security screens make them:
 * connections, tables with their titles, a table's primary key and columns, and clearing
 * what the process caches. Only tables a schema declares are answered, and only to admins whose screens
 * ask them (docs/wire-contract.md#ajax-utilities).
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('ajax table calls on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const admin = <T = Row>(path: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(path, { token, ...request });

  beforeAll(async () => {
    // Settings cached for ten minutes, so clearing the cache is what makes a change show.
    server = await startTestServer(kind, { env: { CONFIG_CACHE_MS: '600000' } });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the one connection and the tables with their titles', async () => {
    const connections = await admin<{ list: Row[] }>('ajax/getDatabaseConnectionList');
    expect(connections.data.list).toEqual([{ type: kind === 'postgres' ? 'pgsql' : 'sqlite', database: 'default', key: 'default' }]);
    const tables = await admin<{ list: Row[] }>('ajax/getTableList', { lang: 'zh-cn' });
    expect(tables.data.list).toContainEqual({ table: 'admin', comment: '管理员', connection: 'default', prefix: '' });
    const without = await admin<{ list: Row[] }>('ajax/getTableList', { query: { excludeTable: ['admin', 'survey'] } });
    expect(without.data.list.map((row) => row.table)).not.toContain('admin');
    expect(without.data.list.length).toBe(tables.data.list.length - 2);
  });

  it('answers a table’s primary key and columns', async () => {
    expect((await admin('ajax/getTablePk', { query: { table: 'survey' } })).data).toEqual({ pk: 'id' });
    const fields = await admin<{ pk: string; fieldList: Record<string, unknown> }>('ajax/getTableFieldList', { query: { table: 'admin' } });
    expect(fields.data.pk).toBe('id');
    expect(fields.data.fieldList).toMatchObject({ id: 'ID', username: 'Username', nickname: 'Nickname' });
    const full = await admin<{ fieldList: Record<string, Row> }>('ajax/getTableFieldList', { query: { table: 'admin', clean: '0' } });
    expect(full.data.fieldList.id).toMatchObject({ COLUMN_NAME: 'id', COLUMN_KEY: 'PRI', IS_NULLABLE: 'NO' });
  });

  it('refuses a table no schema declares, without touching the database', async () => {
    const unknown = await admin('ajax/getTablePk', { query: { table: 'admin; DROP TABLE admin' } });
    expect(unknown).toMatchObject({ code: 0, msg: 'Data table does not exist: admin; DROP TABLE admin' });
    expect((await admin('ajax/getTableFieldList', { query: { table: 'nope' }, lang: 'zh-cn' })).msg).toBe('数据表不存在：nope');
    expect((await admin('ajax/getTablePk')).msg).toBe('Parameter error');
    expect((await admin('auth.Admin/index')).code).toBe(1);
  });

  it('clears the cached settings, and answers only to a logged-in admin', async () => {
    const siteName = async () => ((await admin<{ siteConfig: { siteName: string } }>('Index/index')).data.siteConfig.siteName);
    const before = await siteName();
    await server.server.app.db.updateTable('config').set({ value: 'Renamed panel' }).where('name', '=', 'site_name').execute();
    expect(await siteName()).toBe(before);
    const cleared = await admin('ajax/clearCache', { body: { type: 'all' } });
    expect(cleared).toMatchObject({ code: 1, msg: 'Cache cleaned~' });
    expect(await siteName()).toBe('Renamed panel');
    expect((await admin('ajax/clearCache', { body: { type: 'browser' } })).msg).toBe('Parameter error');
    expect((await server.admin('ajax/getTableList')).code).toBe(303);
  });

  it('answers the table calls to the designer and the data-security rules\' editors, the cache to the settings\' editor, the terminal\'s package manager to super admins', async () => {
    const password = 'Tables_pass1';
    /** An admin whose one group holds the rules named (with the menus above them), signed in. */
    const adminWith = async (name: string, rules: string[]): Promise<string> => {
      const rows = await server.server.app.db.selectFrom('admin_rule').select('id').where('name', 'in', ['dashboard', 'dashboard/index', ...rules]).execute();
      expect((await admin('auth.Group/add', { body: { pid: 1, name, rules: rows.map((row) => row.id), status: '1' } })).code).toBe(1);
      const group = await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', name).executeTakeFirstOrThrow();
      expect((await admin('auth.Admin/add', { body: { username: name, nickname: name, password, group_arr: [group.id], status: '1' } })).code).toBe(1);
      return (await server.loginAdmin(name, password)).token;
    };
    const nobody = await adminWith('nobody', []);
    const designer = await adminWith('designer', ['crud/crud', 'crud/crud/index']);
    const guard = await adminWith('guard', ['security', 'security/sensitiveData', 'security/sensitiveData/edit']);
    const settings = await adminWith('settings', ['routine', 'routine/config', 'routine/config/edit']);
    const calls = [
      ['ajax/getTableList', {}],
      ['ajax/getTablePk', { query: { table: 'admin' } }],
      ['ajax/getTableFieldList', { query: { table: 'admin' } }],
      ['ajax/getDatabaseConnectionList', {}],
    ] as const;
    for (const [path, request] of calls) {
      const refused = await server.admin(path, { token: nobody, ...request });
      expect({ code: refused.code, data: refused.data }, path).toEqual({ code: 401, data: [] });
      for (const token of [designer, guard]) expect((await server.admin(path, { token, ...request })).code, path).toBe(1);
      expect((await server.admin(path, { token: settings, ...request })).code, path).toBe(401);
    }
    for (const token of [nobody, designer]) expect((await server.admin('ajax/clearCache', { token, body: { type: 'all' } })).code).toBe(401);
    expect((await server.admin('ajax/clearCache', { token: settings, body: { type: 'all' } })).code).toBe(1);

    const terminal = async () => (await server.server.app.db.selectFrom('config').select('value').where('name', '=', 'npm_package_manager').executeTakeFirst())?.value;
    const before = await terminal();
    for (const token of [nobody, settings]) {
      const refused = await server.admin('ajax/changeTerminalConfig', { token, body: { manager: 'npm' }, lang: 'zh-cn' });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 401, msg: '只有超级管理员可以更改终端设置' });
    }
    expect(await terminal()).toBe(before);
    expect((await admin('ajax/changeTerminalConfig', { body: { manager: 'npm' } })).code).toBe(1);
  });
});
