import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MARKER, Header } from '../../src/contract/headers.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/** `GET /api/index/index` (docs/wire-contract.md#member-bootstrap): the member centre's bootstrap, signed in or not. */

type Rule = { id: number; type: string; name: string; component?: string; children?: Rule[] };
interface MemberIndex {
  site: { siteName: string; upload: unknown };
  openMemberCenter: boolean;
  userInfo: { id?: number; username?: string; token?: string } | [];
  rules: Rule[];
  menus: Rule[];
}
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('member index on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let counter = 0;
  const db = () => server.server.app.db;

  async function member(groupId = 1): Promise<{ id: number; token: string; username: string }> {
    const username = `mi${++counter}${kind.slice(0, 2)}`;
    expect((await server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: groupId, password: PASSWORD } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    return { id: login.data.userInfo.id, token: login.data.userInfo.token, username };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    adminToken = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('gives a signed-in member their menus and the member object', async () => {
    const { id, token, username } = await member();
    // our own client, which marks its calls, gets every page
    const answer = await server.api<MemberIndex>('index/index', { userToken: token, query: { requiredLogin: 1 }, headers: { [Header.client]: CLIENT_MARKER } });
    expect(answer.code).toBe(1);
    expect(answer.data.userInfo).toMatchObject({ id, username, token });
    expect(answer.data.openMemberCenter).toBe(true);
    expect(answer.data.site.upload).toBeTruthy();
    // Only top-level directories become menus, tasks first, each with its pages.
    expect(answer.data.menus.map((rule) => rule.name)).toEqual(['survey', 'account', 'team']);
    expect(answer.data.menus.every((rule) => rule.type === 'menu_dir')).toBe(true);
    const account = answer.data.menus.find((rule) => rule.name === 'account');
    // pages BuildAdmin has are named by its view file, ours by our name
    expect(account?.children?.map((rule) => rule.component)).toEqual([
      '/src/views/frontend/user/account/overview.vue', '/src/views/frontend/user/account/profile.vue', '/src/views/frontend/user/account/changePassword.vue',
      '/src/views/frontend/user/account/integral.vue', '/src/views/frontend/user/account/balance.vue', 'account/payout',
    ]);
    expect(answer.data.rules.some((rule) => rule.type === 'menu' || rule.type === 'menu_dir')).toBe(false);
  });

  it('limits the menus to the rules of the member’s group', async () => {
    const overview = (await db().selectFrom('user_rule').select('id').where('name', 'in', ['account', 'account/overview']).execute()) as { id: number }[];
    const added = await server.admin('user.Group/add', { token: adminToken, body: { name: `Limited ${kind}`, rules: overview.map((row) => row.id), status: '1' } });
    expect(added.code).toBe(1);
    const group = (await db().selectFrom('user_group').select('id').where('name', '=', `Limited ${kind}`).executeTakeFirstOrThrow()) as { id: number };
    const { token } = await member(Number(group.id));
    const answer = await server.api<MemberIndex>('index/index', { userToken: token, query: { requiredLogin: 1 } });
    expect(answer.data.menus.map((rule) => [rule.name, rule.children?.map((child) => child.name)])).toEqual([['account', ['account/overview']]]);
  });

  it('asks a visitor to log in when the page needs it, and refreshes an expired token', async () => {
    const visitor = await server.api<MemberIndex>('index/index', { query: { requiredLogin: 1 } });
    expect(visitor.code).toBe(303);
    expect(visitor.data).toEqual({ type: 'need login', errorId: 'needLogin' });

    const { token } = await member();
    await db().updateTable('token').set({ expire_time: Math.floor(Date.now() / 1000) - 10 }).where('token', '=', server.server.app.tokens.digest(token)).execute();
    expect((await server.api('index/index', { userToken: token, query: { requiredLogin: 1 } })).code).toBe(409);
  });

  it('gives a visitor on a public page only the public rules and no member', async () => {
    await db().insertInto('user_rule').values({ pid: 0, type: 'nav', title: 'Help', name: 'help', path: 'help', icon: '', menu_type: 'link', url: 'https://example.com/help', component: '', no_login_valid: 1, extend: 'none', remark: '', weigh: 0, status: '1', create_time: 0, update_time: 0 }).execute();
    const answer = await server.api<MemberIndex>('index/index', { query: { requiredLogin: 0 } });
    expect(answer.code).toBe(1);
    expect(answer.data.userInfo).toEqual([]);
    expect(answer.data.menus).toEqual([]);
    expect(answer.data.rules.map((rule) => rule.name)).toEqual(['help']);
    expect(answer.data.rules[0]?.children).toEqual([]);
  });

  it('closes sign-in and registration when the member centre is switched off', async () => {
    await db().updateTable('config').set({ value: '0' }).where('name', '=', 'open_member_center').execute();
    server.server.app.config.invalidate();
    try {
      const closed = await server.api('user/checkIn', { lang: 'en' });
      expect(closed).toMatchObject({ code: 0, msg: 'Member center disabled' });
      const index = await server.api<MemberIndex>('index/index');
      expect(index.data.openMemberCenter).toBe(false);
    } finally {
      await db().updateTable('config').set({ value: '1' }).where('name', '=', 'open_member_center').execute();
      server.server.app.config.invalidate();
    }
  });
});
