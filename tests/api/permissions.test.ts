import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type ApiRequest, type ApiResponse, type TestServer } from '../support/test-server.js';

/**
 * Admin permission checks (docs/wire-contract.md#authentication-and-permission-checks, #data-limit,
 * #administrators): the permission node of every action, a limited role next to the super admin, data limits
 * on administrators, menus per role, disabled roles.
 */

interface MenuNode {
  id: number;
  name: string;
  type: string;
  children?: MenuNode[];
}

interface AdminListRow {
  id: number;
  username: string;
  group_arr: number[];
}

type Caller = 'super' | 'limited' | 'member' | 'anonymous';

const LIMITED_RULES = ['auth', 'auth/admin', 'auth/admin/index', 'auth/admin/add', 'auth/admin/del', 'user', 'user/user', 'user/user/index'];
/** A strict subset of the limited role: the limited admin dominates it and may manage its members. */
const SUB_RULES = ['user', 'user/user', 'user/user/index'];
const MEMBER_PASSWORD = 'Member_pass1';
const ADMIN_PASS = 'Some_pass1';
/** Every request here answers in milliseconds; a request that does not answer in time is a hang, not slowness. */
const REQUEST_DEADLINE_MS = 8_000;

function names(nodes: MenuNode[]): string[] {
  return nodes.flatMap((node) => [node.name, ...names(node.children ?? [])]);
}

