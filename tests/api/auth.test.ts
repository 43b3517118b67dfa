import { createHash, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, importedPasswordHash } from '../../src/server/auth/passwords.js';
import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import { CAPTCHA_SHAPES, type ClickPuzzle } from '../../src/server/captcha/click-captcha.js';
import { ADMIN_PASSWORD, DATABASES, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';
import { storedMessage } from '../../src/server/stored-text.js';

/**
 * Authentication over the wire (docs/wire-contract.md#business-codes, #tokens, #back-office-bootstrap,
 * #member-api): business codes, admin and member login, lockout, legacy hashes, click captcha, token refresh
 * and logout, CORS and think-lang.
 */

const MEMBER_PASSWORD = 'Member_pass1';

interface AdminUserInfo {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  last_login_time: string;
  token: string;
  refresh_token: string;
}

interface MemberUserInfo {
  id: number;
  username: string;
  money: string;
  avatar: string;
  token: string;
  refresh_token: string;
  [key: string]: unknown;
}

interface MenuNode {
  id: number;
  pid: number;
  type: string;
  name: string;
  path: string;
  keepalive: unknown;
  children?: MenuNode[];
  [key: string]: unknown;
}

interface LedgerRow {
  id: number;
  user_id: number;
  money: string;
  before: string;
  after: string;
  memo: string;
  create_time: number;
}

/** A page of the balance log and the balance as it stands (`current`). */
interface LedgerPage {
  list: LedgerRow[];
  total: number;
  current: string;
}

const now = () => Math.floor(Date.now() / 1000);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function expectEnvelope(response: ApiResponse, code: number): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.code, `code of ${JSON.stringify({ code: response.code, msg: response.msg, data: response.data })}`).toBe(code);
  expect(typeof response.msg).toBe('string');
  expect(Number.isInteger(response.time)).toBe(true);
  expect(Math.abs(response.time - now())).toBeLessThan(60);
}

function walk(nodes: MenuNode[], visit: (node: MenuNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.children) walk(node.children, visit);
  }
}

/** A click in the middle of every target box, in order, as the client sends it. */
function answerOf(puzzle: ClickPuzzle, order: 'right' | 'reversed' = 'right'): string {
  const targets = order === 'right' ? puzzle.targets : [...puzzle.targets].reverse();
  return `${targets.map((target) => `${target.x + target.width / 2},${target.y + target.height / 2}`).join('-')};350;200`;
}

/** PNG chunk types in file order. */
function pngChunks(png: Buffer): string[] {
  const types: string[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    types.push(png.subarray(offset + 4, offset + 8).toString('latin1'));
    offset += 12 + length;
  }
  return types;
}

