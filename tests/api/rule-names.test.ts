import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/server/db/unique-violation.js';
import { nodesOf } from '../../src/server/http/controller.js';
import { DATABASES, startTestServer, type ApiRequest, type ApiResponse, type TestServer } from '../support/test-server.js';

/**
 * Rule names are permission nodes (docs/architecture.md#permission-rules): one rule per node whatever
 * the case of its letters, named after a node the server checks only by an admin who holds it (or a
 * super admin), never granted to the groups of the admin who adds it, and every node an action checks
 * has a rule a super admin can grant. An admin who may add or edit rules gains no right by it.
 */

type Row = Record<string, unknown>;

const PASSWORD = 'Rules_pass1';
const TAKEN = 'Rule name already exists';
const NO_PERMISSION = 'You have no permission to operate';
const ASCII_ONLY = 'A rule name may hold only English letters, digits and signs';
const NOT_HELD = 'Only a super administrator can name a rule after a permission you do not hold: %s';
const message = (template: string, name: string) => template.replace('%s', name);

describe.each(DATABASES)('rule names on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  let adderToken: string;
  let editorToken: string;
  let adderGroup: number;
  let editorGroup: number;
  let moneyLogMenu: number;
  let heldRule: number;

  const db = () => server.server.app.db;
  const as = (token: string) => (path: string, request: ApiRequest = {}): Promise<ApiResponse<Row>> => server.admin<Row>(path, { token, ...request });

  async function ruleId(name: string): Promise<number> {
    const row = await db().selectFrom('admin_rule').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function groupRules(id: number): Promise<string[]> {
    const row = await db().selectFrom('admin_group').select('rules').where('id', '=', id).executeTakeFirstOrThrow();
    return String(row.rules).split(',');
  }

  async function ruleNames(): Promise<string[]> {
    return (await db().selectFrom('admin_rule').select('name').orderBy('id').execute()).map((row) => row.name);
  }

  /** A group of the rules named, and an admin in it, signed in. */
  async function adminWith(name: string, rules: (string | number)[]): Promise<{ group: number; token: string }> {
    const ids = await Promise.all(rules.map((rule) => (typeof rule === 'number' ? rule : ruleId(rule))));
    const added = await as(superToken)('auth.Group/add', { body: { pid: 1, name, rules: ids, status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const group = Number((await db().selectFrom('admin_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);
    const admin = await as(superToken)('auth.Admin/add', { body: { username: name.toLowerCase(), nickname: name, password: PASSWORD, group_arr: [group], status: '1' } });
    expect(admin.code, admin.msg).toBe(1);
    return { group, token: (await server.loginAdmin(name.toLowerCase(), PASSWORD)).token };
  }

  const addRule = (token: string, name: string, pid = moneyLogMenu) => as(token)('auth.Rule/add', { body: { pid, type: 'button', title: '探测', name, status: '1' } });
  const renameRule = (token: string, id: number, name: string) => as(token)('auth.Rule/edit', { body: { id, pid: moneyLogMenu, type: 'button', title: '探测', name, status: '1' } });
  const memberMoney = async () => Number((await db().selectFrom('user').select('money').where('id', '=', 1).executeTakeFirstOrThrow()).money);

  beforeAll(async () => {
    server = await startTestServer(kind);
    superToken = (await server.loginAdmin()).token;
    moneyLogMenu = await ruleId('user/moneyLog');
    const made = await addRule(superToken, 'custom/held');
    expect(made.code, made.msg).toBe(1);
    heldRule = await ruleId('custom/held');
    const menus = ['auth', 'auth/rule', 'auth/rule/index', 'user', 'user/moneyLog', 'user/moneyLog/index'];
    ({ group: adderGroup, token: adderToken } = await adminWith('Adder', [...menus, 'auth/rule/add']));
    ({ group: editorGroup, token: editorToken } = await adminWith('Editor', [...menus, 'auth/rule/edit', heldRule]));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses a rule named after a node in other letters, so the attacker credits nobody', async () => {
    const before = { rules: await ruleNames(), money: await memberMoney() };
    for (const name of ['UsEr/mONeYlog/ADD', 'user/moneyLog/add', 'auth/ADMINLOG/export']) {
      const added = await addRule(adderToken, name);
      expect({ code: added.code, msg: added.msg }).toEqual({ code: 0, msg: TAKEN });
    }
    // a super admin is held to one rule per node too
    expect((await addRule(superToken, 'ROUTINE/config/SendTestMail')).msg).toBe(TAKEN);
    expect(await ruleNames()).toEqual(before.rules);
    const credit = await as(adderToken)('user.MoneyLog/add', { body: { user_id: 1, money: '1000.00', memo: 'Gift' } });
    expect(credit.code).toBe(401);
    expect(await memberMoney()).toBe(before.money);
  });

  it('leaves a node without a rule to super admins: an admin who lacks it cannot name a rule after it', async () => {
    const removed = await as(superToken)('auth.Rule/del', { method: 'DELETE', query: { ids: [await ruleId('user/moneyLog/export')] } });
    expect(removed.code, removed.msg).toBe(1);
    const added = await addRule(adderToken, 'User/MoneyLog/Export');
    expect({ code: added.code, msg: added.msg }).toEqual({ code: 0, msg: message(NOT_HELD, 'User/MoneyLog/Export') });
    expect((await addRule(editorToken, 'x')).code).toBe(401);
    const renamed = await renameRule(editorToken, heldRule, 'user/moneylog/export');
    expect({ code: renamed.code, msg: renamed.msg }).toEqual({ code: 0, msg: message(NOT_HELD, 'user/moneylog/export') });
    expect((await as(adderToken)('user.MoneyLog/export')).code).toBe(401);
    const restored = await addRule(superToken, 'user/moneyLog/export');
    expect(restored.code, restored.msg).toBe(1);
  });

  it('refuses renaming a held rule to a node its editor lacks, for every group holding it', async () => {
    const before = await groupRules(editorGroup);
    const renamed = await renameRule(editorToken, heldRule, 'USER/moneyLog/add');
    expect({ code: renamed.code, msg: renamed.msg }).toEqual({ code: 0, msg: TAKEN });
    expect((await db().selectFrom('admin_rule').select('name').where('id', '=', heldRule).executeTakeFirstOrThrow()).name).toBe('custom/held');
    expect((await as(editorToken)('user.MoneyLog/add', { body: { user_id: 1, money: '1000.00', memo: 'Gift' } })).code).toBe(401);
    // a name no action checks is free, and a held node keeps its name in other letters
    expect((await renameRule(editorToken, heldRule, 'custom/renamed')).code).toBe(1);
    expect((await renameRule(editorToken, heldRule, 'CUSTOM/renamed')).code).toBe(1);
    expect(await groupRules(editorGroup)).toEqual(before);
  });

  it('grants a new rule to the groups holding its parent, but not to the groups of the admin who is not super adding it', async () => {
    const added = await addRule(adderToken, 'custom/by-adder');
    expect(added.code, added.msg).toBe(1);
    const byAdder = String(await ruleId('custom/by-adder'));
    expect(await groupRules(adderGroup)).not.toContain(byAdder);
    expect(await groupRules(editorGroup)).toContain(byAdder);
    expect((await addRule(superToken, 'custom/by-super')).code).toBe(1);
    const bySuper = String(await ruleId('custom/by-super'));
    expect(await groupRules(adderGroup)).toContain(bySuper);
    expect(await groupRules(editorGroup)).toContain(bySuper);
  });

  it('has a rule for every permission node an action checks, in both areas', async () => {
    for (const [area, table] of [['admin', 'admin_rule'], ['user', 'user_rule']] as const) {
      const names = new Set((await db().selectFrom(table).select('name').execute()).map((row) => row.name.toLowerCase()));
      const nodes = server.server.app.controllers.permissionNodes(area);
      expect(nodes.length).toBeGreaterThan(area === 'admin' ? 100 : 4);
      expect(nodes.filter((node) => !names.has(node.toLowerCase()))).toEqual([]);
    }
    // the nodes found by an attacker to have no rule: now granted by their rules, or not answered at all
    for (const node of ['routine/config/sendTestMail', 'user/payout/export', 'auth/adminLog/export']) expect(await ruleNames()).toContain(node);
    const logs = await db().selectFrom('admin_log').select('id').execute();
    const deleted = await as(superToken)('auth.AdminLog/del', { method: 'DELETE', query: { ids: logs.map((row) => row.id) } });
    expect(deleted.status).toBe(404);
    // the designer's history is written by the designer only
    expect((await as(superToken)('crud.Log/del', { method: 'DELETE', query: { ids: [1] } })).msg).toBe('The CRUD log is written by the designer and cannot be changed');
    expect((await db().selectFrom('admin_log').select('id').where('id', 'in', logs.map((row) => row.id)).execute()).length).toBe(logs.length);
  });

  it('checks the export node of every list that exports: an admin holding every other rule is refused the CSV', async () => {
    const exporting = server.server.app.controllers.all('admin').filter((controller) => 'export' in controller.actions);
    expect(exporting.length).toBeGreaterThan(15);
    // the CRUD log has no screen of its own: whoever may use the designer reads it, exported too
    const own = exporting.filter((controller) => controller.name !== 'crud.Log');
    for (const controller of own) expect(nodesOf(controller, 'export')).toEqual([`${controller.path}/export`]);
    const rules = await db().selectFrom('admin_rule').select(['id', 'name']).execute();
    const { token } = await adminWith('Lister', rules.filter((rule) => !rule.name.toLowerCase().endsWith('/export')).map((rule) => Number(rule.id)));
    for (const controller of own) {
      // the list node lets them in (the SMS outbox then answers super admins alone); the export node does not
      const listed = await as(token)(`${controller.name}/index`);
      const exported = await as(token)(`${controller.name}/export`);
      expect({ controller: controller.name, list: listed.msg === NO_PERMISSION, export: [exported.code, exported.msg] }).toEqual({ controller: controller.name, list: false, export: [401, NO_PERMISSION] });
      const bySuper = await as(superToken)(`${controller.name}/export`);
      expect({ controller: controller.name, type: bySuper.headers.get('content-type') }).toEqual({ controller: controller.name, type: 'text/csv; charset=utf-8' });
    }
  });

  it('gives a database whose menus were synced before, once, the rules of the nodes that had none', async () => {
    await db().deleteFrom('admin_rule').where('name', 'in', ['routine/config/sendTestMail', 'auth/adminLog/export']).execute();
    await db().updateTable('schema_state').set({ menu_synced: 3 }).where('table_name', 'in', ['config', 'admin_log']).execute();
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
    const added = await db().selectFrom('admin_rule').select(['name', 'title', 'pid']).where('name', 'in', ['routine/config/sendTestMail', 'auth/adminLog/export']).orderBy('name').execute();
    expect(added).toEqual([
      { name: 'auth/adminLog/export', title: '导出', pid: await ruleId('auth/adminLog') },
      { name: 'routine/config/sendTestMail', title: '发送测试邮件', pid: await ruleId('routine/config') },
    ]);
  });

  it('takes rule names in printable ASCII only, on which the lower case of the databases and of the check agree', async () => {
    const before = await ruleNames();
    // the Kelvin sign is "k" in JavaScript's lower case, not in SQLite's
    for (const name of ['custom/\u212Aelvin', 'custom/naïve', 'custom/tab\there']) {
      const added = await addRule(superToken, name);
      expect({ code: added.code, msg: added.msg }).toEqual({ code: 0, msg: ASCII_ONLY });
      const renamed = await renameRule(superToken, heldRule, name);
      expect({ code: renamed.code, msg: renamed.msg }).toEqual({ code: 0, msg: ASCII_ONLY });
    }
    const zh = await as(superToken)('auth.Rule/add', { lang: 'zh-cn', body: { pid: moneyLogMenu, type: 'button', title: '探测', name: 'custom/naïve', status: '1' } });
    expect(zh.msg).toBe('规则名称只能包含英文字母、数字和符号');
    expect(await ruleNames()).toEqual(before);
  });

  it('keeps one rule per node when adds in other letters race, in one server and across two on PostgreSQL', async () => {
    const names = ['Race/node', 'race/NODE', 'RACE/Node', 'race/node', 'rAcE/nOdE', 'RaCe/NoDe', 'raCE/node', 'RAce/NODE'];
    // SQLite has one connection per database, so only a second server on PostgreSQL can race the first
    const second = kind === 'postgres' ? await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true }) : undefined;
    try {
      const servers = second ? [server, second] : [server];
      const answers = await Promise.all(
        names.map((name, i) => servers[i % servers.length].admin<Row>('auth.Rule/add', { token: superToken, body: { pid: moneyLogMenu, type: 'button', title: '探测', name, status: '1' } })),
      );
      const refused = answers.filter((answer) => answer.code !== 1).map((answer) => ({ status: answer.status, code: answer.code, msg: answer.msg }));
      expect(refused).toEqual(Array.from({ length: names.length - 1 }, () => ({ status: 200, code: 0, msg: TAKEN })));
      expect((await ruleNames()).filter((name) => name.toLowerCase() === 'race/node')).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });

  it('merges at start-up the rules of a database whose names differ only in case, then guards their node by an index', async () => {
    const original = await ruleId('user/moneyLog/add');
    const now = Math.floor(Date.now() / 1000);
    const rule = { type: 'button' as const, title: '添加', path: '', icon: '', url: '', component: '', remark: '', weigh: 0, status: '1' as const, create_time: now, update_time: now };
    const insertTwin = () => db().insertInto('admin_rule').values({ ...rule, pid: moneyLogMenu, name: 'UsEr/mONeYlog/ADD' }).returning('id').executeTakeFirstOrThrow();
    await expect(insertTwin()).rejects.toSatisfy(isUniqueViolation);
    // a database from before the index
    await db().schema.dropIndex('uniq_admin_rule_node').execute();
    const twin = Number((await insertTwin()).id);
    const child = Number((await db().insertInto('admin_rule').values({ ...rule, pid: twin, name: 'custom/under-twin' }).returning('id').executeTakeFirstOrThrow()).id);
    await db().updateTable('admin_group').set({ rules: [...(await groupRules(adderGroup)), String(twin)].join(',') }).where('id', '=', adderGroup).execute();
    await db().updateTable('admin_group').set({ rules: [...(await groupRules(editorGroup)), String(twin), String(original)].join(',') }).where('id', '=', editorGroup).execute();

    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();

    expect((await db().selectFrom('admin_rule').select('id').where('id', '=', twin).execute()).length).toBe(0);
    expect(Number((await db().selectFrom('admin_rule').select('pid').where('id', '=', child).executeTakeFirstOrThrow()).pid)).toBe(original);
    expect(await groupRules(adderGroup)).toContain(String(original));
    const editor = await groupRules(editorGroup);
    expect(editor.filter((id) => id === String(original))).toHaveLength(1);
    expect(editor).not.toContain(String(twin));
    await expect(insertTwin()).rejects.toSatisfy(isUniqueViolation);
  });
});
