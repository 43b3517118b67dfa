import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * The provider test tool (`survey.Provider/testReturn`): a URL it builds is accepted by the real return
 * and callback endpoints; a tampered one is refused by the check with the mistake named; only admins
 * holding the node may use it.
 */

type Row = Record<string, unknown>;
const SECRET = 'tool-secret-1';
const MEMBER_PASSWORD = 'Member_pass1';

interface Built {
  rid: string;
  redirect: { url: string; signedText: string; signature: string };
  callback: { url: string; signedText: string; signature: string; status: string; method: string };
}

interface Check {
  ok: boolean;
  signatureValid: boolean;
  kind: string;
  outcome?: string;
  signedText: string;
  expectedSignature: string;
  problems: string[];
  warnings: string[];
  parameters: { name: string; value: string; role: string }[];
}

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

  const build = (id: unknown, outcome: string, rid?: string) => ok(admin<Built>('survey.Provider/testReturn', { body: { id, mode: 'build', outcome, ...(rid ? { rid } : {}) } }));
  const check = (id: unknown, url: string, lang: 'en' | 'zh-cn' = 'en') => ok(admin<Check>('survey.Provider/testReturn', { body: { id, mode: 'check', url }, lang }));

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
    const built = await build(provider.id, 'complete', rid);
    const url = new URL(built.redirect.url);
    expect(url.pathname).toBe('/success');
    expect(built.redirect.signedText).toBe(`/success?tid=${rid}`);
    expect(built.redirect.signature).toBe(createHmac('sha256', SECRET).update(`/success?tid=${rid}`).digest('hex'));
    expect(url.searchParams.get('hash')).toBe(built.redirect.signature);

    const verdict = await check(provider.id, built.redirect.url);
    expect(verdict).toMatchObject({ ok: true, signatureValid: true, kind: 'redirect', outcome: 'complete', problems: [], warnings: [] });
    expect(verdict.parameters).toEqual([{ name: 'tid', value: rid, role: 'rid' }, { name: 'hash', value: built.redirect.signature, role: 'signature' }]);

    // The real outcome page takes it: the attempt is recorded complete, not security.
    const report = await server.api<Row>('survey/outcome', { body: { outcome: 'success', query: url.search.slice(1) } });
    expect(report.code).toBe(1);
    expect(await statusOf(rid)).toBe('complete');
  });

  it('builds a callback with the provider exit code that the callback endpoint accepts', async () => {
    const provider = await createProvider({ signature: { text: 'path_query', key: 'append', algorithm: 'md5', encoding: 'hex', in: 'query', expiry: null }, exit_map: { '20': 'terminate', '10': 'complete' } });
    const rid = await realRid(provider.id);
    const built = await build(provider.id, 'terminate', rid);
    expect(built.callback.status).toBe('20');
    expect(built.callback.signedText).toBe(`/api/survey/callback/${String(provider.code)}?rid=${rid}&status=20`);
    expect(built.callback.signature).toBe(createHash('md5').update(built.callback.signedText + SECRET).digest('hex'));
    expect((await check(provider.id, built.callback.url)).outcome).toBe('terminate');

    const url = new URL(built.callback.url);
    const answer = (await (await server.raw(`${url.pathname}${url.search}`, { headers: { 'think-lang': 'en' } })).json()) as { code: number };
    expect(answer.code).toBe(1);
    expect(await statusOf(rid)).toBe('terminate');
  });

  it('names what is wrong with a tampered or mis-signed URL', async () => {
    const provider = await createProvider();
    const built = await build(provider.id, 'complete', 'abc123');
    const url = built.redirect.url;
    expect((await check(provider.id, url)).warnings).toEqual(['No attempt has the rid "abc123": a real return with it would be refused (start a survey to get a real rid)']);

    const tampered = await check(provider.id, url.replace('rid=abc123', 'rid=abc124'));
    expect(tampered).toMatchObject({ ok: false, signatureValid: false, outcome: 'security', signedText: '/success?rid=abc124' });
    expect(tampered.problems).toEqual(['The signature does not match. The signed text is /success?rid=abc124: check the secret, and that no parameter was changed or added after signing']);

    const unsigned = await check(provider.id, url.replace(/&sig=[0-9a-f]+$/, ''));
    expect(unsigned.problems).toEqual(['The signature parameter "sig" is missing']);

    const md5 = createHash('md5').update(`/success?rid=abc123${SECRET}`).digest('hex');
    expect((await check(provider.id, `/success?rid=abc123&sig=${md5}`)).problems).toEqual(['The signature was made with MD5 with secret appended, but this provider is set to HMAC-SHA256']);

    const withHost = createHmac('sha256', SECRET).update('https://example.com/success?rid=abc123').digest('hex');
    expect((await check(provider.id, `https://example.com/success?rid=abc123&sig=${withHost}`)).problems).toEqual([
      'The signature covers the address with its scheme and host; only the path and query are signed: /success?rid=abc123',
    ]);

    const short = await check(provider.id, '/success?rid=abc123&sig=1234');
    expect(short.problems).toEqual(['The signature has 4 characters, but HMAC-SHA256 gives 64 lowercase hexadecimal characters']);

    const renamed = createHmac('sha256', SECRET).update('/success?uid=abc123').digest('hex');
    expect((await check(provider.id, `/success?uid=abc123&sig=${renamed}`)).problems).toEqual([
      'The rid parameter "rid" is missing; the URL has "uid" instead: change the provider\'s rid parameter or the URL',
    ]);

    const callback = built.callback.url.replace(/status=[^&]+&/, '');
    const noStatus = await check(provider.id, callback);
    expect(noStatus.problems[0]).toBe('The status parameter "status" is missing: a callback must say how the attempt ended');

    const elsewhere = await check(provider.id, '/thanks?rid=abc123&sig=00');
    expect(elsewhere.problems[0]).toBe(`The path "/thanks" is neither an outcome page (/success, /terminate, /overquota, /security) nor this provider's callback address (/api/survey/callback/${String(provider.code)})`);

    // In the operator's language.
    const zh = await check(provider.id, url.replace(/&sig=[0-9a-f]+$/, ''), 'zh-cn');
    expect(zh.problems).toEqual(['缺少签名参数“sig”']);
  });

  it('refuses bad input with a message and records nothing', async () => {
    const provider = await createProvider();
    const before = await db().selectFrom('survey_participation').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const noUrl = await admin('survey.Provider/testReturn', { body: { id: provider.id, mode: 'check', url: ' ' } });
    expect({ code: noUrl.code, msg: noUrl.msg }).toEqual({ code: 0, msg: 'Please paste the return URL or callback to check' });
    const badUrl = await admin('survey.Provider/testReturn', { body: { id: provider.id, mode: 'check', url: 'success rid=1' } });
    expect(badUrl.msg).toBe('Paste a whole address (https://…) or a path starting with /, without spaces');
    const badOutcome = await admin('survey.Provider/testReturn', { body: { id: provider.id, mode: 'build', outcome: 'timeout' }, lang: 'zh-cn' });
    expect(badOutcome.msg).toBe('请选择要测试的结果：完成、甄别、配额满或安全');
    const missing = await admin('survey.Provider/testReturn', { body: { id: 999999, mode: 'build', outcome: 'complete' } });
    expect(missing.msg).toBe('Record not found');
    const after = await db().selectFrom('survey_participation').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
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
    const denied = await server.admin('survey.Provider/testReturn', { token: viewerToken, lang: 'en', body: { id: provider.id, mode: 'build', outcome: 'complete' } });
    expect(denied.msg).toBe('You have no permission to operate');

    await admin('auth.Group/edit', { body: { id: groupId, pid: 1, name: group, rules: [...viewer, Number(node.id)], status: '1' } });
    const allowed = await server.admin<Built>('survey.Provider/testReturn', { token: viewerToken, lang: 'en', body: { id: provider.id, mode: 'build', outcome: 'complete' } });
    expect(allowed.code).toBe(1);
    expect(allowed.data.redirect.url).toContain('/success?rid=test-');
  });

  it('signs only test rids for an admin who may not reconcile, and never shows the signature of a real attempt', async () => {
    const provider = await createProvider();
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
    const asTester = <T,>(body: Row) => server.admin<T>('survey.Provider/testReturn', { token: testerToken, lang: 'en', body: { id: provider.id, ...body } });

    // A real attempt's rid, as typed or in any other form, is refused.
    for (const typed of [rid, 'abc123']) {
      const refused = await asTester({ mode: 'build', outcome: 'complete', rid: typed });
      expect({ code: refused.code, msg: refused.msg, data: refused.data }).toEqual({
        code: 0, msg: 'Only test rids (starting with "test-") can be signed here: signing a return for a real attempt needs the right to reconcile participations', data: { field: 'rid' },
      });
    }

    // A pasted URL naming the attempt is checked, but the signature it should carry is not shown, however the name is spelt.
    for (const pasted of [`/success?rid=${rid}`, `/success?r%69d=${rid}`, `/success?rid=test-x&other=${rid}`, `/api/survey/callback/${String(provider.code)}?rid=${rid}&status=complete`]) {
      const verdict = await asTester<Check>({ mode: 'check', url: pasted });
      expect(verdict.code).toBe(1);
      expect(verdict.data.expectedSignature).toBe('');
      expect(verdict.data.warnings).toContain('The expected signature is not shown: this URL names a real attempt, and signing for one needs the right to reconcile participations');
    }

    // A test return it builds verifies, but neither the outcome page nor the callback records or credits anything.
    const built = await asTester<Built>({ mode: 'build', outcome: 'complete' });
    expect(built.data.rid).toMatch(/^test-[0-9a-f]{16}$/);
    const verdict = await asTester<Check>({ mode: 'check', url: built.data.redirect.url });
    expect(verdict.data).toMatchObject({ ok: true, signatureValid: true, outcome: 'complete' });
    expect(verdict.data.warnings).toEqual([`The rid "${built.data.rid}" is a test rid: the URL is checked as a real return would be, but a real return with it records nothing`]);
    expect(verdict.data.expectedSignature).not.toBe('');
    // Even an attempt that somehow held a test rid is out of reach of a test return.
    await db().updateTable('survey_participation').set({ rid: built.data.rid }).where('rid', '=', rid).execute();
    const page = await server.api('survey/outcome', { body: { outcome: 'success', query: new URL(built.data.redirect.url).search.slice(1) } });
    expect(page.code).toBe(0);
    const callback = new URL(built.data.callback.url);
    expect(((await (await server.raw(`${callback.pathname}${callback.search}`, { headers: { 'think-lang': 'en' } })).json()) as { code: number }).code).toBe(0);
    await db().updateTable('survey_participation').set({ rid }).where('rid', '=', built.data.rid).execute();
    expect(await participation()).toEqual(before);

    // The right to reconcile, which can credit an attempt anyway, also signs for one.
    await admin('auth.Group/edit', { body: { id: groupId, pid: 1, name: group, rules: [...tester, ...(await nodes(['survey/participation', 'survey/participation/reconcile']))], status: '1' } });
    const signed = await asTester<Built>({ mode: 'build', outcome: 'complete', rid });
    expect(signed.data.redirect.signedText).toBe(`/success?rid=${rid}`);
    expect((await asTester<Check>({ mode: 'check', url: `/success?rid=${rid}` })).data.expectedSignature).toBe(signed.data.redirect.signature);
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
