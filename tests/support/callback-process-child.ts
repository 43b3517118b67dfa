/**
 * One server process for the two-process callback tests (tests/support/callback-process.ts): the real start-up
 * on `DATABASE_URL` (no background jobs), then, on a line `go` on standard input, `COUNT` identical callbacks
 * at once. With `REQUEST` (JSON: method, url, headers) each is that HTTP request through the server's own
 * routes, answered `{status, body}`; otherwise each is the wall callback of the provider `PROVIDER_CODE` with
 * the query `QUERY`, recorded as the callback address records it once the signature is checked, answered
 * `ok`, `duplicate` or `refused`. It prints `ready` when started, then one JSON line of the answers, and exits.
 */
import { createInterface } from 'node:readline';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';
import { recordWallCallback } from '../../src/server/services/survey/walls.js';

interface SentRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
}

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const server = await createServer(settingsFromEnv({ ADMIN_LOGIN_CAPTCHA: 'false', ...process.env }, projectRoot), { jobs: [] });
const request = process.env.REQUEST ? (JSON.parse(process.env.REQUEST) as SentRequest) : undefined;
const provider = request
  ? undefined
  : await server.app.db.selectFrom('survey_provider').selectAll().where('code', '=', process.env.PROVIDER_CODE ?? '').executeTakeFirstOrThrow();
const query = new URLSearchParams(process.env.QUERY ?? '');

async function once(): Promise<unknown> {
  if (request) {
    const response = await server.http.inject({ method: request.method, url: request.url, headers: request.headers, remoteAddress: '203.0.113.9' });
    return { status: response.statusCode, body: response.body };
  }
  const result = await recordWallCallback(server.app, provider!, (name) => query.get(name) ?? undefined, { ip: '203.0.113.9', rawQuery: query.toString() });
  return result.answer;
}

console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const results = await Promise.all(Array.from({ length: Number(process.env.COUNT ?? 10) }, once));
  console.log(JSON.stringify(results));
  break;
}
lines.close();
await server.close();
process.exit(0);
