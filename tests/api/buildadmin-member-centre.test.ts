import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_MARKER, Header } from '../../src/contract/headers.js';
import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import { codeIn } from '../support/mail-sink.js';
import { SmsSink } from '../support/sms-sink.js';
import { proveSms } from '../support/code-channels.js';
import { createTestDatabase, DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * BuildAdmin 2.1.2's own member client against our server: the requests it makes, as its source makes
 * them, and the member rules its router needs. Its router adds a member-centre route only for a `tab`
 * menu whose `component` is one of its view files, so the expected values are written out here from that
 * client's file list, not computed by our code.
 */

/** The view files of BuildAdmin 2.1.2's member centre (`web/src/views/frontend/user/account/`). */
const BUILDADMIN_MEMBER_VIEWS = new Set([
  '/src/views/frontend/user/account/balance.vue',
  '/src/views/frontend/user/account/changePassword.vue',
  '/src/views/frontend/user/account/integral.vue',
  '/src/views/frontend/user/account/overview.vue',
  '/src/views/frontend/user/account/profile.vue',
]);

/** Its seeded member menus: name, path and component, in menu order (weigh desc). */
const BUILDADMIN_MEMBER_MENUS = [
  { name: 'account/overview', path: 'account/overview', component: '/src/views/frontend/user/account/overview.vue' },
  { name: 'account/profile', path: 'account/profile', component: '/src/views/frontend/user/account/profile.vue' },
  { name: 'account/changePassword', path: 'account/changePassword', component: '/src/views/frontend/user/account/changePassword.vue' },
  { name: 'account/integral', path: 'account/integral', component: '/src/views/frontend/user/account/integral.vue' },
  { name: 'account/balance', path: 'account/balance', component: '/src/views/frontend/user/account/balance.vue' },
];

const PASSWORD = 'Member_pass1';

type Rule = { id: number; type: string; name: string; path: string; component: string; menu_type: string; url: string; children?: Rule[] };
interface MemberIndex {
  userInfo: { id: number; username: string };
  rules: Rule[];
  menus: Rule[];
}

/** BuildAdmin's client sends `server: true` and its token, never our marker (the test server's default headers). */
function asBuildAdmin(userToken: string, request: ApiRequest = {}): ApiRequest {
  return { ...request, userToken };
}

/** The pages BuildAdmin's router would add: tab menus whose component is one of its views, iframes; depth first. */
function routedPages(rules: readonly Rule[]): Rule[] {
  return rules.flatMap((rule) => [
    ...(rule.type === 'menu' && ((rule.menu_type === 'tab' && BUILDADMIN_MEMBER_VIEWS.has(rule.component)) || rule.menu_type === 'iframe') ? [rule] : []),
    ...routedPages(rule.children ?? []),
  ]);
}

function menuItems(rules: readonly Rule[]): Rule[] {
  return rules.flatMap((rule) => [...(rule.type === 'menu' ? [rule] : []), ...menuItems(rule.children ?? [])]);
}

describe.each(DATABASES)('BuildAdmin’s member centre on %s', (kind) => {
  let server: TestServer;
  const texts = new SmsSink();
  let adminToken: string;
  let counter = 0;
  const db = () => server.server.app.db;

  async function newMember(): Promise<{ username: string; mobile: string }> {
    counter += 1;
    const username = `bam${counter}${kind.slice(0, 2)}`;
    const mobile = `1380000${String(counter).padStart(3, '0')}${kind === 'sqlite' ? 1 : 2}`;
    const added = await server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: 1, password: PASSWORD, mobile } });
    expect(added.code).toBe(1);
    return { username, mobile };
  }

  /** `POST /api/user/checkIn` as BuildAdmin's login form posts it. */
  async function signIn(username: string, password = PASSWORD) {
    const login = await server.api<{ userInfo: { token: string; refresh_token: string }; routePath: string }>('user/checkIn', {
      body: { tab: 'login', username, password, keep: true, captchaId: '', captchaInfo: '' },
    });
    expect(login.code).toBe(1);
    return { token: login.data.userInfo.token, refreshToken: login.data.userInfo.refresh_token, routePath: login.data.routePath };
  }

  async function solvedCaptcha(): Promise<{ captchaId: string; captchaInfo: string }> {
    const captchaId = `bam-${kind}-${++counter}`;
    expect((await server.api('common/clickCaptcha', { query: { id: captchaId } })).code).toBe(1);
    const puzzle = await new ClickCaptchaService(db()).puzzleOf(captchaId);
    if (!puzzle) throw new Error('no puzzle');
    return { captchaId, captchaInfo: `${puzzle.targets.map((target) => `${target.x + target.width / 2},${target.y + target.height / 2}`).join('-')};350;200` };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { sms: texts });
    adminToken = (await server.loginAdmin()).token;
    await proveSms(server, adminToken);
  });

  afterAll(async () => {
    await server?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives BuildAdmin’s client its own member menus, each naming a view file its router has, and no entry leading nowhere', async () => {
    const { username } = await newMember();
    const { token, routePath } = await signIn(username);
    expect(routePath).toBe('/user');
    const index = await server.api<MemberIndex>('index/index', asBuildAdmin(token, { query: { requiredLogin: 1 } }));
    expect(index.code).toBe(1);
    expect(index.data.userInfo.username).toBe(username);
    // only the account directory has pages BuildAdmin can open; tasks, ranking, payouts and team are left out
    expect(index.data.menus.map((rule) => rule.name)).toEqual(['account']);
    const pages = menuItems(index.data.menus);
    expect(pages.map(({ name, path, component }) => ({ name, path, component }))).toEqual(BUILDADMIN_MEMBER_MENUS);
    expect(pages.every((rule) => rule.menu_type === 'tab')).toBe(true);
    // every menu it is given becomes a route, so the loading page finds where to go first
    expect(routedPages(index.data.menus)).toHaveLength(pages.length);
    expect(routedPages(index.data.menus)[0]?.path).toBe('account/overview');
  });

  it('gives our own client every page, ours by their names and BuildAdmin’s by its view files', async () => {
    const { username } = await newMember();
    const { token } = await signIn(username);
    const index = await server.api<MemberIndex>('index/index', { userToken: token, query: { requiredLogin: 1 }, headers: { [Header.client]: CLIENT_MARKER } });
    expect(index.data.menus.map((rule) => rule.name)).toEqual(['survey', 'account', 'team']);
    expect(Object.fromEntries(menuItems(index.data.menus).map((rule) => [rule.name, rule.component]))).toEqual({
      'survey/tasks': 'survey/tasks',
      'survey/tracking': 'survey/tracking',
      'survey/ranking': 'survey/ranking',
      ...Object.fromEntries(BUILDADMIN_MEMBER_MENUS.map((menu) => [menu.name, menu.component])),
      'account/payout': 'account/payout',
      'team/members': 'team/members',
    });
  });

  it('keeps an administrator’s iframe and link menus for BuildAdmin’s client, which opens those itself', async () => {
    const account = (await db().selectFrom('user_rule').select('id').where('name', '=', 'account').executeTakeFirstOrThrow()) as { id: number };
    const added = await server.admin('user.Rule/add', {
      token: adminToken,
      body: { pid: account.id, type: 'menu', title: 'Help', name: `help${kind}`, path: `help${kind}`, menu_type: 'iframe', url: 'https://example.com/help', component: '', status: '1' },
    });
    expect(added.code).toBe(1);
    try {
      const { username } = await newMember();
      const { token } = await signIn(username);
      const index = await server.api<MemberIndex>('index/index', asBuildAdmin(token, { query: { requiredLogin: 1 } }));
      expect(menuItems(index.data.menus).find((rule) => rule.name === `help${kind}`)).toMatchObject({ menu_type: 'iframe', url: 'https://example.com/help' });
    } finally {
      await db().deleteFrom('user_rule').where('name', '=', `help${kind}`).execute();
    }
  });

  it('answers the calls of BuildAdmin’s member pages as they send them', async () => {
    const { username } = await newMember();
    const { token, refreshToken } = await signIn(username);

    const overview = await server.api<{ days: string[]; score: number[]; money: string[] }>('account/overview', asBuildAdmin(token));
    expect(overview.code).toBe(1);
    expect(overview.data.days).toHaveLength(7);

    const profile = await server.api<{ accountVerificationType: string[] }>('account/profile', asBuildAdmin(token));
    expect(profile.code).toBe(1);
    expect(Array.isArray(profile.data.accountVerificationType)).toBe(true);

    // its profile form posts the whole stored member back: only the profile's own fields change
    const checkIn = await server.api<{ userLoginCaptchaSwitch: boolean; accountVerificationType: string[] }>('user/checkIn');
    expect(checkIn.data).toHaveProperty('userLoginCaptchaSwitch');
    const index = await server.api<{ userInfo: Record<string, unknown> }>('index/index', asBuildAdmin(token, { query: { requiredLogin: 1 } }));
    const form = { ...index.data.userInfo, nickname: 'Renamed', motto: 'Hello', gender: 1, birthday: '2000-02-03', money: '999.00', score: 999 };
    const saved = await server.api('account/profile', asBuildAdmin(token, { body: form }));
    expect(saved.code).toBe(1);
    const stored = (await db().selectFrom('user').select(['nickname', 'motto', 'gender', 'money', 'score']).where('username', '=', username).executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect({ ...stored, money: Number(stored.money), score: Number(stored.score), gender: Number(stored.gender) }).toEqual({ nickname: 'Renamed', motto: 'Hello', gender: 1, money: 0, score: 0 });

    for (const ledger of ['balance', 'integral']) {
      const page = await server.api<{ list: unknown[]; total: number }>(`account/${ledger}`, asBuildAdmin(token, { query: { page: 1, limit: 12 } }));
      expect({ ledger, code: page.code, total: page.data.total }).toEqual({ ledger, code: 1, total: 0 });
    }

    // its refresh: the stale access token in the header, the refresh token in the body
    const refreshed = await server.api<{ type: string; token: string }>('common/refreshToken', asBuildAdmin(token, { body: { refreshToken } }));
    expect(refreshed.data.type).toBe('user-refresh');

    // its password form posts the confirmation along; every session ends after
    const changed = await server.api('account/changePassword', asBuildAdmin(refreshed.data.token, { body: { oldPassword: PASSWORD, newPassword: 'Member_pass2', confirmPassword: 'Member_pass2' } }));
    expect(changed.code).toBe(1);
    expect((await server.api('account/overview', asBuildAdmin(refreshed.data.token))).code).toBe(303);

    const again = await signIn(username, 'Member_pass2');
    expect((await server.api('user/logout', asBuildAdmin(again.token, { body: { refreshToken: again.refreshToken } }))).code).toBe(1);
    expect((await server.api('account/overview', asBuildAdmin(again.token))).code).toBe(303);
  });

  it('sends an SMS code for BuildAdmin’s body, where the template code names the event, and for ours', async () => {
    const { mobile } = await newMember();
    const outbox = async () => texts.messages.filter((message) => message.mobile === mobile).length;

    const theirs = await server.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', ...(await solvedCaptcha()) } });
    expect({ code: theirs.code, msg: theirs.msg }).toEqual({ code: 1, msg: 'SMS sent successfully' });
    expect(await outbox()).toBe(1);

    // the code it sent retrieves the password, as BuildAdmin's retrieve form then posts it
    const sent = texts.last(mobile);
    const retrieved = await server.api('account/retrievePassword', { body: { type: 'mobile', account: mobile, captcha: codeIn(sent.content), password: 'Member_pass3' } });
    expect(retrieved.code).toBe(1);

    // a wrong captcha that came along is refused, and nothing is sent
    const wrong = await server.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', captchaId: 'nope', captchaInfo: '1,1;350;200' }, lang: 'zh-cn' });
    expect(wrong.code).toBe(0);
    expect(wrong.msg).toBe('验证码错误！');
    // a template code that names no event is a parameter error in both languages
    const unknown = await server.api('Sms/send', { body: { mobile, template_code: 'SMS_0001' } });
    expect({ code: unknown.code, msg: unknown.msg }).toEqual({ code: 0, msg: 'Parameter error' });
    expect((await server.api('Sms/send', { body: { mobile, template_code: 'SMS_0001' }, lang: 'zh-cn' })).msg).toBe('参数错误');
    expect(await outbox()).toBe(1);
  });

  it('finds the event’s template for BuildAdmin’s body whatever its provider code is', async () => {
    const { mobile } = await newMember();
    await db().updateTable('sms_template').set({ template_code: 'SMS_1234' }).where('event', '=', 'user_mobile_verify').execute();
    try {
      const { username } = await newMember();
      const own = await db().selectFrom('user').select('mobile').where('username', '=', username).executeTakeFirstOrThrow();
      const { token } = await signIn(username);
      const sent = await server.api('Sms/send', asBuildAdmin(token, { body: { mobile: own.mobile, template_code: 'user_mobile_verify', ...(await solvedCaptcha()) } }));
      expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 1, msg: 'SMS sent successfully' });
      expect(texts.last(String(own.mobile)).templateCode).toBe('SMS_1234');
      // our body still chooses a template by its code
      const ours = await server.api('Sms/send', { body: { mobile, event: 'user_retrieve_pwd', template_code: 'user_retrieve_pwd', ...(await solvedCaptcha()) } });
      expect(ours.code).toBe(1);
    } finally {
      await db().updateTable('sms_template').set({ template_code: 'user_mobile_verify' }).where('event', '=', 'user_mobile_verify').execute();
    }
  });

  it('lets a member token expire after the member token lifetime set on the config screen', async () => {
    const saved = await server.admin('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 120 } });
    expect(saved.code).toBe(1);
    try {
      const { username } = await newMember();
      const { token } = await signIn(username);
      expect((await server.api('account/overview', asBuildAdmin(token))).code).toBe(1);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 100_000);
      expect((await server.api('account/overview', asBuildAdmin(token))).code).toBe(1);
      vi.setSystemTime(Date.now() + 21_000);
      // expired: BuildAdmin's client refreshes on 409
      expect((await server.api('account/overview', asBuildAdmin(token))).code).toBe(409);
    } finally {
      vi.useRealTimers();
      await server.admin('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 259_200 } });
    }
  });

  it('lets an admin token expire after the admin token lifetime, and keeps the default three days otherwise', async () => {
    const { token: before } = await server.loginAdmin();
    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { admin_token_keep_time: 300 } })).code).toBe(1);
    try {
      const { token: short } = await server.loginAdmin();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 301_000);
      expect((await server.admin('Index/index', { token: short })).code).toBe(409);
      // a token issued under the old lifetime keeps it
      expect((await server.admin('Index/index', { token: before })).code).toBe(1);
    } finally {
      vi.useRealTimers();
      await server.admin('routine.Config/edit', { token: adminToken, body: { admin_token_keep_time: 259_200 } });
    }
  });

  it('shows the token lifetimes on the config screen with labels, and refuses a value out of bounds', async () => {
    type Index = { list: Record<string, { list?: { name: string; title: string; value: unknown; tip: string }[] }> };
    for (const [lang, title, bound] of [['en', 'Member token lifetime', '30 days'], ['zh-cn', '会员令牌有效期', '30 天']] as const) {
      const index = await server.admin<Index>('routine.Config/index', { token: adminToken, lang });
      const item = index.data.list.basics?.list?.find((candidate) => candidate.name === 'user_token_keep_time');
      // stored and sent in seconds; the screen shows them in days, hours or minutes
      expect(item).toMatchObject({ title, value: '259200' });
      expect(item?.tip).toContain(bound);
    }
    for (const value of [59, 2_592_001, 'soon', 3600.5, '']) {
      const refused = await server.admin<{ field: string }>('routine.Config/edit', { token: adminToken, body: { admin_token_keep_time: value } });
      expect({ value, code: refused.code, field: refused.data?.field }).toEqual({ value, code: 0, field: 'admin_token_keep_time' });
    }
    // the bounds in words of the reader's language, as the screen's units say them
    const en = await server.admin<{ errorId: string; field: string }>('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 30 } });
    expect({ errorId: en.data?.errorId, field: en.data?.field, msg: en.msg }).toEqual({ errorId: 'validation', field: 'user_token_keep_time', msg: 'Member token lifetime must last from 1 minute to 30 days' });
    const zh = await server.admin('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 30 }, lang: 'zh-cn' });
    expect(zh.msg).toBe('会员令牌有效期必须在 1分钟 至 30天 之间');
    // two hours, as the screen sends them, are 7200 seconds
    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 7200 } })).code).toBe(1);
    expect((await db().selectFrom('config').select('value').where('name', '=', 'user_token_keep_time').executeTakeFirstOrThrow()).value).toBe('7200');
    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { user_token_keep_time: 259_200 } })).code).toBe(1);
    const stored = await db().selectFrom('config').select('value').where('name', 'in', ['admin_token_keep_time', 'user_token_keep_time']).execute();
    expect(stored.map((row) => row.value)).toEqual(['259200', '259200']);
  });

  it('clears the SMTP password only when asked by name; an empty field keeps it', async () => {
    type Index = { list: Record<string, { list?: { name: string; value: unknown; isSet?: boolean }[] }> };
    const smtpPass = async () => (await db().selectFrom('config').select('value').where('name', '=', 'smtp_pass').executeTakeFirstOrThrow()).value;
    const shown = async () => (await server.admin<Index>('routine.Config/index', { token: adminToken })).data.list.mail?.list?.find((item) => item.name === 'smtp_pass');

    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { smtp_pass: 'secret-1' } })).code).toBe(1);
    expect(await shown()).toMatchObject({ value: '', isSet: true });
    // the screen sends the field back empty: the password stays
    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { smtp_server: 'smtp.example.com', smtp_pass: '' } })).code).toBe(1);
    expect(await smtpPass()).toBe('secret-1');

    // only a password item can be cleared; a refused request changes nothing
    for (const lang of ['en', 'zh-cn'] as const) {
      const refused = await server.admin('routine.Config/edit', { token: adminToken, lang, body: { smtp_pass: '', clearSecrets: ['site_name'] } });
      expect(refused.code).toBe(0);
      expect(refused.msg).toBe(lang === 'en' ? 'Only a password item can be cleared' : '只能清除密码类配置项');
    }
    expect(await smtpPass()).toBe('secret-1');

    expect((await server.admin('routine.Config/edit', { token: adminToken, body: { smtp_pass: '', clearSecrets: ['smtp_pass'] } })).code).toBe(1);
    expect(await smtpPass()).toBe('');
    expect(await shown()).toMatchObject({ value: '', isSet: false });
  });
});

