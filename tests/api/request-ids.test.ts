import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Each request has an id an operator can follow: a sane incoming `X-Request-Id` is kept, any other is
 * replaced by a new one; the answer sends it back, the request log writes it on the request's lines, the
 * admin log keeps it with the row, and an internal error shows it to the user instead of what failed.
 * The request log masks secrets, in the query and in headers.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DATABASES)('request ids on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const lines: string[] = [];
  const logLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    server = await startTestServer(kind, { requestLog: { write: (line) => void lines.push(line) } });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('keeps a sane incoming X-Request-Id and makes a new one for a missing or unsafe one', async () => {
    const kept = await server.api('index/index', { headers: { 'x-request-id': 'lb-7f3a:42' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:42');

    for (const unsafe of ['x'.repeat(129), 'two words', 'a"b<c>', 'semi;colon', '%0d%0aSet-Cookie']) {
      const replaced = await server.raw('/health/live', { headers: { 'x-request-id': unsafe } });
      expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    }
    const first = await server.api('index/index');
    const second = await server.raw('/nowhere/at/all');
    expect(first.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('writes the id on the request log lines and masks the secrets of the query', async () => {
    lines.length = 0;
    const answer = await server.raw('/api/index/index?batoken=tok-Secret-1&ba-user-token=usr-Secret-2&refresh_token=ref-Secret-3&password=pw-Secret-4&sig=sig-Secret-5&sign=sign-Secret-6&lang=en');
    const id = answer.headers.get('x-request-id');
    const mine = logLines().filter((line) => line.reqId === id);
    expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    const url = (mine[0].req as { url: string }).url;
    expect(url).toBe('/api/index/index?batoken=***&ba-user-token=***&refresh_token=***&password=***&sig=***&sign=***&lang=en');
    expect(lines.join('\n')).not.toMatch(/Secret-\d/);
  });

  it('masks credentials headers on any line that carries them', () => {
    lines.length = 0;
    server.server.http.log.info({ headers: { authorization: 'Bearer hdr-Secret-1', cookie: 'ba=hdr-Secret-2', batoken: 'hdr-Secret-3', accept: 'text/html' } }, 'headers seen');
    const [line] = logLines();
    expect(line.headers).toEqual({ authorization: '***', cookie: '***', batoken: '***', accept: 'text/html' });
  });

  it('keeps the id with the admin log row', async () => {
    const given = await server.admin('auth.Group/add', { token, headers: { 'x-request-id': 'audit-trace-1' }, body: { name: `Traced ${kind}`, pid: 1, rules: '*' } });
    expect(given.headers.get('x-request-id')).toBe('audit-trace-1');
    const generated = await server.admin('auth.Group/add', { token, body: { name: `Traced again ${kind}`, pid: 1, rules: '*' } });
    const rows = await server.server.app.db.selectFrom('admin_log').select(['request_id', 'url']).orderBy('id', 'desc').limit(2).execute();
    expect(rows.map((row) => row.request_id)).toEqual([generated.headers.get('x-request-id'), 'audit-trace-1']);

    const found = await server.admin<{ list: { request_id: string; url: string }[] }>('auth.AdminLog/index', { token, query: { search: [{ field: 'request_id', val: 'audit-trace-1', operator: '=' }] } });
    expect(found.data.list.map((row) => row.request_id)).toEqual(['audit-trace-1']);
  });

  it('shows the id, and nothing of what failed, in an internal error; the log line of that id has the error', async () => {
    await sql`ALTER TABLE admin_log RENAME TO admin_log_away`.execute(server.server.app.db);
    try {
      lines.length = 0;
      for (const lang of ['en', 'zh-cn'] as const) {
        const failed = await server.admin<{ request_id: string }>('auth.AdminLog/index', { token, lang });
        expect(failed.status).toBe(500);
        const id = failed.headers.get('x-request-id') as string;
        expect(id).toMatch(UUID);
        expect(failed.data).toEqual({ request_id: id, errorId: 'internalError' });
        expect(failed.msg).toBe(lang === 'en' ? `Internal server error! Reference: ${id}` : `服务器内部错误！编号：${id}`);
        expect(JSON.stringify(failed)).not.toMatch(/admin_log|select|\bat\s/i);
        const logged = logLines().find((line) => line.reqId === id && line.msg === 'unhandled error');
        expect(JSON.stringify(logged?.err)).toContain('admin_log');
      }
    } finally {
      await sql`ALTER TABLE admin_log_away RENAME TO admin_log`.execute(server.server.app.db);
    }
  });
});
