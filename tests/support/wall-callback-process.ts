/**
 * One server process for the two-process wall test (tests/api/survey-walls.test.ts): the real start-up on
 * `DATABASE_URL` (no background jobs), then, on a line `go` on standard input, `COUNT` identical wall callbacks
 * at once for the provider `PROVIDER_CODE` with the query `QUERY`, each recorded as the callback address
 * records it once the signature is checked. It prints `ready` when started, then one JSON line of the answers
 * (`ok`, `duplicate`, `refused`), and exits.
 */
import { createInterface } from 'node:readline';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';
import { recordWallCallback } from '../../src/server/services/survey/walls.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const server = await createServer(settingsFromEnv({ ADMIN_LOGIN_CAPTCHA: 'false', ...process.env }, projectRoot), { jobs: [] });
const provider = await server.app.db.selectFrom('survey_provider').selectAll().where('code', '=', process.env.PROVIDER_CODE ?? '').executeTakeFirstOrThrow();
const query = new URLSearchParams(process.env.QUERY ?? '');
console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const results = await Promise.all(
    Array.from({ length: Number(process.env.COUNT ?? 10) }, () =>
      recordWallCallback(server.app, provider, (name) => query.get(name) ?? undefined, { ip: '203.0.113.9', rawQuery: query.toString() }),
    ),
  );
  console.log(JSON.stringify(results.map((result) => result.answer)));
  break;
}
lines.close();
await server.close();
process.exit(0);