describe.each(DATABASES)('admin permissions on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  let limitedToken: string;
  let memberToken: string;
  let limitedGroup: number;
  let subGroup: number;
  let limitedId: number;
  let subAdminId: number;
  let peerId: number;
  let counter = 0;

  const db = () => server.server.app.db;
  const unique = (prefix: string) => `${prefix}${++counter}x${Date.now() % 100000}`;

  /** `server.admin` with a deadline, so a server that never answers fails the test instead of stalling the suite. */
  async function admin<T = unknown>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${request.method ?? (request.body ? 'POST' : 'GET')} ${path} got no answer within ${REQUEST_DEADLINE_MS} ms`)), REQUEST_DEADLINE_MS);
    });
    try {
      return await Promise.race([server.admin<T>(path, request), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  function expectCode(response: ApiResponse, code: number, context = ''): void {
    expect(response.status).toBe(200);
    expect(response.code, `${context} → ${JSON.stringify({ code: response.code, msg: response.msg, data: response.data })}`).toBe(code);
    expect(typeof response.msg).toBe('string');
    if (code === 401) {
      expect(response.msg).not.toBe('');
      expect(response.data).toEqual([]);
    }
  }

  function expectNeedLogin(response: ApiResponse, context = ''): void {
    expectCode(response, 303, context);
    expect(response.data).toEqual({ type: 'need login', errorId: 'needLogin' });
  }

  async function ruleIds(ruleNames: string[]): Promise<number[]> {
    const rows = (await db().selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ruleNames).execute()) as { id: number; name: string }[];
    expect(rows.map((row) => row.name).sort()).toEqual([...ruleNames].sort());
    return rows.map((row) => Number(row.id));
  }

  async function addGroup(name: string, ruleNames: string[], pid = 1): Promise<number> {
    const response = await admin('auth.Group/add', { token: superToken, body: { pid, name, rules: await ruleIds(ruleNames), status: '1' } });
    expectCode(response, 1, `add group ${name}`);
    return Number(((await db().selectFrom('admin_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as { id: number }).id);
  }

  function addAdmin(token: string, username: string, groups: number[], lang: 'en' | 'zh-cn' = 'en'): Promise<ApiResponse> {
    return admin('auth.Admin/add', { token, lang, body: { username, nickname: username, password: ADMIN_PASS, group_arr: groups, status: '1' } });
  }

  async function adminId(username: string): Promise<number | undefined> {
    const row = (await db().selectFrom('admin').select('id').where('username', '=', username).executeTakeFirst()) as { id: number } | undefined;
    return row ? Number(row.id) : undefined;
  }

  async function adminInSubGroup(): Promise<number> {
    const username = unique('target');
    expectCode(await addAdmin(superToken, username, [subGroup]), 1, `add ${username}`);
    return (await adminId(username)) as number;
  }

  const credentials = (caller: Caller): Pick<ApiRequest, 'token' | 'userToken'> =>
    caller === 'super' ? { token: superToken } : caller === 'limited' ? { token: limitedToken } : caller === 'member' ? { userToken: memberToken } : {};

  beforeAll(async () => {
    server = await startTestServer(kind);
    superToken = (await server.loginAdmin()).token;
    limitedGroup = await addGroup('Limited role', LIMITED_RULES);
    subGroup = await addGroup('Sub role', SUB_RULES, limitedGroup);
    expectCode(await addAdmin(superToken, 'limited', [limitedGroup]), 1, 'add limited');
    expectCode(await addAdmin(superToken, 'subadmin', [subGroup]), 1, 'add subadmin');
    expectCode(await addAdmin(superToken, 'peer', [limitedGroup]), 1, 'add peer');
    limitedId = (await adminId('limited')) as number;
    subAdminId = (await adminId('subadmin')) as number;
    peerId = (await adminId('peer')) as number;
    limitedToken = (await server.loginAdmin('limited', ADMIN_PASS)).token;

    await db().updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '' }).where('id', '=', 1).execute();
    const member = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    expectCode(member, 1, 'member login');
    memberToken = member.data.userInfo.token;
  });
  afterAll(async () => {
    // A server stuck on a request (see the last block) cannot close; do not let that stall the run.
    await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  });

  describe('permission matrix', () => {
    /** Each action with a request that succeeds once the permission check is passed. */
    const actions: { path: string; request: () => Promise<ApiRequest>; expected: Partial<Record<Caller, number>> }[] = [
      { path: 'auth.Admin/index', request: async () => ({}), expected: { super: 1, limited: 1, member: 303, anonymous: 303 } },
      {
        path: 'auth.Admin/add',
        request: async () => ({ body: { username: unique('made'), nickname: 'Made', password: 'Made_pass1', group_arr: [subGroup], status: '1' } }),
        // the limited admin's add and del (code 1) are in "writes by the limited admin" below
        expected: { super: 1, member: 303, anonymous: 303 },
      },
      {
        path: 'auth.Admin/del',
        request: async () => ({ method: 'DELETE', query: { ids: [await adminInSubGroup()] } }),
        expected: { super: 1, member: 303, anonymous: 303 },
      },
      { path: 'user.User/index', request: async () => ({}), expected: { super: 1, limited: 1, member: 303, anonymous: 303 } },
      { path: 'auth.Rule/edit', request: async () => ({ query: { id: (await ruleIds(['auth/admin']))[0] } }), expected: { super: 1, limited: 401, member: 303, anonymous: 303 } },
      { path: 'auth.Group/index', request: async () => ({}), expected: { super: 1, limited: 401, member: 303, anonymous: 303 } },
    ];

    for (const action of actions) {
      const summary = Object.entries(action.expected).map(([caller, code]) => `${caller} ${code}`).join(', ');
      it(`${action.path}: ${summary}`, async () => {
        for (const [caller, code] of Object.entries(action.expected) as [Caller, number][]) {
          const response = await admin(action.path, { ...(await action.request()), ...credentials(caller) });
          if (code === 303) expectNeedLogin(response, `${caller} ${action.path}`);
          else expectCode(response, code, `${caller} ${action.path}`);
        }
      });
    }

    it('a refused request changes nothing', async () => {
      const username = unique('refused');
      for (const request of [{ userToken: memberToken }, {}]) {
        expectNeedLogin(await admin('auth.Admin/add', { ...request, body: { username, nickname: 'x', password: 'Made_pass1', group_arr: [subGroup], status: '1' } }));
      }
      expect(await adminId(username)).toBeUndefined();
      const target = await adminInSubGroup();
      for (const request of [{ userToken: memberToken }, {}]) {
        expectNeedLogin(await admin('auth.Admin/del', { ...request, method: 'DELETE', query: { ids: [target] } }));
      }
      expect(await db().selectFrom('admin').select('id').where('id', '=', target).executeTakeFirst()).toBeDefined();
      const rule = (await ruleIds(['auth/admin']))[0];
      expectCode(await admin('auth.Rule/edit', { token: limitedToken, body: { id: rule, title: 'Hijacked' } }), 401);
      const stored = (await db().selectFrom('admin_rule').select('title').where('id', '=', rule).executeTakeFirstOrThrow()) as { title: string };
      expect(stored.title).not.toBe('Hijacked');
    });

    it('401 carries the standard message in en and zh-cn', async () => {
      const en = await admin('auth.Group/index', { token: limitedToken, lang: 'en' });
      const zh = await admin('auth.Group/index', { token: limitedToken, lang: 'zh-cn' });
      expectCode(en, 401);
      expectCode(zh, 401);
      expect(en.msg).toBe('You have no permission to operate');
      expect(zh.msg).toContain('权限');
    });

    it('controller and action names are case-insensitive', async () => {
      for (const path of ['auth.admin/INDEX', 'Auth.Admin/Index', 'AUTH.ADMIN/index', 'user.user/index']) {
        expectCode(await admin(path, { token: limitedToken }), 1, path);
      }
      for (const path of ['auth.rule/EDIT', 'AUTH.GROUP/INDEX']) {
        expectCode(await admin(path, { token: limitedToken, query: { id: 1 } }), 401, path);
      }
    });
  });

  describe('what the limited admin sees', () => {
    it('only admins of the groups it dominates, plus itself', async () => {
      const response = await admin<{ list: AdminListRow[]; total: number }>('auth.Admin/index', { token: limitedToken, query: { limit: 100 } });
      expectCode(response, 1);
      const ids = response.data.list.map((row) => row.id);
      expect(ids).toContain(limitedId);
      expect(ids).toContain(subAdminId);
      expect(ids).not.toContain(1);
      expect(ids).not.toContain(peerId);
      expect(response.data.total).toBe(ids.length);
      for (const row of response.data.list) {
        expect(row.group_arr).toEqual(row.id === limitedId ? [limitedGroup] : [subGroup]);
      }
      const all = await admin<{ list: AdminListRow[]; total: number }>('auth.Admin/index', { token: superToken, query: { limit: 100 } });
      expect(all.data.list.map((row) => row.id)).toEqual(expect.arrayContaining([1, limitedId, subAdminId, peerId]));
      expect(all.data.total).toBeGreaterThan(response.data.total);
    });

    it('only its own rules as menus', async () => {
      const response = await admin<{ adminInfo: { super: boolean; id: number }; menus: MenuNode[] }>('Index/index', { token: limitedToken });
      expectCode(response, 1);
      expect(response.data.adminInfo).toMatchObject({ id: limitedId, super: false });
      expect(names(response.data.menus).sort()).toEqual([...LIMITED_RULES].sort());
      const auth = response.data.menus.find((node) => node.name === 'auth') as MenuNode;
      const admins = auth.children?.find((node) => node.name === 'auth/admin') as MenuNode;
      expect((admins.children ?? []).map((node) => node.name).sort()).toEqual(['auth/admin/add', 'auth/admin/del', 'auth/admin/index']);
      expect((admins.children ?? []).every((node) => node.type === 'button')).toBe(true);
    });

    it('only the definitions of the screens it may list, and those they refer to, without seed rows', async () => {
      type Bootstrap = { definitions: { id: string; seed?: unknown }[]; schemaPages: string[] };
      const limited = await admin<Bootstrap>('Index/index', { token: limitedToken });
      // auth/admin/index and user/user/index are granted; admins refer to groups, members to groups and teams.
      expect(limited.data.definitions.map((definition) => definition.id)).toEqual(['system/admin', 'system/admin_group', 'system/user', 'system/user_group', 'team/team']);
      expect(limited.data.definitions.every((definition) => definition.seed === undefined)).toBe(true);
      // Every schema screen is named, so the client answers 401 (not 404) for one it may not open.
      expect(limited.data.schemaPages).toEqual(expect.arrayContaining(['auth/admin', 'auth/rule', 'user/user']));
      const everything = await admin<Bootstrap>('Index/index', { token: superToken });
      const ids = everything.data.definitions.map((definition) => definition.id);
      expect(ids).toEqual(expect.arrayContaining(['system/admin', 'system/user', 'system/user_group', 'survey/survey']));
      expect(ids).not.toContain('system/token');
    });

    it('names each menu page by BuildAdmin’s view file, so BuildAdmin’s own client can open it', async () => {
      const response = await admin<{ menus: (MenuNode & { component: string })[] }>('Index/index', { token: superToken });
      const all = (nodes: (MenuNode & { component: string })[]): (MenuNode & { component: string })[] => nodes.flatMap((node) => [node, ...all((node.children ?? []) as (MenuNode & { component: string })[])]);
      const component = (name: string) => all(response.data.menus).find((node) => node.name === name)?.component;
      expect(component('auth/admin')).toBe('/src/views/backend/auth/admin/index.vue');
      expect(component('user/moneyLog')).toBe('/src/views/backend/user/moneyLog/index.vue');
      expect(component('dashboard')).toBe('/src/views/backend/dashboard.vue');
      expect(component('routine/adminInfo')).toBe('/src/views/backend/routine/adminInfo.vue');
    });

    it('401 for auth.Rule/edit', async () => {
      const rule = (await ruleIds(['auth/admin/index']))[0];
      const response = await admin('auth.Rule/edit', { token: limitedToken, query: { id: rule } });
      expectCode(response, 401);
      expect(response.msg).toBe('You have no permission to operate');
    });
  });

  describe('a disabled group', () => {
    it('no longer grants its rules; enabling it again restores them', async () => {
      const subToken = (await server.loginAdmin('subadmin', ADMIN_PASS)).token;
      expectCode(await admin('user.User/index', { token: subToken }), 1);

      expectCode(await admin('auth.Group/edit', { token: superToken, body: { id: limitedGroup, status: '0' } }), 1, 'disable group');
      expectCode(await admin('auth.Admin/index', { token: limitedToken }), 401);
      expectCode(await admin('user.User/index', { token: limitedToken }), 401);
      const index = await admin('Index/index', { token: limitedToken });
      expectCode(index, 0);
      expect(index.msg).toMatch(/menu/i);
      expect(index.data).toEqual({ errorId: 'noBackgroundMenu' });
      // still logged in: the token is valid, only the rights are gone
      const login = await admin('Index/login', { token: limitedToken });
      expectCode(login, 303);
      expect(login.data).toEqual({ type: 'logged in', errorId: 'loggedIn' });
      // a member of another group keeps its rights
      expectCode(await admin('user.User/index', { token: subToken }), 1);

      expectCode(await admin('auth.Group/edit', { token: superToken, body: { id: limitedGroup, status: '1' } }), 1, 'enable group');
      expectCode(await admin('auth.Admin/index', { token: limitedToken }), 1);
      expectCode(await admin('Index/index', { token: limitedToken }), 1);
    });

    it('a disabled super group makes its admin an admin without rights', async () => {
      expectCode(await admin('auth.Group/add', { token: superToken, body: { pid: 1, name: 'Second super', rules: ['*'], status: '1' } }), 1, 'add super group');
      const group = (await db().selectFrom('admin_group').select(['id', 'rules']).where('name', '=', 'Second super').executeTakeFirstOrThrow()) as { id: number; rules: string };
      expect(group.rules).toBe('*');
      expectCode(await addAdmin(superToken, 'supertwo', [Number(group.id)]), 1, 'add supertwo');
      const token = (await server.loginAdmin('supertwo', ADMIN_PASS)).token;
      const before = await admin<{ adminInfo: { super: boolean } }>('Index/index', { token });
      expectCode(before, 1);
      expect(before.data.adminInfo.super).toBe(true);
      expectCode(await admin('auth.Rule/edit', { token, query: { id: 1 } }), 1);

      expectCode(await admin('auth.Group/edit', { token: superToken, body: { id: group.id, status: '0' } }), 1, 'disable super group');
      expectCode(await admin('auth.Rule/edit', { token, query: { id: 1 } }), 401);
      expectCode(await admin('auth.Admin/index', { token }), 401);
      expectCode(await admin('Index/index', { token }), 0);
    });
  });

  // Keep this block last: when a write by a non-super admin hangs the server, only these tests fail.
  describe('writes by the limited admin', () => {
    it('adds an administrator to a group it dominates; it then appears in its list', async () => {
      const username = unique('helper');
      expectCode(await addAdmin(limitedToken, username, [subGroup]), 1, 'limited add');
      const id = await adminId(username);
      expect(id).toBeDefined();
      const list = await admin<{ list: AdminListRow[] }>('auth.Admin/index', { token: limitedToken, query: { limit: 100 } });
      expect(list.data.list.map((row) => row.id)).toContain(id);
    });

    it('cannot add an administrator to the super group or to its own group', async () => {
      for (const group of [1, limitedGroup]) {
        const username = unique('climber');
        const response = await addAdmin(limitedToken, username, [group]);
        expectCode(response, 0, `add to group ${group}`);
        expect(response.data).toMatchObject({ errorId: 'groupNotManageable' });
        expect(await adminId(username)).toBeUndefined();
      }
      const zh = await addAdmin(limitedToken, unique('climber'), [1], 'zh-cn');
      expectCode(zh, 0);
      expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    });

    it('deletes an administrator of a group it dominates', async () => {
      const target = await adminInSubGroup();
      expectCode(await admin('auth.Admin/del', { token: limitedToken, method: 'DELETE', query: { ids: [target] } }), 1, 'limited del');
      expect(await db().selectFrom('admin').select('id').where('id', '=', target).executeTakeFirst()).toBeUndefined();
    });

    it('cannot delete itself, nor admins outside its data limit', async () => {
      for (const id of [limitedId, 1, peerId]) {
        const response = await admin('auth.Admin/del', { token: limitedToken, method: 'DELETE', query: { ids: [id] } });
        expectCode(response, 0, `delete ${id}`);
        expect(await db().selectFrom('admin').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
      }
      // a batch with itself in it deletes only the others
      const other = await adminInSubGroup();
      expectCode(await admin('auth.Admin/del', { token: limitedToken, method: 'DELETE', query: { ids: [limitedId, other] } }), 1);
      expect(await db().selectFrom('admin').select('id').where('id', '=', other).executeTakeFirst()).toBeUndefined();
      expect(await adminId('limited')).toBe(limitedId);
      expectCode(await admin('Index/index', { token: limitedToken }), 1);
    });
  });
});
