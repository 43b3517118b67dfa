import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What stops a request before any controller runs: the GET throttle (docs/wire-contract.md#get-throttle) and the
 * `no_access_ip` blacklist (docs/wire-contract.md#ip-blacklist). Both answer with BuildAdmin's bare bodies, not the envelope.
 */

const LIMIT = 4;

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