describe.each(DATABASES)('auth on %s', (kind) => {
  let server: TestServer;
  let superToken: string;

  const db = () => server.server.app.db;
  const adminRow = async (username: string) =>
    (await db().selectFrom('admin').selectAll().where('username', '=', username).executeTakeFirstOrThrow()) as Record<string, unknown>;
  const tokenCount = async () => Number(((await db().selectFrom('token').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown }).n);
  const expireToken = async (token: string) => {
    const result = await db().updateTable('token').set({ expire_time: now() - 10 }).where('token', '=', server.server.app.tokens.digest(token)).executeTakeFirst();
    expect(Number(result.numUpdatedRows)).toBe(1);
  };
  const login = (username: string, password: string, extra: Record<string, unknown> = {}, lang: 'en' | 'zh-cn' = 'en') =>
    server.admin<{ userInfo: AdminUserInfo }>('Index/login', { body: { username, password, ...extra }, lang });
  async function createAdmin(username: string, password: string, groups: number[], status: '0' | '1' = '1'): Promise<number> {
    const response = await server.admin('auth.Admin/add', { token: superToken, body: { username, nickname: username, password, group_arr: groups, status } });
    expectEnvelope(response, 1);
    return Number((await adminRow(username)).id);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    superToken = (await server.loginAdmin()).token;
    await db().updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('business codes', () => {
    it('1: success envelope over HTTP 200', async () => {
      const response = await server.admin('Index/login');
      expectEnvelope(response, 1);
      expect(response.msg).toBe('');
      expect(response.data).toEqual({ captcha: false });
    });

    it('0: handled failure with a message', async () => {
      const response = await login('admin', 'Not_the_password');
      expectEnvelope(response, 0);
      expect(response.data).toMatchObject({ errorId: 'loginFailed' });
    });

    it('303 need login without a token, with an unknown token and with a member token on the admin app', async () => {
      for (const request of [{}, { token: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' }, { userToken: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' }]) {
        const response = await server.admin('Index/index', request);
        expectEnvelope(response, 303);
        expect(response.data).toMatchObject({ errorId: 'needLogin' });
        expect(response.data).toEqual({ type: 'need login', errorId: 'needLogin' });
      }
      const member = await server.api('account/balance');
      expectEnvelope(member, 303);
      expect(member.data).toEqual({ type: 'need login', errorId: 'needLogin' });
    });

    it('303 logged in on GET Index/login with a valid token', async () => {
      const response = await server.admin('Index/login', { token: superToken });
      expectEnvelope(response, 303);
      expect(response.msg).not.toBe('');
      expect(response.data).toEqual({ type: 'logged in', errorId: 'loggedIn' });
    });

    it('401 for an action outside the admin’s rules', async () => {
      await createAdmin('level3', 'Level3_pass', [4]);
      const { token } = await server.loginAdmin('level3', 'Level3_pass');
      const denied = await server.admin('auth.Admin/index', { token });
      expectEnvelope(denied, 401);
      expect(denied.msg).toBe('You have no permission to operate');
      expect(denied.data).toEqual([]);
      // the same admin passes a node its group holds
      expectEnvelope(await server.admin('user.User/index', { token }), 1);
    });

    it('409 for an expired token on a login-required action; ignored on a public one', async () => {
      const { token } = await server.loginAdmin();
      await expireToken(token);
      const response = await server.admin('Index/index', { token });
      expectEnvelope(response, 409);
      expect(response.msg).toBe('Token expiration');
      expect(response.data).toEqual([]);
      const publicAction = await server.admin('Index/login', { token });
      expectEnvelope(publicAction, 1);
      expect(publicAction.data).toEqual({ captcha: false });
      // a member token that expired: same on the member app
      const checkIn = await server.api<{ userInfo: MemberUserInfo }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
      expectEnvelope(checkIn, 1);
      await expireToken(checkIn.data.userInfo.token);
      const balance = await server.api('account/balance', { userToken: checkIn.data.userInfo.token });
      expectEnvelope(balance, 409);
      expect(balance.data).toEqual([]);
    });

    it('404 with the envelope for an unknown controller or action', async () => {
      for (const path of ['Nope/index', 'Index/nope', 'auth.Nothing/index']) {
        const response = await server.admin(path, { token: superToken });
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.code).toBe(0);
        expect(response.msg).toContain(path);
        expect(response.data).toEqual({ errorId: 'notFound' });
      }
      const api = await server.api('nothing/here');
      expect(api.status).toBe(404);
      expect(api.code).toBe(0);
    });
  });

  describe('admin login', () => {
    it('GET Index/login tells whether a captcha is needed', async () => {
      const response = await server.admin('Index/login');
      expectEnvelope(response, 1);
      expect(response.data).toEqual({ captcha: false });
    });

    it('POST with keep returns userInfo with token and refresh_token', async () => {
      const response = await login('admin', ADMIN_PASSWORD, { keep: true });
      expectEnvelope(response, 1);
      expect(response.msg).toBe('Login succeeded!');
      const info = response.data.userInfo;
      expect(Object.keys(info).sort()).toEqual(['avatar', 'id', 'last_login_time', 'nickname', 'refresh_token', 'token', 'username']);
      expect(info).toMatchObject({ id: 1, username: 'admin', nickname: 'Admin', avatar: '/static/images/avatar.png' });
      expect(info.last_login_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(info.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(info.refresh_token).toMatch(/^[0-9a-f-]{36}$/);
      expect(info.refresh_token).not.toBe(info.token);
      // only the HMAC is stored
      const stored = (await db().selectFrom('token').selectAll().where('token', '=', server.server.app.tokens.digest(info.token)).executeTakeFirstOrThrow()) as Record<string, unknown>;
      expect(stored).toMatchObject({ type: 'admin' });
      expect(Number(stored.user_id)).toBe(1);
      expect(Number(stored.expire_time) - Number(stored.create_time)).toBe(259_200);
      expect(await db().selectFrom('token').select('token').where('token', '=', info.token).executeTakeFirst()).toBeUndefined();
      const refresh = (await db().selectFrom('token').selectAll().where('token', '=', server.server.app.tokens.digest(info.refresh_token)).executeTakeFirstOrThrow()) as Record<string, unknown>;
      expect(refresh.type).toBe('admin-refresh');
      // the token works
      expectEnvelope(await server.admin('Index/index', { token: info.token }), 1);
      // a login writes an admin log row titled Login
      const log = await db().selectFrom('admin_log').selectAll().where('title', '=', storedMessage('Login')).orderBy('id', 'desc').executeTakeFirst();
      expect(log).toBeDefined();
      expect(String((log as Record<string, unknown>).data)).not.toContain(ADMIN_PASSWORD);
    });

    it('POST without keep gives an empty refresh_token', async () => {
      const before = await tokenCount();
      const response = await login('admin', ADMIN_PASSWORD);
      expectEnvelope(response, 1);
      expect(response.data.userInfo.refresh_token).toBe('');
      expect(response.data.userInfo.token).not.toBe('');
      expect(await tokenCount()).toBe(before + 1);
    });

    it('wrong password, unknown user, disabled admin: the answer never tells whether an account exists', async () => {
      const answer = (response: ApiResponse) => ({ status: response.status, code: response.code, msg: response.msg, data: response.data });
      const wrong = await login('admin', 'Wrong_pass1');
      expectEnvelope(wrong, 0);
      expect(answer(wrong)).toEqual({ status: 200, code: 0, msg: 'Incorrect account or password', data: { errorId: 'loginFailed' } });
      expect(Number((await adminRow('admin')).login_failure)).toBe(1);

      const unknown = await login('nobody_here', 'Some_pass1');
      expect(answer(unknown)).toEqual(answer(wrong));
      expect(answer(await login('nobody_here', 'Some_pass1', {}, 'zh-cn'))).toEqual(answer(await login('admin', 'Wrong_pass1', {}, 'zh-cn')));
      expect((await login('admin', 'Wrong_pass1', {}, 'zh-cn')).msg).toBe('账户或密码错误');

      // a disabled account says so only to whoever knows its password
      await createAdmin('disabled1', 'Disabled_pass1', [4], '0');
      expect(answer(await login('disabled1', 'Wrong_pass1'))).toEqual(answer(wrong));
      const disabled = await login('disabled1', 'Disabled_pass1');
      expectEnvelope(disabled, 0);
      expect(disabled.msg).toMatch(/^Account (is )?disabled$/);

      // a correct login resets the failure counter
      expectEnvelope(await login('admin', ADMIN_PASSWORD), 1);
      expect(Number((await adminRow('admin')).login_failure)).toBe(0);
    });

    it('a token of an admin who is disabled afterwards no longer logs in', async () => {
      const id = await createAdmin('laterdisabled', 'Later_pass1', [4]);
      const { token } = await server.loginAdmin('laterdisabled', 'Later_pass1');
      expectEnvelope(await server.admin('Index/index', { token }), 1);
      await db().updateTable('admin').set({ status: '0' }).where('id', '=', id).execute();
      const response = await server.admin('Index/index', { token });
      expectEnvelope(response, 303);
      expect(response.data).toEqual({ type: 'need login', errorId: 'needLogin' });
    });

    it('locks the account after 10 failures within 24 hours', async () => {
      await createAdmin('lockme', 'Lockme_pass1', [4]);
      for (let attempt = 1; attempt <= 10; attempt++) {
        const response = await login('lockme', `Wrong_pass${attempt}`);
        expectEnvelope(response, 0);
        expect(response.data).toMatchObject({ errorId: 'loginFailed' });
      }
      expect(Number((await adminRow('lockme')).login_failure)).toBe(10);
      const tokens = await tokenCount();
      const locked = await login('lockme', 'Lockme_pass1');
      expectEnvelope(locked, 0);
      expect(locked.msg).toMatch(/24 hours/);
      expect(locked.data).toEqual({ errorId: 'loginLocked' });
      expect(Number((await adminRow('lockme')).login_failure)).toBe(10);
      expect(await tokenCount()).toBe(tokens);
      const lockedZh = await login('lockme', 'Lockme_pass1', {}, 'zh-cn');
      expectEnvelope(lockedZh, 0);
      expect(lockedZh.msg).not.toBe(locked.msg);

      // once the last failure is more than a day old the right password works again and resets the count
      await db().updateTable('login_attempt').set({ create_time: now() - 86_401 }).where('kind', '=', 'fail').execute();
      const unlocked = await login('lockme', 'Lockme_pass1');
      expectEnvelope(unlocked, 1);
      expect(Number((await adminRow('lockme')).login_failure)).toBe(0);
    });

    it('accepts an imported BuildAdmin md5 hash once and upgrades it to scrypt', async () => {
      const id = await createAdmin('legacy1', 'Temp_pass1', [4]);
      const salt = 'aB3dE5gH7jK9mN1p';
      await db().updateTable('admin').set({ password: importedPasswordHash(md5(md5('Legacy_pass1') + salt)), salt }).where('id', '=', id).execute();

      const wrong = await login('legacy1', 'Temp_pass1');
      expectEnvelope(wrong, 0);
      expect(String((await adminRow('legacy1')).password)).toMatch(/^buildadmin-md5\$[0-9a-f]{32}$/);

      const first = await login('legacy1', 'Legacy_pass1');
      expectEnvelope(first, 1);
      const upgraded = await adminRow('legacy1');
      expect(String(upgraded.password)).toMatch(/^scrypt\$/);
      expect(upgraded.salt ?? '').toBe('');
      expect(Number(upgraded.login_failure)).toBe(0);

      const second = await login('legacy1', 'Legacy_pass1');
      expectEnvelope(second, 1);
      expect((await adminRow('legacy1')).password).toBe(upgraded.password);
      expectEnvelope(await login('legacy1', 'Wrong_pass1'), 0);
    });

    it('accepts a scrypt hash made with smaller parameters and makes it again with the current ones', async () => {
      const id = await createAdmin('oldcost', 'Temp_pass3', [4]);
      const salt = Buffer.from('c2FsdHNhbHRzYWx0c2FsdA==', 'base64');
      const hash = scryptSync('Oldcost_pass1', salt, 32, { N: 16384, r: 8, p: 1 });
      const stored = `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
      await db().updateTable('admin').set({ password: stored, salt: '' }).where('id', '=', id).execute();

      expectEnvelope(await login('oldcost', 'Wrong_pass1'), 0);
      expect((await adminRow('oldcost')).password).toBe(stored);

      expectEnvelope(await login('oldcost', 'Oldcost_pass1'), 1);
      const upgraded = String((await adminRow('oldcost')).password);
      expect(upgraded).toMatch(/^scrypt\$32768\$8\$1\$/);
      expectEnvelope(await login('oldcost', 'Oldcost_pass1'), 1);
      expect((await adminRow('oldcost')).password).toBe(upgraded);
    });

    it('never takes the md5 path for an account whose hash is not marked as imported', async () => {
      const id = await createAdmin('legacy2', 'Temp_pass2', [4]);
      const salt = 'zY9xW8vU7tS6rQ5p';
      await db().updateTable('admin').set({ password: md5(md5('Legacy_pass2') + salt), salt }).where('id', '=', id).execute();
      expectEnvelope(await login('legacy2', 'Legacy_pass2'), 0);
      expect(String((await adminRow('legacy2')).password)).toMatch(/^[0-9a-f]{32}$/);
    });

    it('rejects a malformed username or password before any lookup', async () => {
      const before = await adminRow('admin');
      const tokens = await tokenCount();
      const shortName = await login('ab', ADMIN_PASSWORD);
      expectEnvelope(shortName, 0);
      expect(shortName.msg).toMatch(/username/i);
      const badPassword = await login('admin', 'abc<def1');
      expectEnvelope(badPassword, 0);
      expect(badPassword.msg).toMatch(/password/i);
      expect(badPassword.msg).not.toBe('Wrong password');
      const missing = await server.admin('Index/login', { body: { username: 'admin' } });
      expectEnvelope(missing, 0);
      expect(missing.msg).toMatch(/password/i);
      const after = await adminRow('admin');
      expect(after.login_failure).toEqual(before.login_failure);
      expect(after.last_login_time).toEqual(before.last_login_time);
      expect(after.password).toEqual(before.password);
      expect(await tokenCount()).toBe(tokens);
    });

    it('last_login_time changes on login only, not on every request', async () => {
      const { token } = await server.loginAdmin();
      const earlier = now() - 5000;
      await db().updateTable('admin').set({ last_login_time: earlier }).where('id', '=', 1).execute();
      expectEnvelope(await server.admin('Index/index', { token }), 1);
      expectEnvelope(await server.admin('auth.Admin/index', { token }), 1);
      expect(Number((await adminRow('admin')).last_login_time)).toBe(earlier);
      await server.loginAdmin();
      expect(Number((await adminRow('admin')).last_login_time)).toBeGreaterThanOrEqual(now() - 60);
    });
  });

  describe('Index/index', () => {
    it('returns adminInfo, the menu tree, siteConfig and terminal', async () => {
      const response = await server.admin<{
        adminInfo: Record<string, unknown>;
        menus: MenuNode[];
        siteConfig: Record<string, unknown> & { upload: Record<string, unknown> };
        terminal: Record<string, unknown>;
      }>('Index/index', { token: superToken });
      expectEnvelope(response, 1);
      const { adminInfo, menus, siteConfig, terminal } = response.data;

      expect(Object.keys(adminInfo).sort()).toEqual(['avatar', 'id', 'last_login_time', 'nickname', 'super', 'username']);
      expect(adminInfo).toMatchObject({ id: 1, username: 'admin', nickname: 'Admin', avatar: '/static/images/avatar.png', super: true });
      expect(adminInfo.last_login_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      // tree: enabled rules ordered weigh desc, id asc; buttons are children of their menu
      const rules = (await db().selectFrom('admin_rule').select(['id', 'pid', 'weigh']).where('status', '=', '1').execute()) as { id: number; pid: number; weigh: number }[];
      const expectedRoots = rules
        .filter((rule) => Number(rule.pid) === 0)
        .sort((a, b) => Number(b.weigh) - Number(a.weigh) || Number(a.id) - Number(b.id))
        .map((rule) => Number(rule.id));
      expect(menus.map((node) => node.id)).toEqual(expectedRoots);
      let count = 0;
      walk(menus, (node) => {
        count++;
        for (const hidden of ['remark', 'status', 'weigh', 'create_time', 'update_time']) expect(node).not.toHaveProperty(hidden);
        for (const key of ['id', 'pid', 'type', 'title', 'name', 'path', 'icon', 'menu_type', 'url', 'component', 'keepalive', 'extend']) expect(node).toHaveProperty(key);
        if (node.children) {
          expect(node.children.length).toBeGreaterThan(0);
          for (const child of node.children) expect(child.pid).toBe(node.id);
        }
        if (node.type === 'button') expect(node.children).toBeUndefined();
        if (node.type === 'menu') {
          // As BuildAdmin's: a menu's path is its name, the module store's excepted (`moduleStore`).
          expect(node.path).toBe(node.name === 'moduleStore/moduleStore' ? 'moduleStore' : node.name);
          expect([0, node.name]).toContain(node.keepalive);
        }
        if (node.type !== 'menu') expect(node.keepalive).toBe(0);
      });
      expect(count).toBe(rules.length);

      const auth = menus.find((node) => node.name === 'auth') as MenuNode;
      expect(auth.type).toBe('menu_dir');
      expect(auth.keepalive).toBe(0);
      const admins = auth.children?.find((node) => node.name === 'auth/admin') as MenuNode;
      expect(admins).toMatchObject({ type: 'menu', path: 'auth/admin', menu_type: 'tab', keepalive: 'auth/admin' });
      const buttons = (admins.children ?? []).map((node) => node.name);
      expect(buttons).toEqual(expect.arrayContaining(['auth/admin/index', 'auth/admin/add', 'auth/admin/edit', 'auth/admin/del']));
      for (const button of admins.children ?? []) expect(button).toMatchObject({ type: 'button', keepalive: 0, menu_type: null });

      expect(siteConfig.siteName).toBe('Chidao Survey');
      expect(siteConfig.version).toBe('v1.0.0');
      expect(siteConfig.cdnUrl).toMatch(/^\/\/127\.0\.0\.1:\d+$/);
      expect(siteConfig.apiUrl).toBe(siteConfig.cdnUrl); // the stock module screen's store answers here
      expect(siteConfig.upload).toMatchObject({ maxSize: 10_485_760, mode: 'local', allowedMimeTypes: [] });
      expect(typeof siteConfig.upload.allowedSuffixes).toBe('string');
      expect(String(siteConfig.upload.allowedSuffixes).split(',')).toEqual(expect.arrayContaining(['jpg', 'png']));
      expect(siteConfig.upload.saveName).toBe('/storage/{topic}/{year}{mon}{day}/{fileName}{fileSha1}{.suffix}');

      expect(terminal).toMatchObject({ phpDevelopmentServer: false });
      expect(typeof terminal.npmPackageManager).toBe('string');
    });

    it('a login that asks for the bootstrap (ours) answers what Index/index answers; one that does not, BuildAdmin\'s keys', async () => {
      const plain = await login('admin', ADMIN_PASSWORD);
      expectEnvelope(plain, 1);
      expect(Object.keys(plain.data)).toEqual(['userInfo']);
      const asked = await server.admin<{ userInfo: AdminUserInfo; bootstrap: Record<string, unknown> }>('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, bootstrap: true } });
      expectEnvelope(asked, 1);
      const index = await server.admin<Record<string, unknown>>('Index/index', { token: asked.data.userInfo.token });
      expectEnvelope(index, 1);
      expect(asked.data.bootstrap).toEqual(index.data);
      expect(Object.keys(asked.data.bootstrap)).toEqual(expect.arrayContaining(['adminInfo', 'menus', 'definitions', 'siteConfig', 'terminal']));
    });

    it('an admin without menus still logs in when asking for the bootstrap; Index/index says why there is none', async () => {
      await db().insertInto('admin_group').values({ pid: 0, name: 'No menus', rules: '', status: '1' } as never).execute();
      const group = (await db().selectFrom('admin_group').select('id').where('name', '=', 'No menus').executeTakeFirstOrThrow()) as { id: number };
      await createAdmin('nomenus', 'Nomenus_pass1', [Number(group.id)]);
      const response = await server.admin<{ userInfo: AdminUserInfo; bootstrap?: unknown }>('Index/login', { body: { username: 'nomenus', password: 'Nomenus_pass1', bootstrap: true } });
      expectEnvelope(response, 1);
      expect(response.data.bootstrap).toBeUndefined();
      const index = await server.admin('Index/index', { token: response.data.userInfo.token });
      expectEnvelope(index, 0);
      expect(index.msg).toMatch(/menu/i);
    });

    it('Dashboard/index answers the dashboard remark in the request language', async () => {
      const english = await server.admin<{ remark: string }>('Dashboard/index', { token: superToken, lang: 'en' });
      const chinese = await server.admin<{ remark: string }>('Dashboard/index', { token: superToken, lang: 'zh-cn' });
      expectEnvelope(english, 1);
      expect(english.data.remark).toMatch(/welcome/i);
      expect(chinese.data.remark).not.toBe(english.data.remark);
      expect(chinese.data.remark).toMatch(/[\u4e00-\u9fff]/);
    });
  });

  describe('logout and refresh', () => {
    it('logout revokes the access token and the refresh token', async () => {
      const { token, refreshToken } = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
      expect(refreshToken).not.toBe('');
      const response = await server.admin('Index/logout', { token, body: { refreshToken } });
      expectEnvelope(response, 1);
      expect(response.data).toBeNull();
      const after = await server.admin('Index/index', { token });
      expectEnvelope(after, 303);
      expect(after.data).toEqual({ type: 'need login', errorId: 'needLogin' });
      for (const digest of [token, refreshToken].map((value) => server.server.app.tokens.digest(value))) {
        expect(await db().selectFrom('token').select('type').where('token', '=', digest).executeTakeFirst()).toBeUndefined();
      }
      // replaying the refresh token after logout fails
      const replay = await server.api('common/refreshToken', { token, body: { refreshToken } });
      expectEnvelope(replay, 0);
      expect(replay.msg).toBe('Login expired, please login again.');
      // logging out without being logged in still answers code 1
      expectEnvelope(await server.admin('Index/logout', { body: {} }), 1);
    });

    it('refreshes an admin token with the stale token in batoken', async () => {
      const { token, refreshToken } = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
      await expireToken(token);
      expectEnvelope(await server.admin('Index/index', { token }), 409);

      const response = await server.api<{ type: string; token: string; refresh_token: string }>('common/refreshToken', { token, body: { refreshToken } });
      expectEnvelope(response, 1);
      expect(Object.keys(response.data).sort()).toEqual(['refresh_token', 'token', 'type']);
      expect(response.data.type).toBe('admin-refresh');
      expect(response.data.token).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.data.token).not.toBe(token);
      expectEnvelope(await server.admin('Index/index', { token: response.data.token }), 1);
      const old = await server.admin('Index/index', { token });
      expectEnvelope(old, 303);
      expect(old.data).toEqual({ type: 'need login', errorId: 'needLogin' });

      // the refresh token is rotated: the used one is refused, its successor works with the current access token
      const reused = await server.api('common/refreshToken', { token: response.data.token, body: { refreshToken } });
      expectEnvelope(reused, 0);
      expect(reused.msg).toBe('Login expired, please login again.');
      const again = await server.api<{ type: string; token: string }>('common/refreshToken', { token: response.data.token, body: { refreshToken: response.data.refresh_token } });
      expectEnvelope(again, 1);
      expect(again.data.type).toBe('admin-refresh');
      expectEnvelope(await server.admin('Index/index', { token: response.data.token }), 303);
      expectEnvelope(await server.admin('Index/index', { token: again.data.token }), 1);
    });

    it('refuses a refresh without the stale token, with an unknown, expired or non-refresh token', async () => {
      const { token, refreshToken } = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
      const tokens = await tokenCount();
      const noHeader = await server.api('common/refreshToken', { body: { refreshToken } });
      expectEnvelope(noHeader, 0);
      expect(noHeader.msg).not.toBe('');
      expect(await tokenCount()).toBe(tokens);

      const unknown = await server.api('common/refreshToken', { token, body: { refreshToken: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' } });
      expectEnvelope(unknown, 0);
      expect(unknown.msg).toBe('Login expired, please login again.');

      const empty = await server.api('common/refreshToken', { token, body: {} });
      expectEnvelope(empty, 0);
      expect(empty.msg).toBe('Login expired, please login again.');

      // an access token is not a refresh token (deliberately refused)
      const wrongType = await server.api('common/refreshToken', { token, body: { refreshToken: token } });
      expectEnvelope(wrongType, 0);
      expect(await tokenCount()).toBe(tokens);

      await expireToken(refreshToken);
      const expired = await server.api('common/refreshToken', { token, body: { refreshToken } });
      expectEnvelope(expired, 0);
      expect(expired.msg).toBe('Login expired, please login again.');
      expect(await tokenCount()).toBe(tokens);
      // the access token is untouched by the failed refreshes
      expectEnvelope(await server.admin('Index/index', { token }), 1);
    });
  });

  describe('member', () => {
    let memberToken: string;

    it('GET user/checkIn describes the login form', async () => {
      const response = await server.api('user/checkIn');
      expectEnvelope(response, 1);
      // no mail settings and no SMS driver on a fresh install: no code can be delivered, none is offered,
      // and registration goes without one until a channel has delivered
      expect(response.data).toEqual({ userLoginCaptchaSwitch: false, accountVerificationType: [], registerWithoutCode: true });
    });

    it('logs in by username, email and mobile', async () => {
      for (const username of ['user', '18888888888@qq.com', '18888888888']) {
        const response = await server.api<{ userInfo: MemberUserInfo; routePath: string }>('user/checkIn', {
          body: { tab: 'login', username, password: MEMBER_PASSWORD, keep: true },
        });
        expectEnvelope(response, 1);
        expect(response.msg).toBe('Login succeeded!');
        expect(response.data.routePath).toBe('/user');
        const info = response.data.userInfo;
        expect(Object.keys(info).sort()).toEqual(
          ['avatar', 'birthday', 'email', 'gender', 'id', 'join_time', 'last_login_ip', 'last_login_time', 'mobile', 'money', 'motto', 'nickname', 'refresh_token', 'score', 'token', 'username'].sort(),
        );
        expect(info).toMatchObject({
          id: 1, username: 'user', nickname: 'User', email: '18888888888@qq.com', mobile: '18888888888',
          avatar: '/static/images/avatar.png', gender: 2, birthday: '2000-01-01', money: '0.00', score: 0,
        });
        expect(typeof info.last_login_time).toBe('number');
        expect(Math.abs(Number(info.last_login_time) - now())).toBeLessThan(60);
        expect(typeof info.join_time).toBe('number');
        expect(info.token).toMatch(/^[0-9a-f-]{36}$/);
        expect(info.refresh_token).toMatch(/^[0-9a-f-]{36}$/);
        memberToken = info.token;
      }
      const withoutKeep = await server.api<{ userInfo: MemberUserInfo }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
      expectEnvelope(withoutKeep, 1);
      expect(withoutKeep.data.userInfo.refresh_token).toBe('');
    });

    it('answers 303 logged in when already logged in, and refuses wrong credentials', async () => {
      const again = await server.api('user/checkIn', { userToken: memberToken });
      expectEnvelope(again, 303);
      expect(again.data).toEqual({ type: 'logged in', errorId: 'loggedIn' });

      const wrong = await server.api('user/checkIn', { body: { tab: 'login', username: 'user', password: 'Wrong_pass1' } });
      expectEnvelope(wrong, 0);
      expect({ msg: wrong.msg, data: wrong.data }).toEqual({ msg: 'Incorrect account or password', data: { errorId: 'loginFailed' } });
      // an unknown user name, email or mobile, or a name no account could have, answers the same
      for (const username of ['ghost_member', 'ghost@example.com', '13999999999', '-not a name-', 'x'.repeat(51)]) {
        const missing = await server.api('user/checkIn', { body: { tab: 'login', username, password: 'Wrong_pass1' } });
        expect({ username, code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ username, code: wrong.code, msg: wrong.msg, data: wrong.data });
      }
      const unknownTab = await server.api('user/checkIn', { body: { tab: 'hack', username: 'user', password: MEMBER_PASSWORD } });
      expectEnvelope(unknownTab, 0);
      expect(unknownTab.msg).toBe('Unknown operation');
      // the right password resets the failures
      expectEnvelope(await server.api('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } }), 1);
      const member = (await db().selectFrom('user').select('login_failure').where('id', '=', 1).executeTakeFirstOrThrow()) as { login_failure: number };
      expect(Number(member.login_failure)).toBe(0);
    });

    it('lists only the member’s own ledger entries, newest first', async () => {
      const other = await server.admin('user.User/add', {
        token: superToken,
        body: { username: 'othermember', nickname: 'Other', group_id: 1, password: 'Other_pass1', status: 'enable' },
      });
      expectEnvelope(other, 1);
      const otherId = Number(((await db().selectFrom('user').select('id').where('username', '=', 'othermember').executeTakeFirstOrThrow()) as { id: number }).id);

      for (const [userId, money, memo] of [[1, '20.00', 'first'], [otherId, '5.00', 'someone else'], [1, '-7.50', 'second']] as const) {
        const response = await server.admin('user.MoneyLog/add', { token: superToken, body: { user_id: userId, money, memo } });
        expectEnvelope(response, 1);
      }
      expectEnvelope(await server.admin('user.ScoreLog/add', { token: superToken, body: { user_id: 1, score: 30, memo: 'points' } }), 1);
      expectEnvelope(await server.admin('user.ScoreLog/add', { token: superToken, body: { user_id: otherId, score: 3, memo: 'not mine' } }), 1);

      const row = await server.admin<{ row: Record<string, unknown> }>('user.User/edit', { token: superToken, query: { id: 1 } });
      expectEnvelope(row, 1);
      expect(row.data.row.money).toBe('12.50');
      expect(row.data.row.score).toBe(30);
      expect(row.data.row.password).toBe('');

      const balance = await server.api<LedgerPage>('account/balance', { userToken: memberToken });
      expectEnvelope(balance, 1);
      expect(balance.data.total).toBe(2);
      // the balance as it stands, beside its entries, on every page
      expect(balance.data.current).toBe('12.50');
      expect(balance.data.list.map((entry) => entry.memo)).toEqual(['second', 'first']);
      expect(balance.data.list[0]).toMatchObject({ user_id: 1, money: '-7.50', before: '20.00', after: '12.50' });
      expect(balance.data.list[1]).toMatchObject({ user_id: 1, money: '20.00', before: '0.00', after: '20.00' });
      for (const entry of balance.data.list) {
        expect(Object.keys(entry).sort()).toEqual(['after', 'before', 'create_time', 'id', 'memo', 'money', 'user_id']);
        expect(typeof entry.create_time).toBe('number');
      }
      const page = await server.api<LedgerPage>('account/balance', { userToken: memberToken, query: { page: 2, limit: 1 } });
      expectEnvelope(page, 1);
      expect(page.data.total).toBe(2);
      expect(page.data.current).toBe('12.50');
      expect(page.data.list.map((entry) => entry.memo)).toEqual(['first']);

      const integral = await server.api<{ list: Record<string, unknown>[]; total: number; current: number }>('account/integral', { userToken: memberToken });
      expectEnvelope(integral, 1);
      expect(integral.data.total).toBe(1);
      expect(integral.data.current).toBe(30);
      expect(integral.data.list[0]).toMatchObject({ user_id: 1, score: 30, before: 0, after: 30, memo: 'points' });

      const checkIn = await server.api<{ userInfo: MemberUserInfo }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
      expect(checkIn.data.userInfo.money).toBe('12.50');
      expect(checkIn.data.userInfo.score).toBe(30);
    });

    it('refreshes a member token with the stale token in ba-user-token', async () => {
      const login = await server.api<{ userInfo: MemberUserInfo }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD, keep: true } });
      const { token, refresh_token: refreshToken } = login.data.userInfo;
      await expireToken(token);
      expectEnvelope(await server.api('account/balance', { userToken: token }), 409);

      // the admin header does not stand in for the member's
      expectEnvelope(await server.api('common/refreshToken', { token, body: { refreshToken } }), 0);

      const response = await server.api<{ type: string; token: string; refresh_token: string }>('common/refreshToken', { userToken: token, body: { refreshToken } });
      expectEnvelope(response, 1);
      expect(response.data.type).toBe('user-refresh');
      expectEnvelope(await server.api('account/balance', { userToken: response.data.token }), 1);
      const old = await server.api('account/balance', { userToken: token });
      expectEnvelope(old, 303);
      // a member token does not open the admin app
      expectEnvelope(await server.admin('Index/index', { userToken: response.data.token }), 303);

      // member logout revokes both; the refresh token cannot be replayed
      expectEnvelope(await server.api('user/logout', { userToken: response.data.token, body: { refreshToken: response.data.refresh_token } }), 1);
      expectEnvelope(await server.api('account/balance', { userToken: response.data.token }), 303);
      const replay = await server.api('common/refreshToken', { userToken: response.data.token, body: { refreshToken: response.data.refresh_token } });
      expectEnvelope(replay, 0);
      expect(replay.msg).toBe('Login expired, please login again.');
    });
  });

  describe('CORS', () => {
    it('answers a preflight with 204 and the allowed headers', async () => {
      const response = await server.raw('/api/user/checkIn', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'batoken,think-lang' },
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
      expect(allowed).toEqual(expect.arrayContaining(['batoken', 'ba-user-token', 'think-lang', 'server', 'chidao-client', 'content-type']));
      expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');

      const adminPreflight = await server.raw(`${server.server.app.settings.adminEntrance}.php/auth.Admin/del`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
      expect(adminPreflight.status).toBe(204);
    });

    it('echoes an allowed Origin and not a foreign one', async () => {
      const allowed = await server.raw('/api/user/checkIn', { headers: { origin: 'http://localhost:5173', server: 'true' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const foreign = await server.raw('/api/user/checkIn', { headers: { origin: 'http://evil.example', server: 'true' } });
      expect(foreign.status).toBe(200);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const foreignPreflight = await server.raw('/api/user/checkIn', { method: 'OPTIONS', headers: { origin: 'http://evil.example' } });
      expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('puts the fixed CORS headers on every answer, with or without an Origin, and echoes none without one', async () => {
      for (const origin of [undefined, 'http://localhost:5173']) {
        const response = await server.raw('/api/user/checkIn', { headers: { ...(origin ? { origin } : {}), server: 'true' } });
        expect(response.headers.get('access-control-allow-credentials')).toBe('true');
        expect(response.headers.get('access-control-max-age')).toBe('1800');
        expect(response.headers.get('access-control-allow-methods')).toContain('OPTIONS');
        expect(response.headers.get('access-control-allow-headers')).toContain('batoken');
        expect(response.headers.get('access-control-allow-origin')).toBe(origin ?? null);
        expect(response.headers.get('vary')).toBe(origin ? 'Origin' : null);
      }
    });
  });

  describe('think-lang', () => {
    it('translates messages into zh-cn', async () => {
      const en = await server.admin('Index/index', { lang: 'en' });
      const zh = await server.admin('Index/index', { lang: 'zh-cn' });
      expectEnvelope(zh, 303);
      expect(en.data).toMatchObject({ errorId: 'needLogin' });
      expect(zh.msg).toContain('请先登录');
      expect(zh.data).toEqual({ type: 'need login', errorId: 'needLogin' });
      const wrongPassword = await login('admin', 'Wrong_pass1', {}, 'zh-cn');
      expectEnvelope(wrongPassword, 0);
      expect(wrongPassword.msg).toBe('账户或密码错误');
      expectEnvelope(await login('admin', ADMIN_PASSWORD), 1);
      // without think-lang, Accept-Language or ?lang= pick the language; zh-cn is the default
      const byQuery = await server.api('common/checkClickCaptcha', { lang: 'en', headers: { 'think-lang': '' }, query: { lang: 'zh-cn' }, body: { id: 'x', info: '1,1;350;200' } });
      expect(byQuery.msg).toBe('未点中正确区域，请重试！');
    });

    it('captcha failure differs between en and zh-cn', async () => {
      const body = { id: 'no-such-captcha', info: '10,10-20,20;350;200', unset: false };
      const en = await server.api('common/checkClickCaptcha', { body, lang: 'en' });
      const zh = await server.api('common/checkClickCaptcha', { body, lang: 'zh-cn' });
      expectEnvelope(en, 0);
      expectEnvelope(zh, 0);
      expect(en.data).toMatchObject({ errorId: 'captchaFailed' });
      expect(zh.msg).toBe('未点中正确区域，请重试！');
    });
  });
});

describe.each(DATABASES)('click captcha on %s', (kind) => {
  let server: TestServer;
  const service = () => new ClickCaptchaService(server.server.app.db);
  let sequence = 0;
  const newId = () => `5b7c1a2e-0d3f-4a6b-9c8d-${String(++sequence).padStart(12, '0')}`;

  async function captcha(id: string, lang: 'en' | 'zh-cn' = 'en') {
    const response = await server.api<{ id: string; text: string[]; base64: string; width: number; height: number }>('common/clickCaptcha', { query: { id }, lang });
    expectEnvelope(response, 1);
    const puzzle = await service().puzzleOf(id);
    expect(puzzle).toBeDefined();
    return { response, puzzle: puzzle as ClickPuzzle };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { ADMIN_LOGIN_CAPTCHA: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET Index/login reports the captcha', async () => {
    const response = await server.admin('Index/login');
    expectEnvelope(response, 1);
    expect(response.data).toEqual({ captcha: true });
  });

  it('serves a PNG puzzle whose bytes do not carry the answer', async () => {
    const id = newId();
    const { response, puzzle } = await captcha(id);
    expect(Object.keys(response.data).sort()).toEqual(['base64', 'height', 'id', 'text', 'width']);
    expect(response.data.id).toBe(id);
    expect(response.data.width).toBe(350);
    expect(response.data.height).toBe(200);
    expect(response.data.text).toHaveLength(2);
    for (const label of response.data.text) expect(label).toMatch(/^<[^<>]+>$/);
    expect(response.data.text).toEqual(puzzle.targets.map((target) => `<${target.shape}>`));
    expect(response.data.base64).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);

    const png = Buffer.from(response.data.base64.slice('data:image/png;base64,'.length), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = pngChunks(png);
    expect(chunks[0]).toBe('IHDR');
    expect(chunks.at(-1)).toBe('IEND');
    expect(new Set(chunks)).toEqual(new Set(['IHDR', 'IDAT', 'IEND']));
    expect(png.readUInt32BE(16)).toBe(350);
    expect(png.readUInt32BE(20)).toBe(200);
    const bytes = png.toString('latin1');
    for (const word of [...CAPTCHA_SHAPES, 'targets', 'shape', ...response.data.text]) expect(bytes).not.toContain(word);

    const zh = await captcha(newId(), 'zh-cn');
    for (const label of zh.response.data.text) expect(label).toMatch(/^<[\u4e00-\u9fff]+>$/);
  });

  it('refuses a login without a captcha', async () => {
    const response = await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expectEnvelope(response, 0);
    expect(response.msg).toBe('Captcha error');
    const admin = (await server.server.app.db.selectFrom('admin').select('login_failure').where('id', '=', 1).executeTakeFirstOrThrow()) as { login_failure: number };
    expect(Number(admin.login_failure)).toBe(0);
  });

  it('checks the clicks, keeps the captcha for the login, and the login consumes it', async () => {
    const id = newId();
    const { puzzle } = await captcha(id);
    const info = answerOf(puzzle);
    const check = await server.api('common/checkClickCaptcha', { body: { id, info, unset: false } });
    expectEnvelope(check, 1);
    expect(check.data).toBeNull();
    expect(await service().puzzleOf(id)).toBeDefined();
    // checking again still works: nothing was consumed
    expectEnvelope(await server.api('common/checkClickCaptcha', { body: { id, info, unset: false } }), 1);

    const login = await server.admin<{ userInfo: AdminUserInfo }>('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, keep: true, captchaId: id, captchaInfo: info } });
    expectEnvelope(login, 1);
    expect(login.data.userInfo.token).not.toBe('');
    expect(await service().puzzleOf(id)).toBeUndefined();

    const second = await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, captchaId: id, captchaInfo: info } });
    expectEnvelope(second, 0);
    expect(second.msg).toBe('Captcha error');
  });

  it('scales clicks from the rendered size', async () => {
    const id = newId();
    const { puzzle } = await captcha(id);
    const scaled = `${puzzle.targets.map((target) => `${(target.x + target.width / 2) * 2},${(target.y + target.height / 2) * 2}`).join('-')};700;400`;
    expectEnvelope(await server.api('common/checkClickCaptcha', { body: { id, info: scaled, unset: true } }), 1);
    // unset: true consumes it
    expect(await service().puzzleOf(id)).toBeUndefined();
  });

  it('a wrong answer fails and discards the puzzle', async () => {
    const id = newId();
    const { puzzle } = await captcha(id);
    const wrong = await server.api('common/checkClickCaptcha', { body: { id, info: answerOf(puzzle, 'reversed'), unset: false } });
    expectEnvelope(wrong, 0);
    expect(wrong.data).toMatchObject({ errorId: 'captchaFailed' });
    expect(await service().puzzleOf(id)).toBeUndefined();
    // even the right answer cannot be used afterwards
    expectEnvelope(await server.api('common/checkClickCaptcha', { body: { id, info: answerOf(puzzle), unset: false } }), 0);
    const login = await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, captchaId: id, captchaInfo: answerOf(puzzle) } });
    expectEnvelope(login, 0);
    expect(login.msg).toBe('Captcha error');

    // a wrong answer on the login itself also discards it
    const id2 = newId();
    const second = await captcha(id2);
    const badLogin = await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, captchaId: id2, captchaInfo: '0,0-1,1;350;200' } });
    expectEnvelope(badLogin, 0);
    expect(badLogin.msg).toBe('Captcha error');
    expect(await service().puzzleOf(id2)).toBeUndefined();
    expectEnvelope(await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, captchaId: id2, captchaInfo: answerOf(second.puzzle) } }), 0);

    const zh = await server.api('common/checkClickCaptcha', { body: { id: newId(), info: '1,1;350;200', unset: false }, lang: 'zh-cn' });
    expect(zh.msg).toBe('未点中正确区域，请重试！');
  });

  it('re-requesting the same id replaces the puzzle', async () => {
    const id = newId();
    await captcha(id);
    const count = async () => (await server.server.app.db.selectFrom('captcha').select('key').execute()).length;
    const before = await count();
    const second = await captcha(id);
    expect(await count()).toBe(before);
    expect(await service().puzzleOf(id)).toEqual(second.puzzle);
    expectEnvelope(await server.api('common/checkClickCaptcha', { body: { id, info: answerOf(second.puzzle), unset: false } }), 1);
  });

  it('the captcha id is required', async () => {
    const response = await server.api('common/clickCaptcha');
    expectEnvelope(response, 0);
  });
});
