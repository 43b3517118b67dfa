import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicDb } from '../../src/server/db/connection.js';
import { legacyRecipe, signRequest, type SignatureRecipe, type SignedRequestInput } from '../../src/server/services/survey/signature-recipe.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Providers as data: a preset fills a provider's columns from its public integration guide; the provider's
 * row gives the addresses to hand over; each project preset's own parameters, signed by its recipe, take an
 * attempt from entry to credit through the real endpoints, once; a request failing a check changes nothing
 * and the security log names the check; providers saved with an algorithm's name are converted at start.
 */

type Row = Record<string, unknown>;
const SECRET = 'preset-secret-7c1e';
const MEMBER_PASSWORD = 'Member_pass1';
const PRESET_IDS = ['ayet', 'bitlabs', 'cint', 'cpx', 'custom', 'dynata', 'dynata_rex', 'innovatemr', 'offerwall', 'pollfish', 'purespectrum', 'tapresearch', 'theoremreach', 'toluna'];

describe.each(DATABASES)('provider presets on %s', (kind) => {
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

  async function providerRow(id: unknown): Promise<Row> {
    return (await dynamicDb(db()).selectFrom('survey_provider').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow()) as Row;
  }

  async function addProvider(values: Row): Promise<Row> {
    const code = `pp${++counter}${kind.slice(0, 2)}`;
    await ok(admin('survey.Provider/add', { body: { code, name: `Provider ${code}`, secret: SECRET, ...values } }));
    return (await dynamicDb(db()).selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirstOrThrow()) as Row;
  }

  async function memberWithAttempt(providerId: unknown): Promise<{ id: number; token: string; rid: string; surveyId: number }> {
    const title = `Survey ${++counter}`;
    await ok(admin('survey.Survey/add', { body: { provider_id: providerId, title, entry_url: 'https://supplier.example/s/1?id={rid}', reward_money: '2.00', reward_score: 5, loi_minutes: 1, hold_speeders: false, status: 'active' } }));
    const survey = (await dynamicDb(db()).selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow()) as { id: number };
    const username = `pm${++counter}${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD } }));
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    const member = login.data.userInfo;
    const started = await ok(server.api<{ url: string }>('survey/start', { body: { id: survey.id }, userToken: member.token }));
    return { id: member.id, token: member.token, rid: new URL(started.url).searchParams.get('id') as string, surveyId: Number(survey.id) };
  }

  async function balanceOf(userId: number): Promise<{ money: number; score: number }> {
    const user = (await dynamicDb(db()).selectFrom('user').select(['money', 'score']).where('id', '=', userId).executeTakeFirstOrThrow()) as Row;
    return { money: Number(user.money), score: Number(user.score) };
  }

  async function ledgerSum(userId: number): Promise<number> {
    const sum = (await db().selectFrom('user_money_log').select((eb) => eb.fn.sum('money').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow()) as { sum: unknown };
    return Number(sum.sum ?? 0);
  }

  function origin(): string {
    return new URL(server.url).origin;
  }

  /** A request to this server signed as the provider's recipe says (the signature under `sigName`, e.g. one of the recipe's aliases). */
  function signed(provider: Row, path: string, pairs: [string, string][], secret = SECRET, sigName = String(provider.sig_param)): SignedRequestInput {
    const recipe = JSON.parse(String(provider.signature)) as SignatureRecipe;
    const query = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
    return signRequest(recipe, secret, sigName, { method: 'GET', origin: origin(), path, query, headers: {}, body: '', contentType: '' });
  }

  /** The kinds of the security events a provider's refused requests left, oldest first. */
  async function securityEvents(provider: Row): Promise<unknown[]> {
    const events = (await dynamicDb(db()).selectFrom('survey_security_event').select(['kind']).where('provider_id', '=', Number(provider.id)).orderBy('id').execute()) as Row[];
    return events.map((event) => event.kind);
  }

  async function send(request: SignedRequestInput): Promise<{ status: number; body: string }> {
    const response = await server.raw(`${request.path}?${request.query}`, { method: request.method, headers: { 'think-lang': 'en', ...request.headers } });
    return { status: response.status, body: await response.text() };
  }

  /** The provider's own code for an outcome: the first its exit map sends there, else our name. */
  function codeFor(provider: Row, outcome: string): string {
    const map = JSON.parse(String(provider.exit_map || '{}')) as Record<string, string>;
    return Object.entries(map).find(([, mapped]) => mapped === outcome)?.[0] ?? outcome;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists every preset with its kind and the public document it follows', async () => {
    const { list } = await ok(admin<{ list: Row[] }>('survey.Provider/presets'));
    expect(list.map((preset) => preset.id)).toEqual(PRESET_IDS);
    for (const preset of list) {
      expect(['project', 'wall']).toContain(preset.kind);
      expect(preset.source).toMatchObject({ document: expect.any(String), url: expect.stringMatching(/^https:\/\//), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
      expect(String(preset.title)).not.toBe('');
    }
    const zh = await ok(admin<{ list: Row[] }>('survey.Provider/presets', { lang: 'zh-cn' }));
    expect(zh.list.find((preset) => preset.id === 'offerwall')?.title).toBe('通用积分墙');
    // The source document reads in the reader's language, its own name kept.
    const documentOf = (rows: Row[]) => (rows.find((preset) => preset.id === 'bitlabs')?.source as { document?: unknown } | undefined)?.document;
    expect(documentOf(list)).toBe('Securing callbacks through hashing (BitLabs developer documentation)');
    expect(documentOf(zh.list)).toBe('Securing callbacks through hashing（BitLabs 开发者文档）');
  });

  it('fills a provider from its preset, keeps what the operator gives, and hands over the exit URLs in the provider\'s macro', async () => {
    const cint = await addProvider({ preset: 'cint', rid_param: 'ref' });
    expect(JSON.parse(String(cint.signature))).toEqual({ text: 'url', key: 'hmac', algorithm: 'sha1', encoding: 'base64url', in: 'query', cut: 'keep_separator', expiry: null });
    expect(cint).toMatchObject({ kind: 'project', preset: 'cint', sig_param: 'hash', exit_placeholder: '[%PID%]', rid_param: 'ref' });
    const { row } = await ok(admin<{ row: Row }>('survey.Provider/edit', { query: { id: cint.id } }));
    expect(row.callback_url).toBe(`${origin()}/api/survey/callback/${String(cint.code)}`);
    expect(row.exit_urls).toEqual({
      complete: `${origin()}/success?ref=[%PID%]`, terminate: `${origin()}/terminate?ref=[%PID%]`,
      overquota: `${origin()}/overquota?ref=[%PID%]`, security: `${origin()}/security?ref=[%PID%]`,
    });
    expect(row).not.toHaveProperty('secret');

    const wall = await addProvider({ preset: 'offerwall', wall_url: 'https://wall.example.com/?app=9&uid={member}' });
    expect(wall).toMatchObject({ kind: 'wall', answer_body: 'ok', member_param: 'subId', transaction_param: 'transId' });
    const wallRow = (await ok(admin<{ row: Row }>('survey.Provider/edit', { query: { id: wall.id } }))).row;
    expect(wallRow).not.toHaveProperty('exit_urls');

    // An unknown preset, a bad recipe or reversal rule, a wall without {member}: refused, nothing written.
    const before = Number(((await db().selectFrom('survey_provider').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown }).n);
    const refusals: [Row, string][] = [
      [{ preset: 'nosuch' }, 'preset'],
      [{ signature: { text: 'url', key: 'hmac', algorithm: 'sha3', encoding: 'hex', in: 'query' } }, 'signature'],
      [{ reversal: { by: 'status' } }, 'reversal'],
      [{ preset: 'offerwall', wall_url: 'https://wall.example.com/?app=9' }, 'wall_url'],
      [{ transaction_param: 'a+b+c+d+e' }, 'transaction_param'],
    ];
    for (const [values, field] of refusals) {
      const answer = await admin('survey.Provider/add', { body: { code: `bad${++counter}`, name: 'Bad', secret: SECRET, ...values } });
      expect({ code: answer.code, field: (answer.data as Row | null)?.field }, JSON.stringify(values)).toEqual({ code: 0, field });
    }
    const zh = await admin('survey.Provider/add', { body: { code: `bad${++counter}`, name: 'Bad', secret: SECRET, preset: 'offerwall', wall_url: 'x' }, lang: 'zh-cn' });
    expect(zh.msg).toBe('问卷墙地址必须是包含 {member} 的 http 或 https 地址');
    const after = Number(((await db().selectFrom('survey_provider').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown }).n);
    expect(after).toBe(before);
  });

  describe.each([
    ['custom', 'callback'],
    ['innovatemr', 'callback'],
    ['purespectrum', 'callback'],
    ['cint', 'redirect'],
  ])('the %s preset', (preset, channel) => {
    it(`credits a complete once through its signed ${channel}, and answers a repeat as the provider expects`, async () => {
      const provider = await addProvider({ preset });
      const member = await memberWithAttempt(provider.id);
      const pairs: [string, string][] = [[String(provider.rid_param), member.rid]];
      if (channel === 'callback') {
        pairs.push([String(provider.status_param), codeFor(provider, 'complete')]);
        const request = signed(provider, `/api/survey/callback/${String(provider.code)}`, pairs);
        for (let attempt = 0; attempt < 2; attempt++) {
          const answer = await send(request);
          expect(answer.status).toBe(Number(provider.answer_status));
          if (provider.answer_body === '') expect(JSON.parse(answer.body)).toMatchObject({ code: 1 });
          else expect(answer.body).toBe(provider.answer_body);
        }
      } else {
        const request = signed(provider, '/success', pairs);
        const first = await ok(server.api<Row>('survey/outcome', { body: { outcome: 'success', query: request.query }, userToken: member.token }));
        expect(first).toMatchObject({ status: 'complete', already_recorded: false, credited: { money: '2.00', score: 5 } });
        const again = await ok(server.api<Row>('survey/outcome', { body: { outcome: 'success', query: request.query }, userToken: member.token }));
        expect(again).toMatchObject({ status: 'complete', already_recorded: true });
      }
      expect(await balanceOf(member.id)).toEqual({ money: 200, score: 5 });
      expect(await ledgerSum(member.id)).toBe(200);
    });
  });

  async function newMember(): Promise<{ id: number; token: string }> {
    const username = `pw${++counter}${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD } }));
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    return login.data.userInfo;
  }

  describe.each(['offerwall', 'cpx', 'ayet', 'bitlabs', 'theoremreach', 'tapresearch', 'pollfish', 'dynata'])('the %s wall', (preset) => {
    it('credits the amount its signed callback carries once, and takes it back once on its reversal', async () => {
      const provider = await addProvider({ preset, wall_url: 'https://wall.example.com/?uid={member}' });
      const member = await newMember();
      const opened = await ok(server.api<{ url: string }>('survey/wall', { query: { provider: provider.code }, userToken: member.token }));
      const memberId = new URL(opened.url).searchParams.get('uid') as string;
      expect(memberId).not.toBe(String(member.id));
      const rule = JSON.parse(String(provider.reversal)) as { by: string; param?: string; value?: string | string[] };
      const transaction = `tx${++counter}`;
      const amount = provider.amount_in === 'major' ? '1.25' : '125';
      const credit: [string, string][] = [[String(provider.member_param), memberId], [String(provider.transaction_param), transaction], [String(provider.amount_param), amount]];
      if (rule.param !== provider.status_param) credit.push([String(provider.status_param), codeFor(provider, 'complete')]);
      const path = `/api/survey/callback/${String(provider.code)}`;
      const unit = provider.wall_credit === 'score' ? 'score' : 'money';
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await send(signed(provider, path, credit));
        expect(answer.status).toBe(Number(provider.answer_status));
        if (provider.answer_body !== '') expect(answer.body).toBe(provider.answer_body);
        else expect(JSON.parse(answer.body)).toMatchObject({ code: 1 });
        expect((await balanceOf(member.id))[unit], `attempt ${attempt}`).toBe(125);
      }
      if (rule.by === 'none') return;
      const reversal = credit.filter(([name]) => name !== rule.param);
      const value = Array.isArray(rule.value) ? rule.value[0] : String(rule.value);
      reversal.push([String(rule.param), value]);
      for (let attempt = 0; attempt < 2; attempt++) await send(signed(provider, path, reversal));
      expect(await balanceOf(member.id)).toEqual({ money: 0, score: 0 });
    });
  });

  it('holds a wall\'s credits for its hold period: a reversal meanwhile cancels one, the sweep makes the other available', async () => {
    const provider = await addProvider({ preset: 'offerwall', wall_url: 'https://wall.example.com/?uid={member}', hold_days: 3 });
    const member = await newMember();
    const opened = await ok(server.api<{ url: string }>('survey/wall', { query: { provider: provider.code }, userToken: member.token }));
    const memberId = new URL(opened.url).searchParams.get('uid') as string;
    const path = `/api/survey/callback/${String(provider.code)}`;
    const call = (transaction: string, status: string) => signed(provider, path, [['subId', memberId], ['transId', transaction], ['reward', '1.25'], ['status', status]]);
    const reversed = `h${++counter}a`;
    await send(call(reversed, '1'));
    await send(call(`h${++counter}b`, '1'));
    expect((await balanceOf(member.id)).money).toBe(0);
    const figures = await ok(server.api<{ pending: { money: string } }>('account/getUserData', { userToken: member.token }));
    expect(figures.pending.money).toBe('2.50');
    await send(call(reversed, '2'));
    expect(await ledgerSum(member.id)).toBe(0);
    const { releaseDueHolds } = await import('../../src/server/services/holds.js');
    expect(await releaseDueHolds(server.server.app, Math.floor(Date.now() / 1000) + 3 * 86_400 + 60)).toBe(1);
    expect((await balanceOf(member.id)).money).toBe(125);
    expect(await ledgerSum(member.id)).toBe(125);
  });

  it('reverses a complete on the provider\'s reversal callback (PureSpectrum oldStatus=21), once', async () => {
    const provider = await addProvider({ preset: 'purespectrum' });
    const member = await memberWithAttempt(provider.id);
    const path = `/api/survey/callback/${String(provider.code)}`;
    await send(signed(provider, path, [['supSid', member.rid], ['ps_rstatus', '21']]));
    expect((await balanceOf(member.id)).money).toBe(200);
    // PureSpectrum names the hash of its reconciliation postbacks ps_s_hash, one of the recipe's signature aliases.
    const reversal = signed(provider, path, [['ps_rstatus', '33'], ['oldStatus', '21'], ['supSid', member.rid]], SECRET, 'ps_s_hash');
    expect(reversal.query).toMatch(/&ps_s_hash=[0-9a-f]{40}$/);
    for (let attempt = 0; attempt < 2; attempt++) expect((await send(reversal)).status).toBe(200);
    const participation = (await dynamicDb(db()).selectFrom('survey_participation').selectAll().where('rid', '=', member.rid).executeTakeFirstOrThrow()) as Row;
    expect(participation.status).toBe('reversed');
    expect(await balanceOf(member.id)).toEqual({ money: 0, score: 0 });
    expect(await ledgerSum(member.id)).toBe(0);
  });

  it('credits a Dynata REX complete once through its redirect signed by the HMAC chain, and refuses one past its expiration or without its access key', async () => {
    const provider = await addProvider({ preset: 'dynata_rex' });
    expect(JSON.parse(String(provider.signature))).toMatchObject({ text: 'canonical_query', key: 'hmac_chain', expiry: { unit: 'rfc3339', kind: 'deadline' } });
    const rfc3339 = (seconds: number) => new Date(seconds * 1000).toISOString();
    const now = Math.floor(Date.now() / 1000);
    const pairs = (rid: string, expiration: string): [string, string][] => [['rid', rid], ['disposition', '1'], ['status', '0'], ['expiration', expiration], ['access_key', 'REXACCESSKEY0001']];
    const member = await memberWithAttempt(provider.id);
    const request = signed(provider, '/success', pairs(member.rid, rfc3339(now + 300)));
    expect(request.query).toMatch(/^rid=.*&expiration=\d{4}-\d{2}-\d{2}T\d{2}%3A\d{2}%3A\d{2}\.\d{3}Z&access_key=REXACCESSKEY0001&signature=[0-9a-f]{64}$/);
    const first = await ok(server.api<Row>('survey/outcome', { body: { outcome: 'success', query: request.query }, userToken: member.token }));
    expect(first).toMatchObject({ status: 'complete', already_recorded: false, credited: { money: '2.00', score: 5 } });
    const again = await ok(server.api<Row>('survey/outcome', { body: { outcome: 'success', query: request.query }, userToken: member.token }));
    expect(again).toMatchObject({ status: 'complete', already_recorded: true });
    expect(await balanceOf(member.id)).toEqual({ money: 200, score: 5 });
    expect(await ledgerSum(member.id)).toBe(200);

    const late = await memberWithAttempt(provider.id);
    const expired = signed(provider, '/success', pairs(late.rid, rfc3339(now - 1)));
    const withoutKey = { ...request, query: signed(provider, '/success', pairs(late.rid, rfc3339(now + 300))).query.replace('&access_key=REXACCESSKEY0001', '') };
    for (const refused of [expired, withoutKey]) {
      const answer = await server.api<Row>('survey/outcome', { body: { outcome: 'success', query: refused.query }, userToken: late.token });
      expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg: 'The signature of this survey return is invalid' });
    }
    expect(await securityEvents(provider)).toEqual(['signature_expired', 'signature_missing']);
    expect(await balanceOf(late.id)).toEqual({ money: 0, score: 0 });
  });

  it('credits a Toluna completion notification once: a JSON body signed in its EncryptedValue field, its survey, wave and member the transaction', async () => {
    const provider = await addProvider({ preset: 'toluna', wall_url: 'https://wall.example.com/?uid={member}' });
    expect(provider).toMatchObject({ kind: 'wall', sig_param: 'EncryptedValue', member_param: 'UniqueCode', transaction_param: 'SurveyId+WaveId+UniqueCode' });
    const member = await newMember();
    const opened = await ok(server.api<{ url: string }>('survey/wall', { query: { provider: provider.code }, userToken: member.token }));
    const memberId = new URL(opened.url).searchParams.get('uid') as string;
    const recipe = JSON.parse(String(provider.signature)) as SignatureRecipe;
    const path = `/api/survey/callback/${String(provider.code)}`;
    const notification = (surveyId: number, revenue: number) => {
      const body = JSON.stringify({ UniqueCode: memberId, SurveyId: surveyId, SurveyRef: `${surveyId}-US`, Revenue: revenue, DateTime: '2026-01-01 00:00:00', WaveId: 100 });
      return signRequest(recipe, SECRET, 'EncryptedValue', { method: 'POST', origin: origin(), path, query: 'Reason=Complete', headers: { 'content-type': 'application/json' }, body, contentType: 'application/json' });
    };
    const post = async (request: SignedRequestInput) => {
      const response = await server.raw(`${request.path}?${request.query}`, { method: 'POST', headers: { 'think-lang': 'en', 'content-type': 'application/json' }, body: request.body });
      return { status: response.status, body: await response.text() };
    };
    const first = notification(123, 125);
    expect(JSON.parse(first.body)).toMatchObject({ EncryptedValue: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // Sent again when the member reloads the end page: answered alike, credited once.
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await post(first);
      expect(answer.status).toBe(Number(provider.answer_status));
      expect(JSON.parse(answer.body)).toMatchObject({ code: 1 });
      expect((await balanceOf(member.id)).money, `attempt ${attempt}`).toBe(125);
    }
    // Another survey is another transaction; a notification for another member under this one's signature is refused.
    await post(notification(124, 50));
    expect((await balanceOf(member.id)).money).toBe(175);
    const forged = { ...first, body: first.body.replace('"SurveyId":123', '"SurveyId":125') };
    expect(JSON.parse((await post(forged)).body)).toMatchObject({ code: 0 });
    expect(await securityEvents(provider)).toEqual(['signature_wrong']);
    expect((await balanceOf(member.id)).money).toBe(175);
    expect(await ledgerSum(member.id)).toBe(175);
  });

  it('shows the member why the provider reversed a complete, in their language: the reason its status maps to and the provider\'s own words', async () => {
    const provider = await addProvider({ preset: 'purespectrum', reason_param: 'reason' });
    const path = `/api/survey/callback/${String(provider.code)}`;
    const quality = await memberWithAttempt(provider.id);
    await send(signed(provider, path, [['supSid', quality.rid], ['ps_rstatus', '21']]));
    await send(signed(provider, path, [['ps_rstatus', '15'], ['oldStatus', '21'], ['supSid', quality.rid], ['reason', 'Speeder (LOI 1 min)']]));
    const plain = await memberWithAttempt(provider.id);
    await send(signed(provider, path, [['supSid', plain.rid], ['ps_rstatus', '21']]));
    await send(signed(provider, path, [['ps_rstatus', '33'], ['oldStatus', '21'], ['supSid', plain.rid]]));
    const reasonOf = async (member: { token: string }, lang: 'en' | 'zh-cn') => (await ok(server.api<{ list: Row[] }>('survey/records', { userToken: member.token, lang }))).list[0].reason;
    const memoOf = async (member: { token: string }, lang: 'en' | 'zh-cn') => (await ok(server.api<{ list: Row[] }>('account/balance', { userToken: member.token, lang }))).list[0].memo;
    expect(await reasonOf(quality, 'en')).toBe('Reversed by the provider: the answers failed its quality checks (the provider says: Speeder (LOI 1 min))');
    expect(await reasonOf(quality, 'zh-cn')).toBe('渠道已撤销：答卷未通过渠道的质量检查（渠道说明：Speeder (LOI 1 min)）');
    expect(await reasonOf(plain, 'en')).toBe('Reversed by the provider');
    expect(await reasonOf(plain, 'zh-cn')).toBe('渠道已撤销');
    // the ledger note says the same, in the reader's language
    expect(await memoOf(quality, 'zh-cn')).toMatch(/^问卷奖励撤销：[^#].*（原因：渠道已撤销：答卷未通过渠道的质量检查（渠道说明：Speeder \(LOI 1 min\)））$/);
    expect(await memoOf(plain, 'en')).toMatch(/^Survey reward reversed: [^#].* \(reason: Reversed by the provider\)$/);
    // stored as our reason's key with the provider's words apart, never as a sentence in one language
    const events = await dynamicDb(db()).selectFrom('survey_participation_event as e').innerJoin('survey_participation as p', 'p.id', 'e.participation_id')
      .select('e.payload').where('p.rid', '=', quality.rid).where('e.source', '=', 'reconcile').execute();
    expect(JSON.parse(String((events[0] as Row).payload))).toMatchObject({ action: 'reverse', reason: JSON.stringify({ key: 'Reversed by the provider: the answers failed its quality checks', params: [] }), provider_reason: 'Speeder (LOI 1 min)' });
  });

  it('keeps the provider\'s transaction id of a complete, which a reconciliation file may then name', async () => {
    const provider = await addProvider({ preset: 'custom', transaction_param: 'tx' });
    const member = await memberWithAttempt(provider.id);
    await send(signed(provider, `/api/survey/callback/${String(provider.code)}`, [['rid', member.rid], ['status', 'complete'], ['tx', 'SUP-77']]));
    const participation = (await dynamicDb(db()).selectFrom('survey_participation').selectAll().where('rid', '=', member.rid).executeTakeFirstOrThrow()) as Row;
    expect({ status: participation.status, txid: participation.provider_txid }).toEqual({ status: 'complete', txid: 'SUP-77' });
  });

  it('a provider that credits on its callback only shows the outcome page and records nothing from it', async () => {
    const provider = await addProvider({ preset: 'custom', credit_on: 'callback' });
    const member = await memberWithAttempt(provider.id);
    const request = signed(provider, '/success', [['rid', member.rid]]);
    const page = await ok(server.api<Row>('survey/outcome', { body: { outcome: 'success', query: request.query }, userToken: member.token }));
    expect(page).toMatchObject({ status: 'entered', already_recorded: false, credited: { money: '0.00', score: 0 }, reason: 'The provider confirms the result: it appears in your records once it arrives' });
    expect((await balanceOf(member.id)).money).toBe(0);
    await send(signed(provider, `/api/survey/callback/${String(provider.code)}`, [['rid', member.rid], ['status', 'complete']]));
    expect((await balanceOf(member.id)).money).toBe(200);
  });

  it('checks test traffic and answers it, recording nothing', async () => {
    const provider = await addProvider({ preset: 'custom', test_param: 'debug', test_value: 'true' });
    const member = await memberWithAttempt(provider.id);
    const answer = await send(signed(provider, `/api/survey/callback/${String(provider.code)}`, [['rid', member.rid], ['status', 'complete'], ['debug', 'true']]));
    expect(JSON.parse(answer.body)).toEqual({ code: 1, msg: 'Test callback: checked, nothing recorded' });
    const participation = (await dynamicDb(db()).selectFrom('survey_participation').selectAll().where('rid', '=', member.rid).executeTakeFirstOrThrow()) as Row;
    expect(participation.status).toBe('entered');
    expect((await balanceOf(member.id)).money).toBe(0);
  });

  it('refuses a request failing a check, changing nothing, and the security log names the check', async () => {
    const expiring = { text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: { in: 'query', name: 'ts', unit: 's', skewSeconds: 300 } };
    const provider = await addProvider({ preset: 'custom', signature: expiring, ip_allowlist: '127.0.0.1' });
    const member = await memberWithAttempt(provider.id);
    const path = `/api/survey/callback/${String(provider.code)}`;
    const now = Math.floor(Date.now() / 1000);
    const good: [string, string][] = [['rid', member.rid], ['status', 'complete'], ['ts', String(now)]];
    const unsigned = { ...signed(provider, path, good), query: `rid=${member.rid}&status=complete&ts=${now}` };
    const wrongKey = signed(provider, path, good, 'another-secret');
    const stale = signed(provider, path, [['rid', member.rid], ['status', 'complete'], ['ts', String(now - 3600)]]);
    for (const request of [unsigned, wrongKey, stale]) {
      const answer = await send(request);
      expect(JSON.parse(answer.body)).toEqual({ code: 0, msg: 'The signature of this survey return is invalid' });
    }
    await db().updateTable('survey_provider').set({ ip_allowlist: '203.0.113.7' }).where('id', '=', Number(provider.id)).execute();
    const outside = await send(signed(provider, path, good));
    expect(outside.status).toBe(403);
    const participation = (await dynamicDb(db()).selectFrom('survey_participation').selectAll().where('rid', '=', member.rid).executeTakeFirstOrThrow()) as Row;
    expect({ status: participation.status, flagged: Number(participation.flag_sig_invalid) }).toEqual({ status: 'entered', flagged: 1 });
    expect((await balanceOf(member.id)).money).toBe(0);
    const events = (await dynamicDb(db()).selectFrom('survey_security_event').select(['kind', 'channel']).where('provider_id', '=', Number(provider.id)).orderBy('id').execute()) as Row[];
    expect(events.map((event) => event.kind)).toEqual(['signature_missing', 'signature_wrong', 'signature_expired', 'address_refused']);
    const log = await ok(admin<{ list: Row[] }>('survey.SecurityEvent/index', { query: { search: [{ field: 'provider_id', val: provider.id, operator: '=' }] }, lang: 'zh-cn' }));
    expect(log.list.length).toBe(4);
  });

  it('converts a provider saved with an algorithm\'s name into the same recipe at start, and it still verifies', async () => {
    // A server of its own, whose database outlives its first life.
    const shared = { server, token };
    try {
      server = await startTestServer(kind, { keepDatabase: true });
      token = (await server.loginAdmin()).token;
      const provider = await addProvider({ preset: 'custom' });
      // An old provider's recipe was a bare name, text the typed column no longer describes: written through the run-time view.
      const providerTable: string = 'survey_provider';
      await dynamicDb(db()).updateTable(providerTable).set({ signature: 'md5_append' }).where('id', '=', provider.id).execute();
      const databaseUrl = server.databaseUrl;
      await server.close();
      server = await startTestServer(kind, { databaseUrl });
      token = (await server.loginAdmin()).token;
      const converted = await providerRow(provider.id);
      expect(JSON.parse(String(converted.signature))).toEqual(legacyRecipe('md5_append'));
      const member = await memberWithAttempt(provider.id);
      await send(signed(converted, `/api/survey/callback/${String(provider.code)}`, [['rid', member.rid], ['status', 'complete']]));
      expect((await balanceOf(member.id)).money).toBe(200);
    } finally {
      await server.close();
      ({ server, token } = shared);
    }
  });
});
