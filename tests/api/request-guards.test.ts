import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

/**
 * What stops a request before any controller runs: the GET throttle (docs/wire-contract.md#get-throttle) and the
 * `no_access_ip` blacklist (docs/wire-contract.md#ip-blacklist). Both answer with BuildAdmin's bare bodies, not the envelope.
 */

const LIMIT = 4;
const MEMBER_PASSWORD = 'Member_pass1';

/** The refusal exactly as BuildAdmin's think-throttle sends it: a bare `{code: 0, msg}` with Retry-After. */
function expectRefusal(response: ApiResponse): void {
  expect(response.status).toBe(200);
  expect(Object.keys(response).filter((key) => key !== 'status' && key !== 'headers').sort()).toEqual(['code', 'msg']);
  expect(response.code).toBe(0);
  const seconds = /^Please do not request frequently\. Try again in (\d+) seconds\.$/.exec(response.msg)?.[1];
  expect(seconds, response.msg).toBeDefined();
  expect(response.headers.get('retry-after')).toBe(seconds);
  expect(response.headers.get('x-rate-limit-remaining')).toBeNull();
}

describe.each(DATABASES)('request guards on %s', (kind) => {
  describe('GET throttle', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(kind, { env: { API_GET_RATE_LIMIT: String(LIMIT) } });
    });

    afterAll(async () => {
      await server?.close();
    });

    it('counts GETs per client, then refuses them until the minute ends while POSTs still pass', async () => {
      const remaining: string[] = [];
      for (let i = 0; i < LIMIT; i++) {
        const response = await server.admin('Index/login');
        expect(response.code).toBe(1);
        expect(response.headers.get('x-rate-limit-limit')).toBe(String(LIMIT));
        remaining.push(response.headers.get('x-rate-limit-remaining') ?? '');
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);

      const refused = await server.raw('/api/common/clickCaptcha?id=anything', { headers: { 'think-lang': 'en', origin: 'http://localhost:5173' } });
      expect(refused.status).toBe(200);
      const body = (await refused.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'msg']);
      expect(body.code).toBe(0);
      expect(body.msg).toMatch(/^Please do not request frequently\. Try again in (\d+) seconds\.$/);
      const seconds = Number(/(\d+)/.exec(String(body.msg))?.[1]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(refused.headers.get('retry-after')).toBe(String(seconds));
      // the browser can read the refusal: CORS headers are on it
      expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');

      // and in Chinese
      expect((await server.admin('Index/login', { lang: 'zh-cn' })).msg).toMatch(/^请求过于频繁，请 \d+ 秒后再试。$/);

      // POSTs are not counted: logging in still works
      const login = await server.admin('Index/login', { method: 'POST', body: { username: 'admin', password: 'Admin_pass1' } });
      expect(login.code).toBe(1);
    });

    it('does not count the single-page app and its assets', async () => {
      const page = await server.raw('/chidaoadminstator/login');
      expect(page.headers.get('x-rate-limit-limit')).toBeNull();
    });
  });

  describe('GET throttle budgets: a signed-in account its own, everyone else the address', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(kind, { env: { API_GET_RATE_LIMIT: String(LIMIT) } });
    });

    afterAll(async () => {
      await server?.close();
    });

    /** A member signed in from `address` (the loopback proxy is trusted, so X-Forwarded-For is the client address). */
    async function memberFrom(address: string, username: string): Promise<{ id: number; token: string }> {
      const now = Math.floor(Date.now() / 1000);
      const row = await server.server.app.db
        .insertInto('user')
        .values({ group_id: 1, username, nickname: username, email: '', mobile: '', password: await hashPassword(MEMBER_PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', {
        body: { tab: 'login', username, password: MEMBER_PASSWORD },
        headers: { 'x-forwarded-for': address },
      });
      expect(login.code, login.msg).toBe(1);
      return { id: Number((row as { id: number }).id), token: login.data.userInfo.token };
    }

    /** The X-Rate-Limit-Remaining of `count` GETs, each of which must be answered. */
    async function remainingAfter(count: number, get: () => Promise<ApiResponse>): Promise<string[]> {
      const remaining: string[] = [];
      for (let i = 0; i < count; i++) {
        const response = await get();
        expect(response.code, response.msg).toBe(1);
        remaining.push(response.headers.get('x-rate-limit-remaining') ?? '');
      }
      return remaining;
    }

    it('gives two members behind one address, and an admin there, a budget each; the address keeps its own', async () => {
      const address = '203.0.113.10';
      const headers = { 'x-forwarded-for': address };
      const first = await memberFrom(address, 'officeone');
      const second = await memberFrom(address, 'officetwo');
      const { token: adminToken } = await server.loginAdmin();

      const firstGets = () => server.api('account/overview', { userToken: first.token, headers });
      expect(await remainingAfter(LIMIT, firstGets)).toEqual(['3', '2', '1', '0']);
      expectRefusal(await firstGets());

      // the first member spent their budget, not the address's: the second member starts afresh
      const secondGets = () => server.api('account/overview', { userToken: second.token, headers });
      expect(await remainingAfter(LIMIT, secondGets)).toEqual(['3', '2', '1', '0']);
      expectRefusal(await secondGets());
      // admin #1 is not member #1: the back office has its own budget too
      expect(await remainingAfter(2, () => server.admin('Index/index', { token: adminToken, headers }))).toEqual(['3', '2']);
      // and a visitor at that address who is not signed in has not spent anything yet
      expect(await remainingAfter(1, () => server.api('index/index', { headers }))).toEqual(['3']);
      // the first member is still refused until their minute ends
      expectRefusal(await firstGets());
    });

    it('counts a request with a forged, expired or other-area token against the address', async () => {
      const address = '203.0.113.20';
      const headers = { 'x-forwarded-for': address };
      const member = await memberFrom(address, 'expiring');
      const neighbour = await memberFrom(address, 'neighbour');
      await server.server.app.db.updateTable('token').set({ expire_time: Math.floor(Date.now() / 1000) - 1 }).where('user_id', '=', member.id).where('type', '=', 'user').execute();

      expect(await remainingAfter(1, () => server.api('index/index', { headers }))).toEqual(['3']);
      expect(await remainingAfter(1, () => server.api('index/index', { userToken: 'forged-token-0123456789abcdef', headers }))).toEqual(['2']);
      // an expired session is refused for its own reason, and the address pays for the request
      const expired = await server.api('account/overview', { userToken: member.token, headers });
      expect(expired.headers.get('x-rate-limit-remaining')).toBe('1');
      expect(expired.code).not.toBe(1);
      // a member's token sent to the back office is no admin's
      expect((await server.admin('Index/login', { token: member.token, headers })).headers.get('x-rate-limit-remaining')).toBe('0');

      // the address is spent: another made-up token buys no fresh budget
      expectRefusal(await server.api('index/index', { userToken: 'another-forged-token-9876543210', headers }));
      expectRefusal(await server.admin('Index/index', { token: 'forged-admin-token-0123456789', headers }));
      // while a valid session at that address still has its own
      expect(await remainingAfter(1, () => server.api('account/overview', { userToken: neighbour.token, headers }))).toEqual(['3']);
    });

    it('sends the refusal of a signed-in member as before, translated, with the CORS headers on it', async () => {
      const address = '203.0.113.30';
      const member = await memberFrom(address, 'fastclicker');
      const gets = (lang: 'en' | 'zh-cn') =>
        server.api('account/overview', { userToken: member.token, lang, headers: { 'x-forwarded-for': address, origin: 'http://localhost:5173' } });
      await remainingAfter(LIMIT, () => gets('en'));
      const refused = await gets('en');
      expectRefusal(refused);
      expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect((await gets('zh-cn')).msg).toMatch(/^请求过于频繁，请 \d+ 秒后再试。$/);
    });
  });

  describe('IP blacklist', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(kind);
    });

    afterEach(async () => {
      await server.server.app.config.set('no_access_ip', '');
    });

    afterAll(async () => {
      await server?.close();
    });

    it('answers a listed address with 403 and a bare translated msg, on every API route', async () => {
      await server.server.app.config.set('no_access_ip', '10.1.2.3\n127.0.0.0/8');
      for (const path of ['/chidaoadminstator.php/Index/login', '/api/common/refreshToken', '/api/user/checkIn']) {
        const refused = await server.raw(path, { headers: { 'think-lang': 'en' } });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual({ msg: 'No permission request' });
      }
      const zh = await server.raw('/api/user/checkIn', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(zh.status).toBe(403);
      expect(await zh.json()).toEqual({ msg: '无权限请求' });
    });

    it('lets other addresses through, and ignores lines that are not addresses', async () => {
      await server.server.app.config.set('no_access_ip', 'not-an-ip\n10.0.0.0/8\n127.0.0.1/99\n::2');
      expect((await server.admin('Index/login')).code).toBe(1);
    });

    it('believes X-Forwarded-For from a trusted proxy only (loopback by default)', async () => {
      await server.server.app.config.set('no_access_ip', '203.0.113.7');
      const viaProxy = await server.raw('/api/common/refreshToken', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(viaProxy.status).toBe(403);
      expect((await server.raw('/api/common/refreshToken', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(200);

      const direct = await startTestServer(kind, { env: { TRUST_PROXY: '10.0.0.1' } });
      try {
        await direct.server.app.config.set('no_access_ip', '127.0.0.1');
        // a client that is not the trusted proxy cannot hide behind a forged header
        expect((await direct.raw('/api/common/refreshToken', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(403);
      } finally {
        await direct.close();
      }
    });

    it('applies a change made in the back office at once', async () => {
      const { token } = await server.loginAdmin();
      // warm the cache with the empty list first
      expect((await server.admin('Index/login')).code).toBe(1);
      const edited = await server.admin('routine.Config/edit', { method: 'POST', token, body: { no_access_ip: '127.0.0.1' } });
      expect(edited.code).toBe(1);
      expect((await server.raw('/chidaoadminstator.php/Index/login')).status).toBe(403);
    });
  });
});
