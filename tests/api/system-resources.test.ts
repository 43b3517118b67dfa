import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { storedMessage } from '../../src/server/stored-text.js';

/**
 * The system resources and the side effects of admin writes (docs/wire-contract.md#system-resources,
 * #side-effects-of-admin-writes): operation log, data recycle bin and sensitive-data log — all through HTTP, checked in the database.
 */

type Row = Record<string, unknown>;
interface ListData {
  list: Row[];
  total: number;
  remark: string;
}

describe.each(DATABASES)('system resources on %s', (kind) => {
  let server: TestServer;
  let token: string;

  const t = (key: string, params: (string | number)[] = []) => server.server.app.messages.translator('en')(key, params);
  const db = () => server.server.app.db;
  const call = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
    const response = await call<T>(path, request);
    expect(response.status, path).toBe(200);
    expect({ code: response.code, msg: response.msg }, path).toMatchObject({ code: 1 });
    return response.data;
  }

  async function count(table: string): Promise<number> {
    const row = (await dynamicDb(db()).selectFrom(table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as { total: number | string };
    return Number(row.total);
  }

  async function one(table: string, column: string, value: unknown): Promise<Row | undefined> {
    return (await dynamicDb(db()).selectFrom(table).selectAll().where(column, '=', value).executeTakeFirst()) as Row | undefined;
  }

  async function ruleId(name: string): Promise<number> {
    const row = await one('admin_rule', 'name', name);
    if (!row) throw new Error(`no rule ${name}`);
    return Number(row.id);
  }

  async function canLogin(username: string, password: string): Promise<boolean> {
    const response = await server.admin('Index/login', { body: { username, password } });
    return response.code === 1;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
  });

  // ---------------------------------------------------------------------------------------------
  describe('auth.Admin', () => {
    let serial = 0;
    const adminBody = (username: string, extra: Row = {}): Row => {
      serial += 1;
      return {
        username,
        nickname: `Nick ${username}`,
        password: 'Editor_pass1',
        email: `${username}@example.com`,
        mobile: `138${String(10_000_000 + serial).slice(-8)}`,
        group_arr: [2],
        avatar: '',
        motto: '',
        status: '1',
        ...extra,
      };
    };

    async function addAdmin(username: string, extra: Row = {}): Promise<number> {
      const response = await call('auth.Admin/add', { body: adminBody(username, extra) });
      expect(response.msg).toBe(t('Added successfully!'));
      expect(response.code).toBe(1);
      return Number((await one('admin', 'username', username))?.id);
    }

    async function groupIdsOf(adminId: number): Promise<number[]> {
      const rows = (await db().selectFrom('admin_group_access').select('group_id').where('uid', '=', adminId).execute()) as { group_id: number }[];
      return rows.map((row) => Number(row.group_id)).sort();
    }

    it('adds an admin with groups; rows carry group_arr and group_name_arr, never the password or salt', async () => {
      const id = await addAdmin('editor1');
      expect(await groupIdsOf(id)).toEqual([2]);
      const stored = (await one('admin', 'id', id)) as Row;
      expect(String(stored.password)).not.toBe('Editor_pass1');
      expect(String(stored.password).length).toBeGreaterThan(20);
      // The seeded group, named in the reader's language (the test reads English).
      const groupName = 'Administrators, level 1';

      const list = await ok<ListData>('auth.Admin/index', { query: { quickSearch: 'editor1' } });
      expect(list.total).toBe(1);
      const row = list.list[0];
      expect(row).toMatchObject({ id, username: 'editor1', nickname: 'Nick editor1', group_arr: [2], group_name_arr: [groupName], status: '1' });
      expect(row).not.toHaveProperty('password');
      expect(row).not.toHaveProperty('salt');
      expect(row).not.toHaveProperty('login_failure');
      expect(JSON.stringify(list)).not.toContain(String(stored.password));

      const edit = await ok<{ row: Row }>('auth.Admin/edit', { query: { id } });
      expect(edit.row).toMatchObject({ id, username: 'editor1', password: '', group_arr: [2], group_name_arr: [groupName] });
      expect(edit.row).not.toHaveProperty('salt');
      expect(edit.row).not.toHaveProperty('login_failure');
      expect(JSON.stringify(edit)).not.toContain(String(stored.password));

      expect(await canLogin('editor1', 'Editor_pass1')).toBe(true);
    });

    it('refuses a duplicate username', async () => {
      await addAdmin('editor2');
      const before = await count('admin');
      const response = await call('auth.Admin/add', { body: adminBody('editor2') });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('%s already exists', ['Username']));
      expect(await count('admin')).toBe(before);
    });

    it('refuses an add without groups or with an unknown group', async () => {
      const before = await count('admin');
      const missing = await call('auth.Admin/add', { body: adminBody('editor3', { group_arr: [] }) });
      expect(missing.code).toBe(0);
      const unknown = await call('auth.Admin/add', { body: adminBody('editor3', { group_arr: [99_999] }) });
      expect(unknown.code).toBe(0);
      expect(await count('admin')).toBe(before);
      expect(await one('admin', 'username', 'editor3')).toBeUndefined();
    });

    it('keeps the password when edited with an empty one, and changes it when given a new one', async () => {
      const id = await addAdmin('editor4');
      const hash = String((await one('admin', 'id', id))?.password);
      await ok('auth.Admin/edit', { body: { id, nickname: 'Renamed', password: '' } });
      expect((await one('admin', 'id', id))?.password).toBe(hash);
      expect((await one('admin', 'id', id))?.nickname).toBe('Renamed');
      expect(await canLogin('editor4', 'Editor_pass1')).toBe(true);

      await ok('auth.Admin/edit', { body: { id, password: 'Editor_pass2' } });
      expect((await one('admin', 'id', id))?.password).not.toBe(hash);
      expect(await canLogin('editor4', 'Editor_pass2')).toBe(true);
      expect(await canLogin('editor4', 'Editor_pass1')).toBe(false);
    });

    it('replaces the group access rows on edit', async () => {
      const id = await addAdmin('editor5');
      await ok('auth.Admin/edit', { body: { id, group_arr: [3, 4] } });
      expect(await groupIdsOf(id)).toEqual([3, 4]);
      const row = (await ok<{ row: Row }>('auth.Admin/edit', { query: { id } })).row;
      expect(row.group_arr).toEqual([3, 4]);
    });

    it('cannot disable yourself, but can disable another admin', async () => {
      const response = await call('auth.Admin/edit', { body: { id: 1, status: '0' } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Please use another administrator account to disable the current account!'));
      expect((await one('admin', 'id', 1))?.status).toBe('1');

      const other = await addAdmin('editor6');
      await ok('auth.Admin/edit', { body: { id: other, status: '0' } });
      expect((await one('admin', 'id', other))?.status).toBe('0');
      expect(await canLogin('editor6', 'Editor_pass1')).toBe(false);
    });

    it('del skips yourself and removes the group access rows of the deleted', async () => {
      const alone = await call('auth.Admin/del', { method: 'DELETE', query: { ids: [1] } });
      expect(alone.code).toBe(0);
      expect(alone.msg).toBe(t('No rows were deleted'));
      expect(await one('admin', 'id', 1)).toBeDefined();

      const id = await addAdmin('editor7', { group_arr: [2, 3] });
      expect(await groupIdsOf(id)).toEqual([2, 3]);
      await ok('auth.Admin/del', { method: 'DELETE', query: { ids: [1, id] } });
      expect(await one('admin', 'id', id)).toBeUndefined();
      expect(await one('admin', 'id', 1)).toBeDefined();
      expect(await groupIdsOf(id)).toEqual([]);
      expect(await groupIdsOf(1)).toEqual([1]);
      expect(await canLogin('admin', ADMIN_PASSWORD)).toBe(true);
    });

    it('never searches on the password hash', async () => {
      for (const field of ['password', 'salt', 'login_failure']) {
        const response = await call('auth.Admin/index', { query: { search: [{ field, val: 's', operator: 'LIKE' }] } });
        expect(response.code, field).toBe(0);
        expect(response.msg).toBe(t('Unknown field: %s', [field]));
      }
      const init = await call('auth.Admin/index', { query: { initKey: 'password', initValue: 'x' } });
      expect(init.code).toBe(0);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('auth.Group', () => {
    async function ruleCsv(groupId: number): Promise<string[]> {
      return String((await one('admin_group', 'id', groupId))?.rules ?? '').split(',').filter(Boolean);
    }

    async function addGroup(name: string, pid: number, rules: unknown[]): Promise<number> {
      const response = await call('auth.Group/add', { body: { pid, name, rules, status: '1' } });
      expect(response.msg).toBe(t('Added successfully!'));
      return Number((await one('admin_group', 'name', name))?.id);
    }

    it('lists a tree with children, rules as display text, and my own group ids', async () => {
      const data = await ok<{ list: Row[]; group: number[]; remark: string }>('auth.Group/index');
      expect(data.group).toEqual([1]);
      const root = data.list.find((row) => row.id === 1) as Row;
      expect(root).toMatchObject({ pid: 0, rules: t('Super administrator') });
      const level2 = (root.children as Row[]).find((row) => row.id === 2) as Row;
      expect(level2).toBeDefined();
      const csv = await ruleCsv(2);
      // the first rule as the English back office names it, not its stored Chinese title
      const first = (await one('admin_rule', 'id', Number(csv[0]))) as { name: string; title: string; type: string };
      const firstTitle = server.server.app.ruleTitles.titleIn('en', 'admin_rule', first);
      expect(firstTitle).not.toMatch(/[\u4e00-\u9fff]/);
      expect(level2.rules).toBe(`${firstTitle} and others, ${csv.length} rules in total`);
      const level3 = (level2.children as Row[]).find((row) => row.id === 3) as Row;
      expect(level3.pid).toBe(2);
      expect((level3.children as Row[]).map((row) => row.id)).toEqual([4]);
      for (const row of data.list) expect(Array.isArray(row.children), `top-level ${String(row.id)} has children[]`).toBe(true);
    });

    it('gives every top-level group a children array, even an empty one (docs/wire-contract.md#tree-resources)', async () => {
      const id = await addGroup('Top level alone', 0, [await ruleId('dashboard')]);
      const data = await ok<{ list: Row[] }>('auth.Group/index');
      const node = data.list.find((row) => row.id === id);
      expect(node).toMatchObject({ pid: 0, children: [] });
      // One rule: its title, in the reader's language, is the display text.
      expect(node?.rules).toBe('Dashboard');
    });

    it('edit GET shows rules as leaf id strings; a super group as ["*"]', async () => {
      const data = await ok<{ row: Row }>('auth.Group/edit', { query: { id: 2 } });
      const rules = data.row.rules as string[];
      expect(rules.length).toBeGreaterThan(0);
      for (const id of rules) expect(id).toMatch(/^\d+$/);
      const stored = await ruleCsv(2);
      expect(stored).toEqual(expect.arrayContaining(rules));
      const pids = new Set(
        ((await db().selectFrom('admin_rule').select(['id', 'pid']).where('id', 'in', rules.map(Number)).execute()) as { pid: number }[]).map((row) => String(row.pid)),
      );
      for (const id of rules) expect(pids.has(id), `${id} is the parent of another selected rule`).toBe(false);
      // Parents are left out: "auth" is held by group 2 but is the parent of "auth/admin".
      expect(stored).toContain(String(await ruleId('auth')));
      expect(rules).not.toContain(String(await ruleId('auth')));

      const superGroup = await ok<{ row: Row }>('auth.Group/edit', { query: { id: 1 } });
      expect(superGroup.row.rules).toEqual(['*']);
    });

    it('stores * when every rule is selected, a CSV otherwise', async () => {
      const all = ((await db().selectFrom('admin_rule').select('id').execute()) as { id: number }[]).map((row) => Number(row.id));
      const everything = await addGroup('Everything', 1, all);
      expect(await ruleCsv(everything)).toEqual(['*']);
      const some = [await ruleId('dashboard'), await ruleId('dashboard/index')];
      const partial = await addGroup('Partial', 1, some);
      expect((await ruleCsv(partial)).map(Number).sort()).toEqual(some.sort());
    });

    it('cannot edit my own group', async () => {
      const response = await call('auth.Group/edit', { body: { id: 1, name: 'Renamed', rules: [await ruleId('dashboard')] } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('You cannot modify your own management group!'));
      expect(await ruleCsv(1)).toEqual(['*']);
      expect((await one('admin_group', 'id', 1))?.name).not.toBe('Renamed');
    });

    it('refuses to delete a group whose child is not deleted with it', async () => {
      const dashboard = await ruleId('dashboard');
      const parent = await addGroup('Parent group', 1, [dashboard]);
      const child = await addGroup('Child group', parent, [dashboard]);
      const refused = await call('auth.Group/del', { method: 'DELETE', query: { ids: [parent] } });
      expect(refused.code).toBe(0);
      expect(refused.msg).toBe(t('Please delete the child element first, or use batch deletion'));
      expect(await one('admin_group', 'id', parent)).toBeDefined();
      expect(await one('admin_group', 'id', child)).toBeDefined();

      await ok('auth.Group/del', { method: 'DELETE', query: { ids: [parent, child] } });
      expect(await one('admin_group', 'id', parent)).toBeUndefined();
      expect(await one('admin_group', 'id', child)).toBeUndefined();
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('auth.Rule', () => {
    it('lists a tree ordered weigh desc', async () => {
      const data = await ok<{ list: Row[]; remark: string }>('auth.Rule/index');
      for (const root of data.list) {
        expect(root.pid).toBe(0);
        expect(Array.isArray(root.children), `top-level ${String(root.name)} has children[]`).toBe(true);
      }
      const weighs = data.list.map((row) => Number(row.weigh));
      expect(weighs).toEqual([...weighs].sort((a, b) => b - a));
      const auth = data.list.find((row) => row.name === 'auth') as Row;
      const admin = (auth.children as Row[]).find((row) => row.name === 'auth/admin') as Row;
      expect(admin.pid).toBe(auth.id);
      expect((admin.children as Row[]).map((row) => row.name)).toEqual(expect.arrayContaining(['auth/admin/index', 'auth/admin/add', 'auth/admin/edit', 'auth/admin/del']));
    });

    it('select=true answers {options}: enabled menus and directories, children prefixed with ├/└', async () => {
      // a disabled menu is not offered as a parent, as the schema's x-list.tree.selectable says
      await db().updateTable('admin_rule').set({ status: '0' }).where('name', '=', 'auth/adminLog').execute();
      const withDisabled = await ok<{ options: Row[] }>('auth.Rule/index', { query: { select: 'true' } });
      await db().updateTable('admin_rule').set({ status: '1' }).where('name', '=', 'auth/adminLog').execute();
      expect(withDisabled.options.map((option) => option.name)).not.toContain('auth/adminLog');
      const data = await ok<{ options: Row[] }>('auth.Rule/index', { query: { select: 'true' } });
      expect(data.options.map((option) => option.name)).toContain('auth/adminLog');
      expect(data.options.length).toBeGreaterThan(5);
      for (const option of data.options) {
        expect(['menu_dir', 'menu']).toContain(option.type);
        expect(option.status).toBe('1');
        expect(option).not.toHaveProperty('children');
        if (Number(option.pid) === 0) expect(String(option.title)).not.toMatch(/^\s|[├└]/);
        else expect(String(option.title)).toMatch(/^ {4}[│ ]*[├└]/);
      }
      const authAdmin = data.options.find((option) => option.name === 'auth/admin') as Row;
      const title = String((await one('admin_rule', 'name', 'auth/admin'))?.title);
      // the seeded title, stored in Chinese, read in the reader's language (English here)
      expect(title).toBe('管理员管理');
      expect(authAdmin.title).toMatch(/^ {4}[├└]Administrators$/);
      const dirs = data.options.filter((option) => Number(option.pid) !== 0);
      expect(dirs.some((option) => String(option.title).includes('└'))).toBe(true);
    });

    it('grants a new rule to the groups that hold its parent', async () => {
      const parent = await ruleId('auth/admin');
      expect((String((await one('admin_group', 'id', 2))?.rules)).split(',')).toContain(String(parent));
      expect((String((await one('admin_group', 'id', 3))?.rules)).split(',')).not.toContain(String(parent));
      await ok('auth.Rule/add', { body: { type: 'button', pid: parent, title: 'Audit', name: 'auth/admin/audit', status: '1' } });
      const id = await ruleId('auth/admin/audit');
      expect(String((await one('admin_group', 'id', 2))?.rules).split(',')).toContain(String(id));
      expect(String((await one('admin_group', 'id', 3))?.rules).split(',')).not.toContain(String(id));
      expect((await one('admin_group', 'id', 1))?.rules).toBe('*');

      await ok('auth.Rule/del', { method: 'DELETE', query: { ids: [id] } });
      expect(await one('admin_rule', 'id', id)).toBeUndefined();
    });

    it('sortable swaps weigh', async () => {
      const a = await ruleId('dashboard');
      const b = await ruleId('auth');
      const weighOf = async (id: number) => Number((await one('admin_rule', 'id', id))?.weigh);
      const [wa, wb] = [await weighOf(a), await weighOf(b)];
      expect(wa).not.toBe(wb);
      await ok('auth.Rule/sortable', { body: { id: a, targetId: b } });
      expect([await weighOf(a), await weighOf(b)]).toEqual([wb, wa]);
      await ok('auth.Rule/sortable', { body: { id: a, targetId: b } });
      expect([await weighOf(a), await weighOf(b)]).toEqual([wa, wb]);
    });

    it('refuses to delete a rule with children', async () => {
      const id = await ruleId('auth/admin');
      const before = await count('admin_rule');
      const response = await call('auth.Rule/del', { method: 'DELETE', query: { ids: [id] } });
      expect(response.code).toBe(0);
      expect(response.msg).toBe(t('Please delete the child element first, or use batch deletion'));
      expect(await count('admin_rule')).toBe(before);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('user.User', () => {
    it('lists money as a yuan string, the group relation, and no secrets', async () => {
      const data = await ok<ListData>('user.User/index', { query: { initValue: [1] } });
      const row = data.list[0];
      // The seeded group, named in the reader's language (the test reads English).
      expect(row).toMatchObject({ id: 1, username: 'user', money: '0.00', score: 0, group_id: 1, group: { id: 1, name: 'Default group' } });
      expect(row).not.toHaveProperty('password');
      expect(row).not.toHaveProperty('salt');
      expect(row.group).not.toHaveProperty('password');
    });

    it('searches through the group relation', async () => {
      const group = (await one('user_group', 'id', 1)) as Row;
      const data = await ok<ListData>('user.User/index', { query: { search: [{ field: 'group.name', val: String(group.name), operator: 'LIKE' }] } });
      expect(data.list.map((row) => row.id)).toContain(1);
      const none = await ok<ListData>('user.User/index', { query: { search: [{ field: 'group.name', val: 'no such group', operator: 'LIKE' }] } });
      expect(none.total).toBe(0);
    });

    it('select=true rows carry nickname_text', async () => {
      const data = await ok<ListData>('user.User/index', { query: { select: 'true', initValue: [1] } });
      expect(data.list[0].nickname_text).toBe('user(ID:1)');
    });

    it('edit GET hides the password and salt', async () => {
      const data = await ok<{ row: Row }>('user.User/edit', { query: { id: 1 } });
      expect(data.row.password).toBe('');
      expect(data.row).not.toHaveProperty('salt');
      expect(data.row.money).toBe('0.00');
    });

    it('does not let edit change the balance or the points', async () => {
      const before = (await one('user', 'id', 1)) as Row;
      await call('user.User/edit', { body: { id: 1, money: '99.00', score: 50, nickname: 'User' } });
      const after = (await one('user', 'id', 1)) as Row;
      expect(Number(after.money)).toBe(Number(before.money));
      expect(Number(after.score)).toBe(Number(before.score));
      const row = (await ok<{ row: Row }>('user.User/edit', { query: { id: 1 } })).row;
      expect(row.money).toBe('0.00');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('user.MoneyLog and user.ScoreLog', () => {
    let members = 0;
    async function addMember(): Promise<number> {
      members += 1;
      const username = `member${members}`;
      const response = await call('user.User/add', {
        body: { username, nickname: `Member ${members}`, group_id: 1, password: 'Member_pass1', email: `${username}@example.com`, mobile: `139${String(10_000_000 + members).slice(-8)}`, gender: 0, status: 'enable' },
      });
      expect(response.msg).toBe(t('Added successfully!'));
      return Number((await one('user', 'username', username))?.id);
    }

    async function logsOf(table: string, userId: number): Promise<Row[]> {
      return (await dynamicDb(db()).selectFrom(table).selectAll().where('user_id', '=', userId).orderBy('id').execute()) as Row[];
    }

    it('add GET ?userId answers {user}, without secrets', async () => {
      const data = await ok<{ user: Row }>('user.MoneyLog/add', { query: { userId: 1 } });
      expect(data.user).toMatchObject({ id: 1, username: 'user', money: '0.00' });
      // The member as the add form shows it: no secrets, nor the rest of the account (email, mobile, bank details).
      expect(Object.keys(data.user).sort()).toEqual(['avatar', 'id', 'money', 'nickname', 'score', 'username']);
      const missing = await call('user.MoneyLog/add', { query: { userId: 99_999 } });
      expect(missing.code).toBe(0);
      expect(missing.msg).toBe(t("The user can't find it"));
    });

    it('add POST writes the entry and moves the balance in one go', async () => {
      const id = await addMember();
      const response = await call('user.MoneyLog/add', { body: { user_id: id, money: '5.50', memo: 'Top up' } });
      expect(response.code).toBe(1);
      expect(Number((await one('user', 'id', id))?.money)).toBe(550);
      const [entry] = await logsOf('user_money_log', id);
      expect(entry).toMatchObject({ memo: 'Top up' });
      expect([Number(entry.money), Number(entry.before), Number(entry.after)]).toEqual([550, 0, 550]);

      const list = await ok<ListData>('user.MoneyLog/index', { query: { search: [{ field: 'user_id', val: String(id), operator: '=' }] } });
      expect(list.total).toBe(1);
      expect(list.list[0]).toMatchObject({ user_id: id, money: '5.50', before: '0.00', after: '5.50', memo: 'Top up', user: { id } });
      // The member as the ledger list carries it: key, label and nickname, not the balance or any other column.
      expect(Object.keys(list.list[0].user as Row).sort()).toEqual(['id', 'nickname', 'username']);
      expect(list.list[0].user).not.toHaveProperty('password');
      expect(list.list[0].user).not.toHaveProperty('salt');
      const users = await ok<ListData>('user.User/index', { query: { initValue: [id] } });
      expect(users.list[0].money).toBe('5.50');

      const quick = await ok<ListData>('user.MoneyLog/index', { query: { quickSearch: `member${members}` } });
      expect(quick.list.map((row) => row.user_id)).toEqual([id]);

      await ok('user.MoneyLog/add', { body: { user_id: id, money: '-0.50', memo: 'Fee' } });
      const entries = await logsOf('user_money_log', id);
      expect(entries.map((row) => [Number(row.money), Number(row.before), Number(row.after)])).toEqual([
        [550, 0, 550],
        [-50, 550, 500],
      ]);
      expect(Number((await one('user', 'id', id))?.money)).toBe(500);
    });

    it('refuses a negative balance, an empty memo, a bad amount and a missing member; nothing changes', async () => {
      const id = await addMember();
      await ok('user.MoneyLog/add', { body: { user_id: id, money: '1.00', memo: 'Seed' } });
      const before = { logs: await count('user_money_log'), money: Number((await one('user', 'id', id))?.money) };

      const negative = await call('user.MoneyLog/add', { body: { user_id: id, money: '-1.01', memo: 'Too much' } });
      expect(negative.code).toBe(0);
      expect(negative.msg).toBe(t('%s would become negative', ['Balance']));
      for (const memo of ['', '   ']) {
        const response = await call('user.MoneyLog/add', { body: { user_id: id, money: '1.00', memo } });
        expect(response.code, JSON.stringify(memo)).toBe(0);
        expect(response.msg).not.toBe('');
      }
      const noMemo = await call('user.MoneyLog/add', { body: { user_id: id, money: '1.00' } });
      expect(noMemo.code).toBe(0);
      for (const money of ['abc', '1.234', '', '1e2']) {
        const response = await call('user.MoneyLog/add', { body: { user_id: id, money, memo: 'Bad' } });
        expect(response.code, money).toBe(0);
      }
      const missing = await call('user.MoneyLog/add', { body: { user_id: 99_999, money: '1.00', memo: 'Nobody' } });
      expect(missing.code).toBe(0);
      expect(missing.msg).toBe(t("The user can't find it"));

      expect(await count('user_money_log')).toBe(before.logs);
      expect(Number((await one('user', 'id', id))?.money)).toBe(before.money);
    });

    it('refuses edit and del of ledger entries', async () => {
      const id = await addMember();
      await ok('user.MoneyLog/add', { body: { user_id: id, money: '2.00', memo: 'Entry' } });
      const [entry] = await logsOf('user_money_log', id);
      for (const request of [
        { path: 'user.MoneyLog/edit', body: { id: entry.id, money: '100.00', memo: 'Changed' } },
        { path: 'user.MoneyLog/edit', query: { id: entry.id } },
        { path: 'user.MoneyLog/del', method: 'DELETE' as const, query: { ids: [entry.id] } },
        { path: 'user.MoneyLog/sortable', body: { id: entry.id, targetId: entry.id } },
      ]) {
        const { path, ...rest } = request;
        const response = await call(path, rest);
        expect(response.code, path).toBe(0);
        expect(response.msg).toBe(t('Ledger entries cannot be changed or deleted'));
      }
      expect(await logsOf('user_money_log', id)).toEqual([entry]);
      expect(Number((await one('user', 'id', id))?.money)).toBe(200);
    });

    it('serialises concurrent adds: 20 × +1.00 end at 20.00 with a consistent chain', async () => {
      const id = await addMember();
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) => call('user.MoneyLog/add', { body: { user_id: id, money: '1.00', memo: `Parallel ${index}` } })),
      );
      expect(responses.map((response) => response.code)).toEqual(Array(20).fill(1));
      expect(Number((await one('user', 'id', id))?.money)).toBe(2000);
      const entries = await logsOf('user_money_log', id);
      expect(entries).toHaveLength(20);
      let balance = 0;
      for (const entry of entries) {
        expect(Number(entry.money)).toBe(100);
        expect(Number(entry.before)).toBe(balance);
        balance += 100;
        expect(Number(entry.after)).toBe(balance);
      }
      const users = await ok<ListData>('user.User/index', { query: { initValue: [id] } });
      expect(users.list[0].money).toBe('20.00');
    });

    it('ScoreLog: integer points, the same rules', async () => {
      const id = await addMember();
      await ok('user.ScoreLog/add', { body: { user_id: id, score: 7, memo: 'Reward' } });
      await ok('user.ScoreLog/add', { body: { user_id: id, score: '-2', memo: 'Spend' } });
      expect(Number((await one('user', 'id', id))?.score)).toBe(5);
      const list = await ok<ListData>('user.ScoreLog/index', { query: { search: [{ field: 'user_id', val: String(id), operator: '=' }], order: 'id,asc' } });
      expect(list.list.map((row) => [row.score, row.before, row.after])).toEqual([
        [7, 0, 7],
        [-2, 7, 5],
      ]);
      expect(list.list[0].user).toMatchObject({ id });
      expect(list.list[0].user).not.toHaveProperty('score');

      const before = await count('user_score_log');
      const negative = await call('user.ScoreLog/add', { body: { user_id: id, score: -6, memo: 'Too much' } });
      expect(negative.code).toBe(0);
      expect(negative.msg).toBe(t('%s would become negative', ['Points']));
      const fraction = await call('user.ScoreLog/add', { body: { user_id: id, score: 1.5, memo: 'Half' } });
      expect(fraction.code).toBe(0);
      const noMemo = await call('user.ScoreLog/add', { body: { user_id: id, score: 1, memo: '' } });
      expect(noMemo.code).toBe(0);
      const [entry] = await logsOf('user_score_log', id);
      const edit = await call('user.ScoreLog/edit', { body: { id: entry.id, score: 100 } });
      expect(edit.code).toBe(0);
      const del = await call('user.ScoreLog/del', { method: 'DELETE', query: { ids: [entry.id] } });
      expect(del.code).toBe(0);
      expect(await count('user_score_log')).toBe(before);
      expect(Number((await one('user', 'id', id))?.score)).toBe(5);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('admin operation log', () => {
    it('logs an admin add with the password masked', async () => {
      const body = { username: 'logged1', nickname: 'Logged', password: 'Secret_pass9', email: 'logged1@example.com', mobile: '13700000001', group_arr: [2], status: '1' };
      await ok('auth.Admin/add', { body });
      const data = await ok<ListData>('auth.AdminLog/index', { query: { search: [{ field: 'title', val: '管理员管理', operator: 'LIKE' }] } });
      const row = data.list.find((item) => String(item.data).includes('logged1')) as Row;
      expect(row).toBeDefined();
      expect(row).toMatchObject({ title: 'Administrators-Add', admin_id: 1, username: 'admin' });
      expect(String(row.url)).toContain('auth.Admin/add');
      const logged = JSON.parse(String(row.data)) as Row;
      expect(logged).toMatchObject({ username: 'logged1', password: '***', group_arr: [2] });
      expect(JSON.stringify(data)).not.toContain('Secret_pass9');
      const stored = (await db().selectFrom('admin_log').select('data').execute()) as { data: string }[];
      expect(stored.some((item) => String(item.data).includes('Secret_pass9'))).toBe(false);
    });

    it('reads every title in the reader\'s language whatever language wrote it, old rows as they were stored, in the list and the export', async () => {
      expect((await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, lang: 'zh-cn' })).code).toBe(1);
      await ok('auth.Admin/edit', { body: { id: 1, motto: 'Written in Chinese' }, lang: 'zh-cn' });
      await db().insertInto('admin_log').values({ admin_id: 1, username: 'admin', url: '/old', title: '旧的标题-编辑', data: '{}', ip: '127.0.0.1', request_id: 'old-row', useragent: 'test', create_time: 1_700_000_000 }).execute();
      const titles = async (lang: 'en' | 'zh-cn') => {
        const { list } = await ok<ListData>('auth.AdminLog/index', { lang, query: { limit: 50, order: 'id,desc' } });
        const login = list.find((row) => String(row.url).includes('Index/login'));
        const edit = list.find((row) => String(row.data).includes('Written in Chinese'));
        const old = list.find((row) => row.request_id === 'old-row');
        return [login?.title, edit?.title, old?.title];
      };
      expect(await titles('en')).toEqual(['Login', 'Administrators-Edit', '旧的标题-编辑']);
      expect(await titles('zh-cn')).toEqual(['登录', '管理员管理-编辑', '旧的标题-编辑']);

      const exported = async (lang: 'en' | 'zh-cn') => {
        const response = await server.raw('/chidaoadminstator.php/auth.AdminLog/export', { headers: { batoken: token, 'think-lang': lang } });
        expect(response.status).toBe(200);
        return response.text();
      };
      const english = await exported('en');
      expect(english).toContain('Administrators-Edit');
      expect(english).not.toContain('"key"');
      expect(await exported('zh-cn')).toContain('管理员管理-编辑');
    });

    it('finds a title by the words the reader sees, in either language, though it is stored as its key', async () => {
      expect((await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, lang: 'zh-cn' })).code).toBe(1);
      await ok('auth.Admin/edit', { body: { id: 1, motto: 'Searched by its title' }, lang: 'en' });
      const found = async (lang: 'en' | 'zh-cn', quickSearch: string) => {
        const { list } = await ok<ListData>('auth.AdminLog/index', { lang, query: { quickSearch, limit: 100, order: 'id,desc' } });
        return { login: list.some((row) => String(row.url).includes('Index/login')), edit: list.some((row) => String(row.data).includes('Searched by its title')), titles: new Set(list.map((row) => row.title)) };
      };
      // "Login" is stored as its key and read as 登录: a Chinese reader's 登录 finds it, and only logins.
      const login = await found('zh-cn', '登录');
      expect(login.login).toBe(true);
      expect([...login.titles]).toEqual(['登录']);
      expect((await found('en', 'login')).login).toBe(true);
      // A menu's button reads "menu-button": the whole shown title, or a part across its dash, finds it in both languages.
      expect((await found('zh-cn', '管理员管理-编辑')).edit).toBe(true);
      expect((await found('zh-cn', '员管理-编')).edit).toBe(true);
      expect((await found('en', 'Administrators-Edit')).edit).toBe(true);
      // Words no title shows find nothing, and LIKE's wildcards are plain characters.
      for (const term of ['不存在的标题', '%', '_-_']) {
        const none = await found('zh-cn', term);
        expect({ term, login: none.login, edit: none.edit, titles: [...none.titles] }).toEqual({ term, login: false, edit: false, titles: [] });
      }
    });

    it('masks the password of a login too', async () => {
      await server.loginAdmin();
      const row = (await db().selectFrom('admin_log').selectAll().where('title', '=', storedMessage('Login')).orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
      expect(JSON.parse(String(row.data))).toMatchObject({ username: 'admin', password: '***' });
      expect(String(row.data)).not.toContain(ADMIN_PASSWORD);
    });

    it('does not log index, select or edit GET requests', async () => {
      const before = await count('admin_log');
      await ok('auth.Admin/index');
      await ok('auth.Admin/index', { method: 'POST', body: { page: 1 } });
      await ok('user.User/index', { query: { select: 'true' } });
      await ok('auth.Group/index', { method: 'POST', body: { select: 'true' } });
      await ok('auth.Rule/index', { query: { select: 'true' } });
      await ok('auth.Admin/edit', { query: { id: 1 } });
      expect(await count('admin_log')).toBe(before);
      await ok('auth.Admin/edit', { body: { id: 1, motto: 'Logged change' } });
      expect(await count('admin_log')).toBe(before + 1);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('data recycle and sensitive data', () => {
    it('snapshots a deleted admin into the recycle bin, listed with its rule', async () => {
      await ok('auth.Admin/add', { body: { username: 'recycled1', nickname: 'Recycled', password: 'Recycle_pass1', email: 'recycled1@example.com', mobile: '13600000001', group_arr: [2], status: '1' } });
      const id = Number((await one('admin', 'username', 'recycled1'))?.id);
      const before = await count('security_data_recycle_log');
      await ok('auth.Admin/del', { method: 'DELETE', query: { ids: [id] } });
      expect(await count('security_data_recycle_log')).toBe(before + 1);

      const rule = (await one('security_data_recycle', 'controller_as', 'auth/admin')) as Row;
      const entry = (await db().selectFrom('security_data_recycle_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
      expect(entry).toMatchObject({ data_table: 'admin', primary_key: 'id' });
      expect(Number(entry.recycle_id)).toBe(Number(rule.id));
      expect(Number(entry.admin_id)).toBe(1);
      const snapshot = JSON.parse(String(entry.data)) as Row;
      expect(snapshot).toMatchObject({ username: 'recycled1', nickname: 'Recycled', email: 'recycled1@example.com' });
      expect(Number(snapshot.id)).toBe(id);

      const list = await ok<ListData>('security.DataRecycleLog/index', { query: { initValue: [entry.id] } });
      expect(list.list).toHaveLength(1);
      expect(rule.name).toBe('管理员'); // a seeded name, read in the reader's language (English here)
      expect(list.list[0]).toMatchObject({ data_table: 'admin', recycle: { id: Number(rule.id), name: 'Administrator' } });
      expect(list.list[0].admin).toEqual({ id: 1, nickname: 'Admin' });
      expect(list.list[0].admin).not.toHaveProperty('password');
      const quick = await ok<ListData>('security.DataRecycleLog/index', { query: { quickSearch: String(rule.name) } });
      expect(quick.list.map((row) => row.id)).toContain(Number(entry.id));
    });

    it('logs a changed mobile with before and after, and a password change as ******', async () => {
      await ok('auth.Admin/add', { body: { username: 'watched1', nickname: 'Watched', password: 'Watched_pass1', email: 'watched1@example.com', mobile: '13500000001', group_arr: [2], status: '1' } });
      const id = Number((await one('admin', 'username', 'watched1'))?.id);
      const logs = () => db().selectFrom('security_sensitive_data_log').selectAll().where('id_value', '=', id).orderBy('id').execute() as Promise<Row[]>;

      await ok('auth.Admin/edit', { body: { id, mobile: '13500000002', nickname: 'Watched again' } });
      let entries = await logs();
      expect(entries).toHaveLength(1);
      const rule = (await one('security_sensitive_data', 'controller_as', 'auth/admin')) as Row;
      expect(entries[0]).toMatchObject({ data_table: 'admin', primary_key: 'id', data_field: 'mobile', before: '13500000001', after: '13500000002' });
      expect(Number(entries[0].sensitive_id)).toBe(Number(rule.id));
      expect(Number(entries[0].admin_id)).toBe(1);
      expect(entries[0].data_comment).toBe((JSON.parse(String(rule.data_fields)) as Row).mobile);

      // An unchanged value and an empty password are not changes.
      await ok('auth.Admin/edit', { body: { id, mobile: '13500000002', password: '' } });
      expect(await logs()).toHaveLength(1);

      await ok('auth.Admin/edit', { body: { id, password: 'Watched_pass2' } });
      entries = await logs();
      expect(entries).toHaveLength(2);
      expect(entries[1]).toMatchObject({ data_field: 'password', before: '******', after: '******' });
      const stored = await db().selectFrom('security_sensitive_data_log').select(['before', 'after']).execute();
      expect(JSON.stringify(stored)).not.toContain('Watched_pass');
      expect(await canLogin('watched1', 'Watched_pass2')).toBe(true);
    });
  });
});
