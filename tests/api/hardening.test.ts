import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * Input an attacker or an unlucky client sends, on both databases: every answer is the usual
 * translated envelope, nothing is written, and retries with one idempotency key get one answer.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('hardening on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => dynamicDb(server.server.app.db);
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

  /** The schemas with an API, and their integer key: every case below is generated from them. */
  function resources(action: string) {
    const { app } = server.server;
    // The resources answering the generic action: one whose action is its own (config's grouped index,
    // say) answers in its own way, and one whose menu does not list it (the operation log's add) not at all.
    return [...app.resources.values()].filter((definition) => {
      const controller = app.controllers.forResource(definition.id);
      return controller?.actions[action] !== undefined && !controller.hooks?.actions?.[action];
    });
  }

  it('refuses out-of-range and fractional numbers and NUL characters in every list, with the envelope', async () => {
    const nul = 'The request contains a character that is not allowed (NUL)';
    for (const definition of resources('index')) {
      const path = `${definition.controller}/index`;
      const key = definition.fields.find((field) => field.name === definition.primaryKey);
      const cases: [Record<string, unknown>, string | undefined][] = [[{ quickSearch: 'a\u0000b' }, nul]];
      if (key?.wireType === 'integer') {
        const invalid = `Invalid search value for ${key.title.en}`;
        cases.push(
          [{ search: [{ field: key.name, val: '99999999999999999999', operator: '=' }] }, invalid],
          [{ search: [{ field: key.name, val: '1.5', operator: '=' }] }, invalid],
          [{ initKey: key.name, initValue: '99999999999999999999' }, undefined],
        );
      }
      for (const [query, msg] of cases) {
        const answer = await admin(path, { query });
        expect(answer.status, `${path} ${JSON.stringify(query)}`).toBe(200);
        expect(answer.code, `${path} ${JSON.stringify(query)}: ${answer.msg}`).toBe(0);
        if (msg) expect(answer.msg, path).toBe(msg);
      }
    }
  });

  it('refuses a NUL character in every text field of every add and edit, writing nothing', async () => {
    const nul = 'The request contains a character that is not allowed (NUL)';
    for (const definition of resources('add')) {
      const texts = definition.fields.filter((field) => field.wireType === 'string' && !field.readOnly && field.storage);
      if (texts.length === 0) continue;
      const before = Number(((await db().selectFrom(definition.table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as Row).total);
      for (const field of texts) {
        for (const action of ['add', 'edit']) {
          const answer = await admin(`${definition.controller}/${action}`, { body: { [definition.primaryKey]: 1, [field.name]: 'a\u0000b' } });
          expect({ status: answer.status, code: answer.code, msg: answer.msg }, `${definition.controller}/${action} ${field.name}`).toEqual({ status: 200, code: 0, msg: nul });
        }
      }
      const after = Number(((await db().selectFrom(definition.table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as Row).total);
      // Refused writes are still logged: the log grows, nothing else.
      if (definition.table !== 'admin_log') expect(after, definition.table).toBe(before);
    }
  });

  it('refuses integers beyond what a column holds in every add, writing nothing, and names the field', async () => {
    // (Refused writes are logged: the admin log grows, so it is left out of the count.)
    for (const definition of resources('add').filter((item) => item.table !== 'admin_log')) {
      const integers = definition.fields.filter((field) => field.wireType === 'integer' && !field.readOnly && field.storage && !field.enum && !field.ref);
      for (const field of integers) {
        const before = await db().selectFrom(definition.table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
        const answer = await admin(`${definition.controller}/add`, { body: `{"${field.name}": 99999999999999999999}` });
        expect({ status: answer.status, code: answer.code }, `${definition.controller} ${field.name}: ${answer.msg}`).toEqual({ status: 200, code: 0 });
        expect(await db().selectFrom(definition.table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).toEqual(before);
      }
    }
    // With every other field right, the refusal is on the number.
    const answer = await admin('team.Team/add', { body: '{"name": "Range", "commission_rate_bp": 1, "id": 1, "status": "enable", "extra": 1, "leader_id": 99999999999999999999}' });
    expect({ code: answer.code, data: answer.data }).toEqual({ code: 0, data: { field: 'leader_id', errorId: 'validation' } });
    expect(answer.msg).toBe('Leader must not be greater than 9007199254740991');
  });

  it('refuses a NUL in the login name of both areas without a token, in both languages', async () => {
    const admins = await server.admin('Index/login', { body: { username: 'ad\u0000min', password: 'whatever1' } });
    expect({ code: admins.code, msg: admins.msg, data: admins.data }).toEqual({ code: 0, msg: 'The request contains a character that is not allowed (NUL)', data: { errorId: 'invalidCharacter' } });
    const members = await server.api('user/checkIn', { body: { tab: 'login', username: 'us\u0000er', password: 'whatever1' }, lang: 'zh-cn' });
    expect({ code: members.code, msg: members.msg }).toEqual({ code: 0, msg: '请求中含有不允许的字符（NUL）' });
    // The attempt is in the admin log, without the NUL.
    const logged = (await db().selectFrom('admin_log').select(['username', 'data']).orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    expect(logged.username).toBe('admin');
    expect(String(logged.data)).not.toContain('\\u0000');
  });

  it('keeps a bounded, masked summary of a huge login request in the admin log', async () => {
    const answer = await server.admin('Index/login', { body: { username: 'admin', password: 'Wrong_pass1', extra: 'x'.repeat(900_000), list: Array.from({ length: 5000 }, (_, index) => index), nested: { a: { b: { c: { d: { e: 'deep' } } } } } } });
    expect(answer.code).toBe(0);
    const logged = (await db().selectFrom('admin_log').select('data').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
    const text = String(logged.data);
    expect(text.length).toBeLessThanOrEqual(8 * 1024);
    const data = JSON.parse(text) as Row;
    expect(data.password).toBe('***');
    expect(data.username).toBe('admin');
    expect(String(data.extra)).toMatch(/^x+…\(900000\)$/);
    expect(String(data.extra).length).toBeLessThan(600);
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

  it('puts the security headers on API answers, errors and stored files', async () => {
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(encodePng(2, 2, new Uint8Array(16).fill(90)))], { type: 'image/png' }), 'dot.png');
    const token = (await server.loginAdmin()).token;
    const stored = (await (await server.raw('/chidaoadminstator.php/ajax/upload', { method: 'POST', headers: { batoken: token }, body: upload })).json()) as { data: { file: { url: string } } };
    for (const path of ['/api/common/clickCaptcha?id=x', '/api/nowhere', stored.data.file.url]) {
      const response = await server.raw(path);
      expect(response.headers.get('content-security-policy'), path).toContain("default-src 'self'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
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

describe.each(DATABASES)('login throttling on %s', (kind) => {
  let server: TestServer;
  const login = (username: string, password: string, ip: string, lang: 'en' | 'zh-cn' = 'en') =>
    server.admin('Index/login', { body: { username, password }, headers: { 'x-forwarded-for': ip }, lang });

  beforeAll(async () => {
    // The test client is the trusted proxy, so X-Forwarded-For names the client address.
    server = await startTestServer(kind, { env: { AUTH_RATE_LIMIT: '12', TRUST_PROXY: 'loopback' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('locks an account for the address that failed, not for its owner elsewhere', async () => {
    for (let attempt = 0; attempt < 10; attempt++) expect((await login('admin', `Wrong_pass${attempt}`, '10.0.0.1')).msg).toBe('Incorrect account or password');
    const locked = await login('admin', 'Admin_pass1', '10.0.0.1');
    expect({ code: locked.code, data: locked.data }).toEqual({ code: 0, data: { errorId: 'loginLocked' } });
    expect(locked.msg).toMatch(/24 hours/);
    const owner = await login('admin', 'Admin_pass1', '10.0.0.2');
    expect(owner.code).toBe(1);
  });

  it('locks a name no account has as it locks an account, so the lockout does not tell them apart', async () => {
    const answers: string[] = [];
    for (let attempt = 0; attempt < 11; attempt++) answers.push((await login('no_such_admin', `Wrong_pass${attempt}`, '10.0.0.6')).msg);
    expect(answers.slice(0, 10).every((msg) => msg === 'Incorrect account or password')).toBe(true);
    expect(answers[10]).toMatch(/24 hours/);
    // the lockout is of that name from that address only
    expect((await login('no_such_admin', 'Wrong_pass1', '10.0.0.7')).msg).toBe('Incorrect account or password');
    expect((await login('admin', 'Admin_pass1', '10.0.0.6')).code).toBe(1);
  });

  it('limits login and code calls per address and minute, with the seconds to wait, across accounts', async () => {
    const answers: { code: number; msg: string }[] = [];
    for (let attempt = 0; attempt < 13; attempt++) answers.push(await login(`nobody${attempt}`, 'Wrong_pass1', '10.0.0.3'));
    expect(answers.slice(0, 12).every((answer) => answer.msg !== answers[12].msg)).toBe(true);
    expect(answers[12].code).toBe(0);
    expect(answers[12].msg).toMatch(/^Too many attempts, please retry in \d+ seconds$/);
    const zh = await login('admin', 'Admin_pass1', '10.0.0.3', 'zh-cn');
    expect(zh.msg).toMatch(/^尝试次数过多，请在 \d+ 秒后重试$/);
    // Another address is not concerned, and the counters live in the database (shared by every process).
    expect((await login('admin', 'Admin_pass1', '10.0.0.4')).code).toBe(1);
    const rows = (await server.server.app.db.selectFrom('login_attempt').select('ip').where('kind', '=', 'try').where('ip', '=', '10.0.0.3').execute()) as Row[];
    expect(rows).toHaveLength(12);

    for (let attempt = 0; attempt < 12; attempt++) await server.api('Ems/send', { body: { email: `x${attempt}@example.com`, event: 'user_register' }, headers: { 'x-forwarded-for': '10.0.0.5' } });
    const code = await server.api('Ems/send', { body: { email: 'y@example.com', event: 'user_register' }, headers: { 'x-forwarded-for': '10.0.0.5' } });
    expect(code.msg).toMatch(/^Too many attempts, please retry in \d+ seconds$/);
  });
});
