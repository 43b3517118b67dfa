import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolBuilt, ToolCheck, ToolSent } from '../../src/contract/provider-tool.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';
import { signRequest, type SignatureRecipe } from '../../src/server/services/survey/signature-recipe.js';

/**
 * The provider test tool (`survey.Provider/testReturn`), a hash calculator over the provider's saved recipe
 * and secret: what it builds is accepted by the real return and callback endpoints; a pasted request is
 * judged by the very check the endpoint makes, with the signed text, the expected and received signatures,
 * and a wrong signature's diagnosis; a test callback it sends goes through the real callback address and
 * records and credits nothing; only admins holding its node may use it, and only test ids are signed for
 * an admin who may not reconcile.
 */

type Row = Record<string, unknown>;
const SECRET = 'tool-secret-1';
const MEMBER_PASSWORD = 'Member_pass1';
const HMAC_SHA256_HEX = { text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null };

const hmac = (algorithm: string, text: string, secret = SECRET, encoding: 'hex' | 'base64' | 'base64url' = 'hex') => createHmac(algorithm, secret).update(text).digest(encoding);
const hash = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');

describe.each(DATABASES)('provider test tool on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, lang: 'en', ...request });

  async function ok<T>(response: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
    const answer = await response;
    expect({ code: answer.code, msg: answer.msg }).toMatchObject({ code: 1 });
    return answer.data;
  }

  async function createProvider(values: Row = {}): Promise<Row> {
    const code = `tool${++counter}`;
    await ok(admin('survey.Provider/add', { body: { code, name: `Tool ${code}`, secret: SECRET, ...values } }));
    return (await db().selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirstOrThrow()) as Row;
  }

  const tool = <T,>(id: unknown, body: Row, lang: 'en' | 'zh-cn' = 'en') => ok(admin<T>('survey.Provider/testReturn', { body: { id, ...body }, lang }));
  const build = (id: unknown, outcome: string, extra: Row = {}) => tool<ToolBuilt>(id, { mode: 'build', outcome, ...extra });
  const check = (id: unknown, url: string, extra: Row = {}, lang: 'en' | 'zh-cn' = 'en') => tool<ToolCheck>(id, { mode: 'check', url, ...extra }, lang);

  /** A member who started a survey of the provider: the rid of a real attempt. */
  async function realRid(providerId: unknown): Promise<string> {
    const title = `Tool survey ${++counter}`;
    await ok(admin('survey.Survey/add', { body: { provider_id: providerId, title, entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.00', reward_score: 5, loi_minutes: 1, status: 'active' } }));
    const survey = (await db().selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow()) as Row;
    const username = `tool${counter}${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD } }));
    const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    const start = await ok(server.api<{ url: string }>('survey/start', { body: { id: survey.id }, userToken: login.data.userInfo.token }));
    return new URL(start.url).searchParams.get('r') as string;
  }

  const statusOf = async (rid: string) => ((await db().selectFrom('survey_participation').select('status').where('rid', '=', rid).executeTakeFirstOrThrow()) as Row).status;
  const count = async (table: 'survey_participation_event' | 'user_money_log' | 'user_score_log' | 'survey_security_event') =>
    Number(((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as Row).n);

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('builds a return URL the outcome page accepts, signed as the provider must sign it', async () => {
    const provider = await createProvider({ rid_param: 'tid', sig_param: 'hash' });
    const rid = await realRid(provider.id);
    const built = await build(provider.id, 'complete', { rid });
    expect(built).toMatchObject({ providerKind: 'project', outcome: 'complete', rid, notes: [] });
    const redirect = built.redirect as ToolBuilt['callback'];
    const url = new URL(redirect.url);
    expect(url.pathname).toBe('/success');
    expect(redirect.signedText).toBe(`/success?tid=${rid}`);
    expect(redirect.signature).toBe(hmac('sha256', `/success?tid=${rid}`));
    expect(url.searchParams.get('hash')).toBe(redirect.signature);

    const verdict = await check(provider.id, redirect.url);
    expect(verdict).toMatchObject({ ok: true, signatureValid: true, verdict: 'ok', kind: 'redirect', outcome: 'complete', problems: [], warnings: [] });
    expect(verdict).toMatchObject({ signedText: `/success?tid=${rid}`, expectedSignature: redirect.signature, receivedSignature: redirect.signature });
    expect(verdict.parameters).toEqual([{ name: 'tid', value: rid, role: 'rid' }, { name: 'hash', value: redirect.signature, role: 'signature' }]);

    // The real outcome page takes it: the attempt is recorded complete, not security.
    const report = await server.api<Row>('survey/outcome', { body: { outcome: 'success', query: url.search.slice(1) } });
    expect(report.code).toBe(1);
    expect(await statusOf(rid)).toBe('complete');
  });

  it('builds a callback with the provider exit code that the callback endpoint accepts', async () => {
    const provider = await createProvider({ signature: { ...HMAC_SHA256_HEX, key: 'append', keySeparator: '', algorithm: 'md5' }, exit_map: { '20': 'terminate', '10': 'complete' } });
    const rid = await realRid(provider.id);
    const built = await build(provider.id, 'terminate', { rid });
    expect(built.callback.status).toBe('20');
    expect(built.callback.signedText).toBe(`/api/survey/callback/${String(provider.code)}?rid=${rid}&status=20`);
    expect(built.callback.signature).toBe(hash('md5', built.callback.signedText + SECRET));
    expect((await check(provider.id, built.callback.url)).outcome).toBe('terminate');

    const url = new URL(built.callback.url);
    const answer = (await (await server.raw(`${url.pathname}${url.search}`, { headers: { 'think-lang': 'en' } })).json()) as { code: number };
    expect(answer.code).toBe(1);
    expect(await statusOf(rid)).toBe('terminate');
  });

  it('signs with any recipe: a header signature over the sorted query, a JSON body, a form field, an expiring timestamp', async () => {
    // A header carrying the base64 HMAC-SHA512 of the sorted query, with a timestamp in milliseconds.
    const header = await createProvider({
      sig_param: 'X-Signature',
      signature: { text: 'sorted_query', key: 'hmac', algorithm: 'sha512', encoding: 'base64', in: 'header', expiry: { in: 'query', name: 'ts', unit: 'ms', skewSeconds: 300 } },
    });
    const built = await build(header.id, 'complete');
    const query = new URL(built.callback.url).search.slice(1);
    const ts = new URLSearchParams(query).get('ts') as string;
    expect(Math.abs(Number(ts) / 1000 - Date.now() / 1000)).toBeLessThan(60);
    const sorted = query.split('&').sort((a, b) => (a.split('=')[0] < b.split('=')[0] ? -1 : 1)).join('&');
    expect(built.callback.signedText).toBe(sorted);
    expect(built.callback.headers).toEqual({ 'X-Signature': hmac('sha512', sorted, SECRET, 'base64') });
    // A browser's return cannot carry a header: the return URL is unsigned, and the tool says so.
    expect(built.redirect?.signature).toBe('');
    expect(built.notes).toEqual(['The return URL is not signed: this provider\'s recipe puts the signature where a browser\'s return cannot carry it (a header or the body); set it to credit on its server callback only']);
    const headers = `X-Signature: ${built.callback.headers['X-Signature']}`;
    expect(await check(header.id, built.callback.url, { headers })).toMatchObject({ ok: true, verdict: 'ok', kind: 'callback' });
    // The very callback endpoint takes it (a test rid: answered as test traffic).
    const url = new URL(built.callback.url);
    const answer = await server.raw(`${url.pathname}${url.search}`, { headers: { 'think-lang': 'en', 'x-signature': built.callback.headers['X-Signature'] } });
    expect(((await answer.json()) as { code: number; msg: string })).toEqual({ code: 1, msg: 'Test callback: checked, nothing recorded' });

    // The body signed as a whole, in a JSON webhook with the hex HMAC in a header.
    const json = await createProvider({ sig_param: 'X-Hub-Signature', signature: { text: 'body', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'header', expiry: null } });
    const webhook = await build(json.id, 'overquota');
    expect(webhook.callback).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hub-Signature': hmac('sha256', webhook.callback.body) } });
    expect(JSON.parse(webhook.callback.body)).toEqual({ rid: webhook.rid, status: 'overquota' });
    const webhookCheck = await check(json.id, webhook.callback.url, { method: 'POST', headers: `Content-Type: application/json\nX-Hub-Signature: ${webhook.callback.headers['X-Hub-Signature']}`, body: webhook.callback.body });
    expect(webhookCheck).toMatchObject({ ok: true, verdict: 'ok', outcome: 'overquota', signedText: webhook.callback.body });

    // A form field, the signature at the end of the body.
    const field = await createProvider({ signature: { ...HMAC_SHA256_HEX, text: 'values', names: ['rid', 'status'], separator: '|', in: 'field' } });
    const form = await build(field.id, 'security');
    expect(form.callback.method).toBe('POST');
    expect(form.callback.body).toBe(`rid=${String(form.rid)}&status=security&sig=${hmac('sha256', `${String(form.rid)}|security`)}`);
  });

  it('names what is wrong with a tampered or mis-signed URL', async () => {
    const provider = await createProvider();
    const built = await build(provider.id, 'complete', { rid: 'abc123' });
    const url = (built.redirect as ToolBuilt['callback']).url;
    expect((await check(provider.id, url)).warnings).toEqual(['No attempt has the rid "abc123": a real return with it would be refused (start a survey to get a real rid)']);

    const tampered = await check(provider.id, url.replace('rid=abc123', 'rid=abc124'));
    expect(tampered).toMatchObject({ ok: false, signatureValid: false, verdict: 'wrong', outcome: 'security', signedText: '/success?rid=abc124', receivedSignature: hmac('sha256', '/success?rid=abc123') });
    expect(tampered.expectedSignature).toBe(hmac('sha256', '/success?rid=abc124'));
    expect(tampered.problems).toEqual(['The signature does not match. The signed text is /success?rid=abc124: check the secret, and that no parameter was changed or added after signing']);

    const unsigned = await check(provider.id, url.replace(/&sig=[0-9a-f]+$/, ''));
    expect(unsigned).toMatchObject({ verdict: 'missing', problems: ['The signature parameter "sig" is missing'] });

    const md5 = hash('md5', `/success?rid=abc123${SECRET}`);
    expect((await check(provider.id, `/success?rid=abc123&sig=${md5}`)).problems).toEqual(['The signature was made with MD5 with secret appended, but this provider is set to HMAC-SHA256']);

    const withHost = hmac('sha256', 'https://example.com/success?rid=abc123');
    expect((await check(provider.id, `https://example.com/success?rid=abc123&sig=${withHost}`)).problems).toEqual([
      'The signature covers the address with its scheme and host; only the path and query are signed: /success?rid=abc123',
    ]);

    const base64 = hmac('sha256', '/success?rid=abc123', SECRET, 'base64');
    expect((await check(provider.id, `/success?rid=abc123&sig=${encodeURIComponent(base64)}`)).problems).toEqual(['The signature is written in base64, but this provider is set to hexadecimal']);

    const sorted = hmac('sha256', 'a=1&rid=abc123');
    expect((await check(provider.id, `/success?rid=abc123&a=1&sig=${sorted}`)).problems).toEqual([
      'The signature covers the query sorted by name, but this provider signs the path and query: /success?rid=abc123&a=1',
    ]);

    // Several parts differ: the recipe that matches is named whole.
    const several = createHmac('sha1', SECRET).update('a=1&rid=abc123').digest('base64url');
    expect((await check(provider.id, `/success?rid=abc123&a=1&sig=${several}`)).problems).toEqual([
      'The signature matches another recipe: HMAC-SHA1, base64url, the query sorted by name. If the provider\'s guide says so, change this provider\'s recipe to it',
    ]);

    // The '&' before the signature signed too, as some providers do.
    const keptSeparator = hmac('sha256', '/success?rid=abc123&');
    expect((await check(provider.id, `/success?rid=abc123&sig=${keptSeparator}`)).problems).toEqual([
      'The signature was made with the signature pair taken out, the “&” before it kept, but this provider\'s recipe has the signature pair and its “&” taken out',
    ]);

    const short = await check(provider.id, '/success?rid=abc123&sig=1234');
    expect(short.problems).toEqual(['The signature has 4 characters, but HMAC-SHA256 gives 64 lowercase hexadecimal characters']);

    const renamed = hmac('sha256', '/success?uid=abc123');
    expect((await check(provider.id, `/success?uid=abc123&sig=${renamed}`)).problems).toEqual([
      'The rid parameter "rid" is missing; the URL has "uid" instead: change the provider\'s rid parameter or the URL',
    ]);

    const callback = built.callback.url.replace(/status=[^&]+&/, '');
    const noStatus = await check(provider.id, callback);
    expect(noStatus.problems[0]).toBe('The status parameter "status" is missing: a callback must say how the attempt ended');

    const elsewhere = await check(provider.id, '/thanks?rid=abc123&sig=00');
    expect(elsewhere.problems[0]).toBe(`The path "/thanks" is neither an outcome page (/success, /terminate, /overquota, /security) nor this provider's callback address (/api/survey/callback/${String(provider.code)})`);

    // In the operator's language.
    const zh = await check(provider.id, url.replace(/&sig=[0-9a-f]+$/, ''), {}, 'zh-cn');
    expect(zh.problems).toEqual(['缺少签名参数“sig”']);
    const zhEncoding = await check(provider.id, `/success?rid=abc123&sig=${encodeURIComponent(base64)}`, {}, 'zh-cn');
    expect(zhEncoding.problems).toEqual(['签名用的编码是base64，但该渠道设置的是十六进制']);
  });

  it('explains signatures in the wrong place, expired timestamps and full URLs signed for another address', async () => {
    const header = await createProvider({ sig_param: 'X-Sig', signature: { ...HMAC_SHA256_HEX, in: 'header', expiry: { in: 'header', name: 'X-Time', unit: 's', skewSeconds: 60 } } });
    const path = `/api/survey/callback/${String(header.code)}?rid=test-1&status=complete`;
    const good = hmac('sha256', path);
    const now = Math.floor(Date.now() / 1000);
    expect(await check(header.id, path, { headers: `X-Sig: ${good}\nX-Time: ${now}` })).toMatchObject({ ok: true, verdict: 'ok' });
    const inQuery = await check(header.id, `${path}&X-Sig=${good}`, { headers: `X-Time: ${now}` });
    expect(inQuery).toMatchObject({ verdict: 'missing', problems: ['The signature "X-Sig" was sent in the query, but this provider expects it in a header'] });
    expect((await check(header.id, path, { headers: `X-Time: ${now}` })).problems).toEqual(['The signature header "X-Sig" is missing']);
    const stale = await check(header.id, path, { headers: `X-Sig: ${good}\nX-Time: ${now - 600}` });
    expect(stale.verdict).toBe('expired');
    expect(stale.problems[0]).toMatch(/^The timestamp "X-Time" is 6\d\d seconds away from our clock; this provider allows 60$/);
    expect((await check(header.id, path, { headers: `X-Sig: ${good}` })).problems).toEqual(['The timestamp "X-Time" is missing or not a number: this provider\'s requests expire']);
    const zh = await check(header.id, path, { headers: `X-Sig: ${good}\nX-Time: ${now - 600}` }, 'zh-cn');
    expect(zh.problems[0]).toMatch(/^时间戳“X-Time”与本站时钟相差 6\d\d 秒；该渠道允许相差 60 秒$/);

    // A provider signing the full URL signs the address it calls, which must be this site's public one.
    const full = await createProvider({ signature: { ...HMAC_SHA256_HEX, text: 'url' } });
    const fullPath = `/api/survey/callback/${String(full.code)}?rid=test-2&status=complete`;
    expect(await check(full.id, `${server.url}${fullPath}&sig=${hmac('sha256', `${server.url}${fullPath}`)}`)).toMatchObject({ ok: true, verdict: 'ok' });
    const elsewhere = await check(full.id, `https://panel.example.com${fullPath}&sig=${hmac('sha256', `https://panel.example.com${fullPath}`)}`);
    expect(elsewhere).toMatchObject({ verdict: 'wrong', signedText: `${server.url}${fullPath}` });
    expect(elsewhere.problems).toEqual([`The signature covers the full URL starting https://panel.example.com, but requests reach us as ${server.url}: set PUBLIC_URL to the address the provider calls, or give the provider that address`]);
    expect(elsewhere.warnings).toContain(`The address starts https://panel.example.com, but this site's public address is ${server.url}: a provider that signs the full URL must call that address`);
    expect((await check(full.id, `${fullPath}&sig=${hmac('sha256', fullPath)}`)).problems).toEqual([
      `The signature covers the path and query, but this provider signs the full URL: ${server.url}${fullPath}`,
    ]);
  });

  it('builds a Dynata REX return signed by its HMAC chain with a deadline, and says which key or deadline a pasted one misses', async () => {
    const rex = await createProvider({ preset: 'dynata_rex' });
    const built = await build(rex.id, 'complete');
    const url = new URL(String(built.redirect?.url));
    const expiration = url.searchParams.get('expiration') as string;
    // a deadline five minutes ahead, in RFC 3339, and a test access key
    expect(Date.parse(expiration) / 1000 - Math.floor(Date.now() / 1000)).toBeGreaterThan(240);
    expect(url.searchParams.get('access_key')).toBe('test-access-key');
    expect(await check(rex.id, String(built.redirect?.url))).toMatchObject({ ok: true, verdict: 'ok' });
    const withoutKey = await check(rex.id, String(built.redirect?.url).replace('&access_key=test-access-key', ''));
    expect(withoutKey).toMatchObject({ verdict: 'missing', problems: ['The signature is keyed in turn by "access_key", which the request does not carry'] });
    const zh = await check(rex.id, String(built.redirect?.url).replace('&access_key=test-access-key', ''), {}, 'zh-cn');
    expect(zh.problems).toEqual(['签名依次以“access_key”为密钥，但请求中没有该值']);
    // Signed for a deadline already passed: the signature is right, the deadline is not.
    const passed = new Date((Math.floor(Date.now() / 1000) - 120) * 1000).toISOString();
    const recipe = JSON.parse(String(rex.signature)) as SignatureRecipe;
    const query = `rid=test-9&disposition=1&status=0&expiration=${encodeURIComponent(passed)}&access_key=AK1`;
    const stale = signRequest(recipe, SECRET, 'signature', { method: 'GET', origin: server.url, path: '/success', query, headers: {}, body: '', contentType: '' });
    const verdict = await check(rex.id, `/success?${stale.query}`);
    expect(verdict.verdict).toBe('expired');
    expect(verdict.problems[0]).toMatch(/^The deadline "expiration" passed 1[2-3]\d seconds ago$/);
  });

  it('refuses bad input with a message and records nothing', async () => {
    const provider = await createProvider();
    const before = await count('survey_participation_event');
    const refused = async (body: Row, lang: 'en' | 'zh-cn' = 'en') => {
      const answer = await admin('survey.Provider/testReturn', { body: { id: provider.id, ...body }, lang });
      return { code: answer.code, msg: answer.msg };
    };
    expect(await refused({ mode: 'check', url: ' ' })).toEqual({ code: 0, msg: 'Please paste the return URL or callback to check' });
    expect((await refused({ mode: 'check', url: 'success rid=1' })).msg).toBe('Paste a whole address (https://…) or a path starting with /, without spaces');
    expect((await refused({ mode: 'check', url: '/success?rid=1', headers: 'X-Sig 12' })).msg).toBe('Each header line must be "Name: value": X-Sig 12');
    expect((await refused({ mode: 'check', url: '/success?rid=1', method: 'PUT' })).msg).toBe('The method must be GET or POST');
    expect((await refused({ mode: 'check', url: '/success?rid=1', body: 'x'.repeat(16_001) })).msg).toBe('The body may hold at most 16000 characters');
    expect((await refused({ mode: 'build', outcome: 'timeout' }, 'zh-cn')).msg).toBe('请选择要测试的结果：完成、被甄别、配额已满、安全终止或撤销');
    expect((await refused({ mode: 'build', outcome: 'reversal' })).msg).toBe('This provider never reverses: its reversal rule is "none"');
    expect((await refused({ mode: 'build', outcome: 'complete', rid: 'a b' })).msg).toBe('The test rid may hold at most 64 letters, digits, - and _');
    expect((await refused({ mode: 'send', outcome: 'complete', rid: 'abc123' })).msg).toBe('A test callback is sent with test IDs only: leave the RID or member ID blank, or give one starting with "test-"');
    const missing = await admin('survey.Provider/testReturn', { body: { id: 999999, mode: 'build', outcome: 'complete' } });
    expect(missing.msg).toBe('Record not found');
    expect(await count('survey_participation_event')).toBe(before);
  });

  it('builds, checks and sends a wall’s credit and reversal with test ids, and nothing is credited', async () => {
    const wall = await createProvider({
      kind: 'wall', wall_url: 'https://wall.example.com/?uid={member}', member_param: 'uid', amount_param: 'reward', transaction_param: 'tx', amount_in: 'major',
      signature: { text: 'values', names: ['uid', 'tx', 'reward'], separator: '', key: 'append', keySeparator: '', algorithm: 'md5', encoding: 'hex', in: 'query', expiry: null },
      reversal: { by: 'negative_amount' }, credit_on: 'callback', answer_body: 'OK', answer_type: 'text/plain',
    });
    const credit = await build(wall.id, 'complete', { amount: '2.50' });
    expect(credit).toMatchObject({ providerKind: 'wall', amount: '2.50' });
    expect(credit.redirect).toBeUndefined();
    expect(credit.member).toMatch(/^test-[0-9a-f]{16}$/);
    expect(credit.transaction).toMatch(/^test-[0-9a-f]{16}$/);
    const text = `${String(credit.member)}${String(credit.transaction)}2.50`;
    expect(credit.callback.signedText).toBe(text);
    expect(credit.callback.url).toBe(`${server.url}/api/survey/callback/${String(wall.code)}?uid=${String(credit.member)}&tx=${String(credit.transaction)}&reward=2.50&sig=${hash('md5', text + SECRET)}`);
    const verdict = await check(wall.id, credit.callback.url);
    expect(verdict).toMatchObject({ ok: true, verdict: 'ok', kind: 'callback', outcome: 'complete' });
    expect(verdict.parameters.map((parameter) => parameter.role)).toEqual(['member', 'transaction', 'amount', 'signature']);
    expect(verdict.warnings).toEqual([`The member ID "${String(credit.member)}" is a test ID: the request is checked as a real one would be, but a callback with it records and credits nothing`]);

    const reversal = await build(wall.id, 'reversal', { amount: '2.50', transaction: 'test-T1' });
    expect(reversal).toMatchObject({ amount: '-2.50', transaction: 'test-T1' });
    expect((await check(wall.id, reversal.callback.url)).outcome).toBe('reversal');

    // Sent through the real callback address: answered as the provider expects, nothing recorded or credited.
    const before = await Promise.all([count('user_money_log'), count('user_score_log'), count('survey_security_event')]);
    const sent = await tool<ToolSent>(wall.id, { mode: 'send', outcome: 'complete', amount: '2.50' });
    expect(sent.response).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' });
    expect(sent.request.url).toContain(`/api/survey/callback/${String(wall.code)}?uid=test-`);
    const sentReversal = await tool<ToolSent>(wall.id, { mode: 'send', outcome: 'reversal', member: reversal.member, transaction: 'test-T1' });
    expect(sentReversal.response.body).toBe('OK');
    expect(await Promise.all([count('user_money_log'), count('user_score_log'), count('survey_security_event')])).toEqual(before);

    // A super admin may sign for a real member (the right to reconcile), but never send it as a test.
    expect((await admin('survey.Provider/testReturn', { body: { id: wall.id, mode: 'build', outcome: 'complete', member: 'M7Qk2xV9' } })).code).toBe(1);
    expect((await admin('survey.Provider/testReturn', { body: { id: wall.id, mode: 'send', outcome: 'complete', member: 'M7Qk2xV9' } })).code).toBe(0);
  });

  it('sends a project’s test callback through the real callback address, which records nothing', async () => {
    const provider = await createProvider({ exit_map: { '10': 'complete' } });
    const before = await Promise.all([count('survey_participation_event'), count('user_money_log'), count('survey_security_event')]);
    const sent = await tool<ToolSent>(provider.id, { mode: 'send', outcome: 'complete' });
    expect(sent.request.url).toMatch(new RegExp(`/api/survey/callback/${String(provider.code)}\\?rid=test-[0-9a-f]{16}&status=10&sig=[0-9a-f]{64}$`));
    expect(sent.response.status).toBe(200);
    expect(JSON.parse(sent.response.body)).toEqual({ code: 1, msg: 'Test callback: checked, nothing recorded' });
    expect(await Promise.all([count('survey_participation_event'), count('user_money_log'), count('survey_security_event')])).toEqual(before);
    // In the admin's language.
    const zh = await tool<ToolSent>(provider.id, { mode: 'send', outcome: 'complete' }, 'zh-cn');
    expect(JSON.parse(zh.response.body)).toEqual({ code: 1, msg: '测试回调：已校验，未记录' });
  });

  it('checks a preset’s published example as the endpoint would, and names what differs', async () => {
    // BitLabs' own guide example: HMAC-SHA1 of the whole URL, keyed by the App Secret it shows, for the guide's own address.
    const bitlabs = await createProvider({ preset: 'bitlabs', secret: 'JLOIAUNMHFli7ZJOQVEzm98rzqnm9' });
    const example = 'https://publisher.com/complete?uid=8cc877ee-af19-488d-b28d-216fb866b996&val=500&hash=dbcd6bb8ca677344592842a52b4fca9bec36cd4b';
    const verdict = await check(bitlabs.id, example);
    expect(verdict).toMatchObject({ verdict: 'wrong', receivedSignature: 'dbcd6bb8ca677344592842a52b4fca9bec36cd4b' });
    expect(verdict.problems).toEqual([
      'The path "/complete" is neither an outcome page (/success, /terminate, /overquota, /security) nor this provider\'s callback address (/api/survey/callback/' + String(bitlabs.code) + ')',
      // the guide's example shows only uid and val
      'The transaction parameter "tx" is missing: a wall\'s callback must name its transaction',
      `The signature covers the full URL starting https://publisher.com, but requests reach us as ${server.url}: set PUBLIC_URL to the address the provider calls, or give the provider that address`,
    ]);
    // The same rule on our own callback address verifies; a raised amount does not.
    const path = `/api/survey/callback/${String(bitlabs.code)}?uid=test-m1&tx=test-t1&val=1.25&type=COMPLETE`;
    const signed = `${server.url}${path}&hash=${hmac('sha1', `${server.url}${path}`, 'JLOIAUNMHFli7ZJOQVEzm98rzqnm9')}`;
    expect(await check(bitlabs.id, signed)).toMatchObject({ ok: true, verdict: 'ok', outcome: 'complete' });
    const raised = await check(bitlabs.id, signed.replace('val=1.25', 'val=12.50'));
    expect(raised).toMatchObject({ verdict: 'wrong', signatureValid: false });
    expect(raised.problems).toEqual([`The signature does not match. The signed text is ${server.url}${path.replace('val=1.25', 'val=12.50')}: check the secret, and that no parameter was changed or added after signing`]);
  });

  it('is a permission node of its own', async () => {
    const provider = await createProvider();
    const node = (await db().selectFrom('admin_rule').select(['id', 'title']).where('name', '=', 'survey/provider/testReturn').executeTakeFirstOrThrow()) as Row;
    expect(node.title).toBe('测试回传');
    const ids = (names: string[]) => db().selectFrom('admin_rule').select('id').where('name', 'in', names).execute();
    const viewer = (await ids(['survey', 'survey/provider', 'survey/provider/index'])).map((row) => Number(row.id));

    const group = `Provider viewers ${kind}`;
    expect((await admin('auth.Group/add', { body: { pid: 1, name: group, rules: viewer, status: '1' } })).code).toBe(1);
    const groupId = Number(((await db().selectFrom('admin_group').select('id').where('name', '=', group).executeTakeFirstOrThrow()) as Row).id);
    expect((await admin('auth.Admin/add', { body: { username: `viewer${kind}`, nickname: 'Viewer', password: 'Viewer_pass1', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const viewerToken = (await server.loginAdmin(`viewer${kind}`, 'Viewer_pass1')).token;
    for (const mode of ['build', 'check', 'send']) {
      const denied = await server.admin('survey.Provider/testReturn', { token: viewerToken, lang: 'en', body: { id: provider.id, mode, outcome: 'complete', url: '/success?rid=test-1' } });
      expect(denied.msg).toBe('You have no permission to operate');
    }

    await admin('auth.Group/edit', { body: { id: groupId, pid: 1, name: group, rules: [...viewer, Number(node.id)], status: '1' } });
    const allowed = await server.admin<ToolBuilt>('survey.Provider/testReturn', { token: viewerToken, lang: 'en', body: { id: provider.id, mode: 'build', outcome: 'complete' } });
    expect(allowed.code).toBe(1);
    expect(allowed.data.redirect?.url).toContain('/success?rid=test-');
  });

  it('signs only test ids for an admin who may not reconcile, and never shows the signature of a real attempt or member', async () => {
    const provider = await createProvider();
    const wall = await createProvider({ kind: 'wall', wall_url: 'https://wall.example.com/?uid={member}', member_param: 'uid', transaction_param: 'tx', amount_param: 'reward' });
    const rid = await realRid(provider.id);
    const participation = () => db().selectFrom('survey_participation as p').innerJoin('user as u', 'u.id', 'p.user_id').select(['p.status', 'u.money']).where('p.rid', '=', rid).executeTakeFirstOrThrow();
    const before = await participation();
    const nodes = async (names: string[]) => (await db().selectFrom('admin_rule').select('id').where('name', 'in', names).execute()).map((row) => Number(row.id));
    const tester = await nodes(['survey', 'survey/provider', 'survey/provider/index', 'survey/provider/testReturn']);
    const group = `Provider testers ${kind}`;
    expect((await admin('auth.Group/add', { body: { pid: 1, name: group, rules: tester, status: '1' } })).code).toBe(1);
    const groupId = Number(((await db().selectFrom('admin_group').select('id').where('name', '=', group).executeTakeFirstOrThrow()) as Row).id);
    expect((await admin('auth.Admin/add', { body: { username: `tester${kind}`, nickname: 'Tester', password: 'Tester_pass1', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const testerToken = (await server.loginAdmin(`tester${kind}`, 'Tester_pass1')).token;
    const asTester = <T,>(body: Row, id: unknown = provider.id) => server.admin<T>('survey.Provider/testReturn', { token: testerToken, lang: 'en', body: { id, ...body } });

    // A real attempt's rid, as typed or in any other form, is refused; so is a member id that is not a test one.
    for (const typed of [rid, 'abc123']) {
      const refused = await asTester({ mode: 'build', outcome: 'complete', rid: typed });
      expect({ code: refused.code, msg: refused.msg, data: refused.data }).toEqual({
        code: 0, msg: 'Only test rids (starting with "test-") can be signed here: signing a return for a real attempt needs the right to reconcile participations', data: { field: 'rid', errorId: 'providerTestRidNotTest' },
      });
    }
    const member = await asTester({ mode: 'build', outcome: 'complete', member: 'M7Qk2xV9' }, wall.id);
    expect({ msg: member.msg, data: member.data }).toEqual({
      msg: 'Only test member IDs (starting with "test-") can be signed here: signing a callback for a real member needs the right to reconcile participations', data: { field: 'member', errorId: 'providerTestMemberNotTest' },
    });

    // A pasted request naming the attempt or a real member is checked, but the signature it should carry is not shown.
    for (const pasted of [`/success?rid=${rid}`, `/success?r%69d=${rid}`, `/success?rid=test-x&other=${rid}`, `/api/survey/callback/${String(provider.code)}?rid=${rid}&status=complete`]) {
      const verdict = await asTester<ToolCheck>({ mode: 'check', url: pasted });
      expect(verdict.code).toBe(1);
      expect(verdict.data.expectedSignature).toBe('');
      expect(verdict.data.warnings).toContain('The expected signature is not shown: this URL names a real attempt, and signing for one needs the right to reconcile participations');
    }
    const body = await asTester<ToolCheck>({ mode: 'check', url: `/api/survey/callback/${String(provider.code)}`, method: 'POST', body: `rid=${rid}&status=complete` });
    expect(body.data.expectedSignature).toBe('');
    const realMember = await asTester<ToolCheck>({ mode: 'check', url: `/api/survey/callback/${String(wall.code)}?uid=M7Qk2xV9&tx=T1&reward=1.00&sig=00` }, wall.id);
    expect(realMember.data.expectedSignature).toBe('');
    expect(realMember.data.warnings).toContain('The expected signature is not shown: this request names a member ID that is not a test ID, and signing for a real member needs the right to reconcile participations');

    // A test return it builds verifies, but neither the outcome page nor the callback records or credits anything.
    const built = await asTester<ToolBuilt>({ mode: 'build', outcome: 'complete' });
    expect(built.data.rid).toMatch(/^test-[0-9a-f]{16}$/);
    const redirect = built.data.redirect as ToolBuilt['callback'];
    const verdict = await asTester<ToolCheck>({ mode: 'check', url: redirect.url });
    expect(verdict.data).toMatchObject({ ok: true, signatureValid: true, outcome: 'complete' });
    expect(verdict.data.warnings).toEqual([`The rid "${String(built.data.rid)}" is a test rid: the URL is checked as a real return would be, but a real return with it records nothing`]);
    expect(verdict.data.expectedSignature).not.toBe('');
    // Even an attempt that somehow held a test rid is out of reach of a test return.
    await db().updateTable('survey_participation').set({ rid: String(built.data.rid) }).where('rid', '=', rid).execute();
    const page = await server.api('survey/outcome', { body: { outcome: 'success', query: new URL(redirect.url).search.slice(1) } });
    expect(page.code).toBe(0);
    const callback = new URL(built.data.callback.url);
    expect(((await (await server.raw(`${callback.pathname}${callback.search}`, { headers: { 'think-lang': 'en' } })).json()) as { msg: string }).msg).toBe('Test callback: checked, nothing recorded');
    await db().updateTable('survey_participation').set({ rid }).where('rid', '=', String(built.data.rid)).execute();
    expect(await participation()).toEqual(before);

    // The right to reconcile, which can credit an attempt anyway, also signs for one.
    await admin('auth.Group/edit', { body: { id: groupId, pid: 1, name: group, rules: [...tester, ...(await nodes(['survey/participation', 'survey/participation/reconcile']))], status: '1' } });
    const signed = await asTester<ToolBuilt>({ mode: 'build', outcome: 'complete', rid });
    expect(signed.data.redirect?.signedText).toBe(`/success?rid=${rid}`);
    expect((await asTester<ToolCheck>({ mode: 'check', url: `/success?rid=${rid}` })).data.expectedSignature).toBe(signed.data.redirect?.signature);
  });

  it('gives providers synced before the tool existed its node once, at the next start', async () => {
    const node = () => db().selectFrom('admin_rule').select(['pid', 'title']).where('name', '=', 'survey/provider/testReturn').executeTakeFirst();
    // As a database of the previous version: menus synced (2), no test node.
    await db().deleteFrom('admin_rule').where('name', '=', 'survey/provider/testReturn').execute();
    await db().updateTable('schema_state').set({ menu_synced: 2 }).where('table_name', '=', 'survey_provider').execute();
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl })).close();
    const menu = (await db().selectFrom('admin_rule').select('id').where('name', '=', 'survey/provider').executeTakeFirstOrThrow()) as Row;
    expect(await node()).toEqual({ pid: menu.id, title: '测试回传' });
  });
});
