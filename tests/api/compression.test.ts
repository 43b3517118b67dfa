import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../../src/server/http/compression.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Large answers travel compressed: the back office's login with its bootstrap (every menu and
 * definition, about 200 KB as JSON) arrives as a tenth of that, in whichever encoding the browser
 * accepts; small answers such as a list page go as they are.
 */

interface LoginAnswer {
  code: number;
  data: { userInfo: { token: string }; bootstrap?: { menus: unknown[]; definitions: unknown } };
}

describe('compressed answers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });

  afterAll(async () => {
    await server?.close();
  });

  const login = (encoding: string) =>
    server.admin<LoginAnswer['data']>('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD, bootstrap: true }, headers: { 'accept-encoding': encoding } });

  it('sends the login with its bootstrap in Brotli, or gzip, or plain, the same answer each time', async () => {
    const answers = [];
    for (const [accepted, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['identity', null],
    ] as const) {
      const response = await login(accepted);
      expect(response.code, accepted).toBe(1);
      expect(response.headers.get('content-encoding'), accepted).toBe(sent);
      expect(response.headers.get('vary') ?? '', accepted).toMatch(/accept-encoding/i);
      expect(response.data.bootstrap?.menus.length, accepted).toBeGreaterThan(0);
      answers.push(Object.keys(response.data.bootstrap?.definitions ?? {}).length);
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toBeGreaterThan(10);
  });

  it('compresses the bootstrap to a fraction of its size on the wire', async () => {
    const plain = await wireBytes(server.url, 'identity');
    const compressed = await wireBytes(server.url, 'br');
    expect(plain).toBeGreaterThan(50_000);
    expect(compressed).toBeLessThan(plain / 4);
  });

  it('sends a list page of ten rows as it is', async () => {
    const { token } = await server.loginAdmin();
    const response = await server.admin('auth.Admin/index', { token, query: { page: 1, limit: 10 }, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.code).toBe(1);
    expect(response.headers.get('content-encoding')).toBeNull();
  });

  it('reads which encodings a browser accepts, honouring a refusal', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('gzip');
    expect(acceptedEncoding('deflate')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});

/** The bytes of the login's answer as they come over the wire, undecoded. */
function wireBytes(base: string, encoding: string): Promise<number> {
  const body = JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, bootstrap: true });
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}/chidaoadminstator.php/Index/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': encoding } }, (response) => {
      let length = 0;
      response.on('data', (chunk: Buffer) => (length += chunk.length));
      response.on('end', () => resolve(length));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