describe.each(DATABASES)('an existing database on %s', (kind) => {
  it('re-points the seeded member rules to BuildAdmin’s view files and adds the token lifetimes, leaving an administrator’s own values', async () => {
    const database = await createTestDatabase(kind);
    try {
      const first = await startTestServer(kind, { databaseUrl: database.url });
      const db = first.server.app.db;
      // as a database made before: our names in component, one chosen by an admin, no lifetime settings
      for (const name of ['account/overview', 'account/profile', 'account/changePassword', 'account/integral', 'account/balance']) {
        await db.updateTable('user_rule').set({ component: name }).where('name', '=', name).execute();
      }
      await db.updateTable('user_rule').set({ component: '/src/views/frontend/user/account/custom.vue' }).where('name', '=', 'account/balance').execute();
      await db.deleteFrom('config').where('name', 'in', ['admin_token_keep_time', 'user_token_keep_time']).execute();
      // the groups' help as it was seeded then, and their title as an administrator wrote it
      await db.updateTable('config').set({ title: 'Our tabs', tip: 'The tabs of this screen: a key and its title per row; a group that holds items stays' }).where('name', '=', 'config_group').execute();
      await db.updateTable('config').set({ tip: 'Buttons above the configuration: a label (key) and the back-office path it opens (value)' }).where('name', '=', 'config_quick_entrance').execute();
      await first.close();

      const second = await startTestServer(kind, { databaseUrl: database.url });
      try {
        const rows = (await second.server.app.db.selectFrom('user_rule').select(['name', 'component']).where('type', '=', 'menu').orderBy('id').execute()) as { name: string; component: string }[];
        expect(Object.fromEntries(rows.map((row) => [row.name, row.component]))).toEqual({
          'account/overview': '/src/views/frontend/user/account/overview.vue',
          'account/profile': '/src/views/frontend/user/account/profile.vue',
          'account/changePassword': '/src/views/frontend/user/account/changePassword.vue',
          'account/integral': '/src/views/frontend/user/account/integral.vue',
          'account/balance': '/src/views/frontend/user/account/custom.vue',
          'survey/tasks': 'survey/tasks',
          'survey/tracking': 'survey/tracking',
          'survey/ranking': 'survey/ranking',
          'account/payout': 'account/payout',
          'team/members': 'team/members',
        });
        const lifetimes = await second.server.app.db.selectFrom('config').select(['name', 'value', 'group']).where('name', 'in', ['admin_token_keep_time', 'user_token_keep_time']).orderBy('name').execute();
        expect(lifetimes).toEqual([
          { name: 'admin_token_keep_time', value: '259200', group: 'basics' },
          { name: 'user_token_keep_time', value: '259200', group: 'basics' },
        ]);
        // the seeded help is today's; what the administrator wrote stays
        const groups = await second.server.app.db.selectFrom('config').select(['title', 'tip']).where('name', '=', 'config_group').executeTakeFirstOrThrow();
        expect(groups).toEqual({ title: 'Our tabs', tip: 'The tabs of this screen by their titles; a new group also needs a key; a group holding items stays' });
        // the quick entrances' help no longer speaks of keys and values: its editor's columns say Title and Address
        const entrances = await second.server.app.db.selectFrom('config').select('tip').where('name', '=', 'config_quick_entrance').executeTakeFirstOrThrow();
        expect(entrances.tip).toBe('Buttons above the configuration: each a title and the back-office address it opens');
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
