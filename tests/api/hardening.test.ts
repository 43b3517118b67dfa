import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Input an attacker or an unlucky client sends (issue 11), on both databases: every answer is the usual
 * translated envelope, nothing is written, and retries with one idempotency key get one answer.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('hardening on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function addMember(): Promise<number> {
    const username = `hard${++counter}`;
    const added = await admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: 'Member_pass1' } });
    expect(added.code).toBe(1);
    return Number(((await db().selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow()) as Row).id);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers every retry of one idempotency key with the first call’s result, writing one entry', async () => {
    const id = await addMember();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => admin('user.MoneyLog/add', { body: { user_id: id, money: '1.00', memo: 'Bonus', idempotencyKey: `bonus-${id}` } })),
    );
    expect(answers.map((answer) => [answer.code, answer.msg])).toEqual(Array(30).fill([1, 'Added successfully!']));
    const rows = await db().selectFrom('user_money_log').select('money').where('user_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(Number(((await db().selectFrom('user').select('money').where('id', '=', id).executeTakeFirstOrThrow()) as Row).money)).toBe(100);

    // The same race straight at the ledger, where it is tightest: every caller gets the one entry.
    const app = server.server.app;
    const entries = await Promise.all(
      Array.from({ length: 20 }, () => recordLedgerEntry(app.db, app.handle.dialect, { kind: 'score', userId: id, amount: 5, memo: 'Race', idempotencyKey: `race-${id}` })),
    );
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(1);
    expect(entries.filter((entry) => entry.applied)).toHaveLength(1);
    expect(Number(((await db().selectFrom('user').select('score').where('id', '=', id).executeTakeFirstOrThrow()) as Row).score)).toBe(5);
  });
});

describe('framework errors as envelopes', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers an oversize URL, body, wrong content type and broken JSON with the translated envelope', async () => {
    const longUrl = await server.raw(`/api/common/clickCaptcha?id=${'a'.repeat(40_000)}`);
    expect(longUrl.status).toBe(431);
    expect(await longUrl.json()).toMatchObject({ code: 0, msg: '请求地址或请求头过长' });

    const post = (body: string, type: string) => server.raw('/api/user/checkIn', { method: 'POST', headers: { 'content-type': type, 'think-lang': 'en' }, body });
    const cases: [Response, string][] = [
      [await post(`{"username":"${'x'.repeat(1_100_000)}"}`, 'application/json'), 'The request body is too large'],
      [await post('<a/>', 'text/xml'), 'The content type of the request is not supported'],
      [await post('{bad', 'application/json'), 'The request body is not valid JSON'],
    ];
    for (const [response, msg] of cases) {
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ code: 0, msg });
    }
  });
});
