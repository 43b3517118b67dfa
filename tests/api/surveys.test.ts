import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { expireParticipations } from '../../src/server/services/survey/participations.js';
import { applyLedgerEntries } from '../../src/server/services/ledger.js';
import { refreshRankings } from '../../src/server/services/member-figures.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { adminHolding } from '../support/limited-admin.js';
import type { ReconcileAnswer } from '../../src/contract/reconcile.js';
import type { ErrorId } from '../../src/server/errors.js';

/**
 * The survey platform over HTTP on both databases: providers and surveys in the back office, a member
 * starting a survey, the provider sending the browser back (signed) or calling us, crediting through the
 * ledger exactly once, reconciliation, speeders, timeouts, quotas and caps under concurrency.
 */

type Row = Record<string, unknown>;
const SECRET = 'provider-secret-1';
const MEMBER_PASSWORD = 'Member_pass1';

function hmac(text: string, secret = SECRET): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

describe.each(DATABASES)('surveys on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let groupId: number;
  let counter = 0;

  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(response: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
    const answer = await response;
    expect({ code: answer.code, msg: answer.msg }).toMatchObject({ code: 1 });
    return answer.data;
  }

  async function row(table: string, column: string, value: unknown): Promise<Row> {
    return (await dynamicDb(db()).selectFrom(table).selectAll().where(column, '=', value).executeTakeFirstOrThrow()) as Row;
  }

  async function count(table: string, column?: string, value?: unknown): Promise<number> {
    let query = dynamicDb(db()).selectFrom(table).select((eb) => eb.fn.countAll().as('total'));
    if (column) query = query.where(column, '=', value);
    return Number(((await query.executeTakeFirstOrThrow()) as { total: number | string }).total);
  }

  async function createProvider(values: Row = {}): Promise<Row> {
    const code = `p${++counter}`;
    await ok(admin('survey.Provider/add', { body: { code, name: `Provider ${code}`, secret: SECRET, ...values } }));
    return row('survey_provider', 'code', code);
  }

  async function createSurvey(providerId: unknown, values: Row = {}): Promise<number> {
    const title = typeof values.title === 'string' ? values.title : `Survey ${++counter}`;
    await ok(admin('survey.Survey/add', {
      body: { provider_id: providerId, title, entry_url: 'https://panel.example/s/42?r={rid}', reward_money: '1.50', reward_score: 10, loi_minutes: 9, status: 'active', ...values },
    }));
    return Number((await row('survey', 'title', title)).id);
  }

  async function createMember(): Promise<{ id: number; token: string }> {
    const username = `m${++counter}x${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: groupId, password: MEMBER_PASSWORD } }));
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    expect(login.code).toBe(1);
    return { id: login.data.userInfo.id, token: login.data.userInfo.token };
  }

  async function start(surveyId: number, member: { token: string }) {
    return server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: member.token });
  }

  async function startOk(surveyId: number, member: { token: string }): Promise<string> {
    const answer = await ok(start(surveyId, member));
    return new URL(answer.url).searchParams.get('r') as string;
  }

  /** The provider's redirect back to `/<page>?rid=…&sig=…`, as the outcome page reports it. */
  function signedQuery(page: string, rid: string, extra = '', secret = SECRET): string {
    const unsigned = `rid=${rid}${extra}`;
    return `${unsigned}&sig=${hmac(`/${page}?${unsigned}`, secret)}`;
  }

  /** A provider's call to the callback URL (answers in English, as the other calls of these tests). */
  async function providerCall(url: string, method: 'GET' | 'POST' = 'GET') {
    return server.raw(url, { method, headers: { 'think-lang': 'en' } });
  }

  async function returnTo(page: string, query: string, userToken?: string) {
    return server.api<Row>('survey/outcome', { body: { outcome: page, query }, userToken });
  }

  async function backdate(rid: string, seconds: number) {
    const current = await row('survey_participation', 'rid', rid);
    await db().updateTable('survey_participation').set({ enter_time: Number(current.enter_time) - seconds }).where('rid', '=', rid).execute();
  }

  async function balance(userId: number): Promise<{ money: number; score: number }> {
    const user = await row('user', 'id', userId);
    return { money: Number(user.money), score: Number(user.score) };
  }

  /** Every member's balance equals the sum of their ledger (docs/survey-domain.md#ledgers). */
  async function expectLedgersAddUp(userId: number) {
    const money = (await db().selectFrom('user_money_log').select((eb) => eb.fn.sum('money').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow()) as { sum: unknown };
    const score = (await db().selectFrom('user_score_log').select((eb) => eb.fn.sum('score').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow()) as { sum: unknown };
    const current = await balance(userId);
    expect(current.money).toBe(Number(money.sum ?? 0));
    expect(current.score).toBe(Number(score.sum ?? 0));
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
    groupId = Number((await row('user_group', 'id', 1)).id);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('back office', () => {
    it('adds the survey menu with its permission nodes', async () => {
      const directory = await row('admin_rule', 'name', 'survey');
      expect(directory).toMatchObject({ type: 'menu_dir', title: '问卷管理' });
      for (const name of ['survey/provider', 'survey/survey', 'survey/participation']) {
        expect(Number((await row('admin_rule', 'name', name)).pid)).toBe(Number(directory.id));
      }
      expect(await count('admin_rule', 'name', 'survey/participation/reconcile')).toBe(1);
      expect(await count('admin_rule', 'name', 'survey/participation/del')).toBe(0);
    });

    it('seals the provider secret and never sends it back', async () => {
      const provider = await createProvider();
      expect(String(provider.secret)).toMatch(/^v1:/);
      expect(String(provider.secret)).not.toContain(SECRET);
      const list = await ok(admin<{ list: Row[] }>('survey.Provider/index', { query: { quickSearch: provider.code } }));
      expect(list.list[0]).not.toHaveProperty('secret');
      const edit = await ok(admin<{ row: Row }>('survey.Provider/edit', { query: { id: provider.id } }));
      expect(edit.row).not.toHaveProperty('secret');
      // Saving without a secret keeps the stored one.
      await ok(admin('survey.Provider/edit', { body: { id: provider.id, name: 'Renamed', secret: '' } }));
      expect((await row('survey_provider', 'id', provider.id)).secret).toBe(provider.secret);
    });

    it('refuses a provider with a bad exit map, allowlist or a missing secret, writing nothing', async () => {
      const before = await count('survey_provider');
      const cases: [Row, string, string, ErrorId][] = [
        [{ exit_map: { '10': 'paid' } }, 'exit_map', 'Exit code "10" must map to complete, terminate, overquota or security', 'exitMapInvalid'],
        [{ ip_allowlist: '10.0.0.1\nnot-an-ip' }, 'ip_allowlist', '"not-an-ip" is not an IP address or range', 'invalidAllowlistEntry'],
        [{ secret: '' }, 'secret', 'A secret is required for this signature recipe', 'providerSecretRequired'],
      ];
      for (const [values, field, msg, errorId] of cases) {
        const answer = await admin('survey.Provider/add', { body: { code: `bad${++counter}`, name: 'Bad', secret: SECRET, ...values } });
        expect({ code: answer.code, msg: answer.msg, data: answer.data }).toEqual({ code: 0, msg, data: { field, errorId } });
      }
      const zh = await admin('survey.Provider/add', { body: { code: `bad${++counter}`, name: 'Bad', secret: '' }, lang: 'zh-cn' });
      expect(zh.msg).toBe('此签名方法需要填写密钥');
      expect(await count('survey_provider')).toBe(before);
    });

    it('checks the entry URL, the dates and the status moves of a survey', async () => {
      const provider = await createProvider();
      const base = { provider_id: provider.id, title: 'Checks', loi_minutes: 5 };
      const noRid = await admin('survey.Survey/add', { body: { ...base, entry_url: 'https://panel.example/s' } });
      expect({ code: noRid.code, msg: noRid.msg, data: noRid.data }).toEqual({ code: 0, msg: 'The entry URL must contain {rid}', data: { field: 'entry_url', errorId: 'entryUrlNeedsRid' } });
      const uid = await admin('survey.Survey/add', { body: { ...base, entry_url: 'https://panel.example/s?r={rid}&u={uid}' } });
      expect(uid.data).toEqual({ field: 'entry_url', errorId: 'entryUrlUidNotAllowed' });
      const dates = await admin('survey.Survey/add', { body: { ...base, entry_url: 'https://panel.example/s?r={rid}', start_time: 2000, end_time: 1000 } });
      expect(dates.data).toEqual({ field: 'end_time', errorId: 'surveyEndsBeforeStart' });
      expect(await count('survey', 'title', 'Checks')).toBe(0);

      const id = await createSurvey(provider.id, { status: 'draft' });
      const closed = await admin('survey.Survey/edit', { body: { id, status: 'closed' } });
      expect(closed.code).toBe(0);
      await ok(admin('survey.Survey/edit', { body: { id, status: 'active' } }));
      await ok(admin('survey.Survey/edit', { body: { id, status: 'paused' } }));
      expect((await row('survey', 'id', id)).status).toBe('paused');
    });

    it('refuses a required reference left empty (0, "", null or missing) on add and edit, on the field, writing nothing', async () => {
      const provider = await createProvider();
      const base = { title: 'No provider', entry_url: 'https://panel.example/s?r={rid}', loi_minutes: 5 };
      for (const body of [{ ...base, provider_id: 0 }, { ...base, provider_id: '0' }, { ...base, provider_id: '' }, { ...base, provider_id: null }, base]) {
        const answer = await admin('survey.Survey/add', { body });
        expect({ code: answer.code, msg: answer.msg, data: answer.data }, JSON.stringify(body)).toEqual({ code: 0, msg: 'Provider cannot be empty', data: { field: 'provider_id', errorId: 'validation' } });
      }
      const zh = await admin('survey.Survey/add', { body: { ...base, provider_id: 0 }, lang: 'zh-cn' });
      expect(zh.msg).toBe('渠道不能为空');
      expect(await count('survey', 'title', 'No provider')).toBe(0);

      const id = await createSurvey(provider.id);
      for (const provider_id of [0, '', null]) {
        const answer = await admin('survey.Survey/edit', { body: { id, provider_id } });
        expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg: 'Provider cannot be empty' });
      }
      expect(Number((await row('survey', 'id', id)).provider_id)).toBe(Number(provider.id));
      // One that names no row is refused the same way.
      const missing = await admin('survey.Survey/add', { body: { ...base, provider_id: 99999999 } });
      expect({ code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ code: 0, msg: 'The chosen Provider does not exist', data: { field: 'provider_id', errorId: 'referenceMissing' } });
      expect((await admin('survey.Survey/edit', { body: { id, provider_id: 99999999 }, lang: 'zh-cn' })).msg).toBe('所选的渠道不存在');
      expect(await count('survey', 'title', 'No provider')).toBe(0);
      expect(Number((await row('survey', 'id', id)).provider_id)).toBe(Number(provider.id));

      // The same rule on every schema's required references (a member's group, a ledger entry's member …).
      const member = await createMember();
      for (const [group_id, errorId] of [[0, 'validation'], [99999999, 'referenceMissing']] as const) {
        const group = await admin('user.User/edit', { body: { id: member.id, group_id } });
        expect({ code: group.code, data: group.data }).toEqual({ code: 0, data: { field: 'group_id', errorId } });
      }
      const ledger = await admin('user.MoneyLog/add', { body: { user_id: 0, money: '1.00', memo: 'gift' } });
      expect({ code: ledger.code, data: ledger.data }).toEqual({ code: 0, data: { field: 'user_id', errorId: 'validation' } });
      const admins = await admin('auth.Admin/add', { body: { username: `a${++counter}x`, nickname: 'A', password: 'Admin_pass9', group_arr: [0] } });
      expect({ code: admins.code, data: admins.data }).toEqual({ code: 0, data: { field: 'group_arr', errorId: 'validation' } });
      expect(Number((await row('user', 'id', member.id)).group_id)).toBe(groupId);
      expect(await count('user_money_log', 'user_id', 0)).toBe(0);
    });

    it('keeps participation records read-only outside reconciliation', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id);
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      const id = (await row('survey_participation', 'rid', rid)).id;
      for (const [path, request] of [
        ['survey.Participation/edit', { body: { id, status: 'complete' } }],
        ['survey.Participation/add', { body: { rid: 'x' } }],
        ['survey.Participation/del', { method: 'DELETE', query: { ids: [id] } }],
      ] as [string, ApiRequest][]) {
        const answer = await admin(path, request);
        expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg: 'Participation records change only through reconciliation' });
      }
      expect((await row('survey_participation', 'rid', rid)).status).toBe('entered');
      const details = await ok(admin<{ row: Row }>('survey.Participation/edit', { query: { id } }));
      expect(details.row.events).toMatchObject([{ from_status: '', to_status: 'entered', source: 'start' }]);
    });
  });

  describe('a member takes a survey', () => {
    it('lists only surveys the member may take, and starts one with a fresh rid in the entry URL', async () => {
      const provider = await createProvider();
      const open = await createSurvey(provider.id, { entry_url: 'https://panel.example/s?r={rid}&u={uid}', send_uid: true });
      const draft = await createSurvey(provider.id, { status: 'draft' });
      const future = await createSurvey(provider.id, { start_time: Math.floor(Date.now() / 1000) + 3600 });
      const ended = await createSurvey(provider.id, { end_time: Math.floor(Date.now() / 1000) - 60 });
      const otherGroup = await createSurvey(provider.id, { visible_groups: [groupId + 1000] });
      const member = await createMember();

      const tasks = await ok(server.api<{ list: Row[] }>('survey/tasks', { userToken: member.token }));
      const ids = tasks.list.map((task) => task.id);
      expect(ids).toContain(open);
      for (const hidden of [draft, future, ended, otherGroup]) expect(ids).not.toContain(hidden);
      expect(tasks.list.find((task) => task.id === open)).toMatchObject({ reward_money: '1.50', reward_score: 10, loi_minutes: 9 });

      const started = await ok(start(open, member));
      const url = new URL(started.url);
      expect(url.origin + url.pathname).toBe('https://panel.example/s');
      expect(url.searchParams.get('r')).toMatch(/^[0-9a-f]{32}$/);
      expect(url.searchParams.get('u')).toBe(String(member.id));
      const participation = await row('survey_participation', 'rid', url.searchParams.get('r'));
      expect(participation).toMatchObject({ status: 'entered', user_id: member.id });
      expect(Number((await row('survey', 'id', open)).starts)).toBe(1);

      const after = await ok(server.api<{ list: Row[] }>('survey/tasks', { userToken: member.token }));
      expect(after.list.map((task) => task.id)).not.toContain(open);
    });

    it('opens a survey limited to teams or groups to their members only', async () => {
      const provider = await createProvider();
      await ok(admin('team.Team/add', { body: { name: `Team ${++counter}` } }));
      const team = await row('team', 'name', `Team ${counter}`);
      const forTeam = await createSurvey(provider.id, { visible_teams: [team.id] });
      const forTeamOrGroup = await createSurvey(provider.id, { visible_teams: [team.id], visible_groups: [groupId] });
      const inTeam = await createMember();
      await ok(admin('user.User/edit', { body: { id: inTeam.id, teamid: team.id } }));
      const outside = await createMember();

      const seen = async (member: { token: string }) => (await ok(server.api<{ list: Row[] }>('survey/tasks', { userToken: member.token }))).list.map((task) => task.id);
      expect(await seen(inTeam)).toEqual(expect.arrayContaining([forTeam, forTeamOrGroup]));
      expect(await seen(outside)).toContain(forTeamOrGroup);
      expect(await seen(outside)).not.toContain(forTeam);
      const refused = await start(forTeam, outside);
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'This survey is not open to you' });
      await startOk(forTeam, inTeam);
    });

    it('refuses starts with a clear message and writes nothing', async () => {
      const provider = await createProvider();
      const member = await createMember();
      const cases: [number | string, string][] = [
        [await createSurvey(provider.id, { status: 'draft' }), 'This survey is not available'],
        [await createSurvey(provider.id, { start_time: Math.floor(Date.now() / 1000) + 3600 }), 'This survey has not started yet'],
        [await createSurvey(provider.id, { end_time: Math.floor(Date.now() / 1000) - 60 }), 'This survey has ended'],
        [await createSurvey(provider.id, { visible_groups: [groupId + 1000] }), 'This survey is not open to you'],
        [99999999, 'This survey is not available'],
        ['1; drop table survey', 'This survey is not available'],
      ];
      const before = await count('survey_participation');
      for (const [id, msg] of cases) {
        const answer = await start(id as number, member);
        expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg });
      }
      const taken = await createSurvey(provider.id);
      await startOk(taken, member);
      const again = await start(taken, member);
      expect({ code: again.code, msg: again.msg }).toEqual({ code: 0, msg: 'You have already taken this survey' });
      const zh = await server.api('survey/start', { body: { id: taken }, userToken: member.token, lang: 'zh-cn' });
      expect(zh.msg).toBe('您已经参与过这个问卷');
      expect(await count('survey_participation')).toBe(before + 1);
      const anonymous = await server.api('survey/start', { body: { id: taken } });
      expect(anonymous.code).toBe(303);
    });

    it('credits a signed complete once, shows the new balance, and replays change nothing', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      await backdate(rid, 600);
      const query = signedQuery('success', rid);

      const first = await ok(returnTo('success', query, member.token));
      expect(first).toMatchObject({
        status: 'complete', already_recorded: false, credit_state: 'credited', credited: { money: '1.50', score: 10 },
        balance: { money: '1.50', score: 10 }, reason: '',
      });
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });

      // The same return again, another page, and the callback: the first final status stands.
      const replay = await ok(returnTo('success', query));
      expect(replay).toMatchObject({ status: 'complete', already_recorded: true, reason: 'This survey return was already recorded' });
      expect(replay).not.toHaveProperty('balance');
      await ok(returnTo('terminate', signedQuery('terminate', rid)));
      const callback = await providerCall(`/api/survey/callback/${provider.code}?${signedQueryFor(`/api/survey/callback/${provider.code}`, rid, 'terminate')}`);
      expect(await callback.json()).toEqual({ code: 1, msg: 'This survey return was already recorded' });

      const participation = await row('survey_participation', 'rid', rid);
      expect(participation).toMatchObject({ status: 'complete', source: 'redirect', credit_state: 'credited' });
      expect(Number(participation.loi_seconds)).toBeGreaterThanOrEqual(600);
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
      expect(await count('user_money_log', 'user_id', member.id)).toBe(1);
      const survey = await row('survey', 'id', surveyId);
      expect({ completes: Number(survey.completes), credited: Number(survey.credited_money) }).toEqual({ completes: 1, credited: 150 });
      const list = await ok(admin<{ list: Row[] }>('survey.Survey/index', { query: { search: [{ field: 'id', val: surveyId, operator: '=' }] } }));
      expect(list.list[0]).toMatchObject({ starts: 1, completes: 1, conversion: '100.0%', credited_money: '1.50' });
      await expectLedgersAddUp(member.id);

      const records = await ok(server.api<{ list: Row[]; total: number; tags: Record<string, Record<string, unknown>> }>('survey/records', { userToken: member.token }));
      expect(records.total).toBe(1);
      expect(records.list[0]).toMatchObject({ survey_id: surveyId, status: 'complete', credited_money: '1.50', credited_score: 10 });
      // The member's page labels and colours each value as the participation schema declares it, in the member's language.
      expect(records.tags.status).toMatchObject({ complete: { label: 'Complete', color: 'success' }, terminate: { label: 'Screened out', color: 'default' }, security: { label: 'Security terminated', color: 'danger' } });
      expect(records.tags.credit_state).toMatchObject({ held: { label: 'Held for review', color: 'warning' } });
      const chinese = await ok(server.api<{ tags: Record<string, Record<string, unknown>> }>('survey/records', { userToken: member.token, lang: 'zh-cn' }));
      expect(chinese.tags.status.overquota).toEqual({ label: '配额已满', color: 'default' });
    });

    it('a forged return (unsigned, wrongly signed, tampered) changes no attempt: it is flagged and logged, and the genuine complete is still credited', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const forgeries = [(rid: string) => `rid=${rid}`, (rid: string) => signedQuery('security', rid, '', 'wrong-secret'), (rid: string) => `${signedQuery('terminate', rid)}&extra=1`];
      // What the security log says failed: the unsigned one has no signature, the others a wrong one.
      const checks = ['missing', 'wrong', 'wrong'];
      for (const [index, forge] of forgeries.entries()) {
        const check = checks[index];
        const member = await createMember();
        const rid = await startOk(surveyId, member);
        await backdate(rid, 600);
        const forged = await returnTo('security', forge(rid));
        expect({ code: forged.code, msg: forged.msg }).toEqual({ code: 0, msg: 'The signature of this survey return is invalid' });
        const zh = await server.api('survey/outcome', { body: { outcome: 'terminate', query: forge(rid) }, lang: 'zh-cn' });
        expect(zh.msg).toBe('问卷回传的签名无效，未发放奖励');
        const flagged = await row('survey_participation', 'rid', rid);
        expect({ status: flagged.status, credit: flagged.credit_state, flag: Number(flagged.flag_sig_invalid) }).toEqual({ status: 'entered', credit: 'none', flag: 1 });
        expect(Number((await row('survey', 'id', surveyId)).securities)).toBe(0);

        // In the attempt's history and in the security log, with the address it came from.
        const details = await ok(admin<{ row: Row }>('survey.Participation/edit', { query: { id: flagged.id } }));
        expect((details.row.events as Row[]).slice(1)).toMatchObject([
          { from_status: 'entered', to_status: 'entered', source: 'redirect', ip: '127.0.0.1', payload: { signature: 'invalid', check, reported: 'security' } },
          { from_status: 'entered', to_status: 'entered', source: 'redirect', ip: '127.0.0.1', payload: { signature: 'invalid', check, reported: 'terminate' } },
        ]);
        const log = await ok(admin<{ list: Row[]; total: number }>('survey.SecurityEvent/index', { query: { search: [{ field: 'participation_id', val: flagged.id, operator: '=' }] } }));
        expect(log.total).toBe(2);
        expect(log.list[1]).toMatchObject({ kind: `signature_${check}`, channel: 'redirect', reported: 'security', ip: '127.0.0.1', survey_id: surveyId, provider_id: Number(provider.id), participation: { rid } });

        // The provider's genuine return still ends the attempt and credits it.
        const genuine = await ok(returnTo('success', signedQuery('success', rid), member.token));
        expect(genuine).toMatchObject({ status: 'complete', already_recorded: false, credited: { money: '1.50', score: 10 } });
        expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
        expect(Number((await row('survey_participation', 'rid', rid)).flag_sig_invalid)).toBe(1);
      }
      // The security log is the system's record: nobody edits or deletes it.
      const id = (await db().selectFrom('survey_security_event').select('id').executeTakeFirstOrThrow()).id;
      const edit = await admin('survey.SecurityEvent/del', { method: 'DELETE', query: { ids: [id] } });
      expect({ code: edit.code, msg: edit.msg }).toEqual({ code: 0, msg: 'The security log is written by the system and cannot be changed' });
    });

    it('a correctly signed security exit closes the attempt as security, with nothing credited', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      const answer = await ok(returnTo('security', signedQuery('security', rid), member.token));
      expect(answer).toMatchObject({ status: 'security', credit_state: 'none', credited: { money: '0.00', score: 0 } });
      expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'security', source: 'redirect' });
      expect(await ok(returnTo('success', signedQuery('success', rid)))).toMatchObject({ status: 'security', already_recorded: true });
      expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
    });

    it('accepts other signature recipes and pays consolations for screen-outs', async () => {
      const recipe = { text: 'path_query', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null };
      const sha = await createProvider({ signature: { ...recipe, key: 'append' } });
      const md5 = await createProvider({ signature: { ...recipe, key: 'append', algorithm: 'md5' } });
      const none = await createProvider({ signature: { ...recipe, key: 'none' }, secret: '' });
      const cases: [Row, (text: string) => string, string, string][] = [
        [sha, (text) => createHash('sha256').update(text + SECRET).digest('hex'), 'terminate', 'terminate'],
        [md5, (text) => createHash('md5').update(text + SECRET).digest('hex'), 'overquota', 'overquota'],
      ];
      for (const [provider, digest, page, status] of cases) {
        const surveyId = await createSurvey(provider.id, { consolation_money: '0.20', consolation_score: 1 });
        const member = await createMember();
        const rid = await startOk(surveyId, member);
        const answer = await ok(returnTo(page, `rid=${rid}&sig=${digest(`/${page}?rid=${rid}`)}`, member.token));
        expect(answer).toMatchObject({ status, credit_state: 'credited', credited: { money: '0.20', score: 1 } });
        expect(await balance(member.id)).toEqual({ money: 20, score: 1 });
      }
      const surveyId = await createSurvey(none.id);
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      const answer = await ok(returnTo('terminate', `rid=${rid}`));
      expect(answer).toMatchObject({ status: 'terminate', credit_state: 'none', reason: 'You did not qualify for this survey' });
    });

    it('answers an unknown rid or outcome clearly and writes nothing', async () => {
      const events = await count('survey_participation_event');
      const unknown = await returnTo('success', 'rid=ffffffffffffffffffffffffffffffff&sig=00');
      expect({ code: unknown.code, msg: unknown.msg }).toEqual({ code: 0, msg: 'This survey link is unknown' });
      const zh = await server.api('survey/outcome', { body: { outcome: 'success', query: 'rid=nope' }, lang: 'zh-cn' });
      expect(zh.msg).toBe('无法识别的问卷链接');
      const page = await returnTo('paid', 'rid=x');
      expect({ code: page.code, msg: page.msg }).toEqual({ code: 0, msg: 'Unknown survey outcome' });
      expect(await count('survey_participation_event')).toBe(events);
    });

    it('holds a speeder for review when the survey says so, and credits it when not', async () => {
      const provider = await createProvider();
      const holding = await createSurvey(provider.id, { loi_minutes: 30, hold_speeders: true });
      const paying = await createSurvey(provider.id, { loi_minutes: 30, hold_speeders: false });
      const member = await createMember();
      const heldRid = await startOk(holding, member);
      const held = await ok(returnTo('success', signedQuery('success', heldRid), member.token));
      expect(held).toMatchObject({ status: 'complete', credit_state: 'held', credited: { money: '0.00', score: 0 } });
      expect(held.reason).toContain('held for review');
      expect(Number((await row('survey_participation', 'rid', heldRid)).flag_speeder)).toBe(1);
      const paidRid = await startOk(paying, member);
      await ok(returnTo('success', signedQuery('success', paidRid), member.token));
      expect(await row('survey_participation', 'rid', paidRid)).toMatchObject({ credit_state: 'credited' });
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
    });

    it('approves or rejects one held speeder as its row does (a dry run, then its plan), each with a message; only with the reconcile node', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 30, hold_speeders: true });
      const member = await createMember();
      const other = await createMember();
      const heldComplete = async (taker = member) => {
        const rid = await startOk(surveyId, taker);
        await ok(returnTo('success', signedQuery('success', rid), taker.token));
        expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'complete', credit_state: 'held' });
        return rid;
      };
      const decide = async (mode: 'approve' | 'reverse', rid: string, as = token) => {
        const request = { mode, survey_id: surveyId, rids: rid, reason: 'Reviewed by hand', dryRun: true };
        const plan = await admin<ReconcileAnswer>('survey.Participation/reconcile', { token: as, body: request, lang: 'en' });
        if (plan.code !== 1) return plan;
        expect(plan.data.rows).toMatchObject([{ rid, ok: true }]);
        return admin<ReconcileAnswer>('survey.Participation/reconcile', { token: as, body: { ...request, dryRun: false, plan: plan.data.plan }, lang: 'en' });
      };
      const before = await balance(member.id);

      // Without the node the request is refused with the standard message, and nothing changes.
      const approvedRid = await heldComplete();
      const reader = await adminHolding(server, token, ['survey/participation/index']);
      const refused = await decide('approve', approvedRid, reader);
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 401, msg: 'You have no permission to operate' });
      expect(await row('survey_participation', 'rid', approvedRid)).toMatchObject({ credit_state: 'held' });

      const approved = await decide('approve', approvedRid);
      expect({ code: approved.code, msg: approved.msg }).toEqual({ code: 1, msg: '1 of 1 records reconciled' });
      expect(await row('survey_participation', 'rid', approvedRid)).toMatchObject({ status: 'complete', credit_state: 'credited', source: 'reconcile' });
      expect(await balance(member.id)).toEqual({ money: before.money + 150, score: before.score + 10 });

      const rejectedRid = await heldComplete(other);
      const rejected = await decide('reverse', rejectedRid);
      expect({ code: rejected.code, msg: rejected.msg }).toEqual({ code: 1, msg: '1 of 1 records reconciled' });
      expect(await row('survey_participation', 'rid', rejectedRid)).toMatchObject({ status: 'reversed' });
      expect(await balance(other.id)).toEqual({ money: 0, score: 0 });
      // Deciding again is refused with the reason, not done twice.
      const again = await admin<ReconcileAnswer>('survey.Participation/reconcile', { body: { mode: 'approve', survey_id: surveyId, rids: rejectedRid, reason: 'Again', dryRun: true }, lang: 'en' });
      expect(again.data.rows[0]).toMatchObject({ ok: false });
      expect(again.data.rows[0].message).not.toBe('');
    });

    it('the dashboard counts a consolation in the money credited as its top surveys do, and shows each figure only with its list right', async () => {
      type Figures = { members?: number; activeSurveys?: number; period?: { completes: number; credited: string }; payoutsPending?: unknown; topSurveys?: Row[]; days?: unknown[]; walls?: unknown[] };
      const figures = async (as = token) => (await ok(admin<{ figures: Figures }>('Dashboard/index', { token: as }))).figures;
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1, consolation_money: '0.10' });
      const before = await figures();
      const completer = await createMember();
      const screened = await createMember();
      const completeRid = await startOk(surveyId, completer);
      await backdate(completeRid, 600);
      await ok(returnTo('success', signedQuery('success', completeRid), completer.token));
      await ok(returnTo('terminate', signedQuery('terminate', await startOk(surveyId, screened)), screened.token));
      const after = await figures();
      const cents = (text: unknown) => Math.round(Number(text) * 100);
      // 1.50 for the complete and 0.10 of consolation: both in the period's credited, as in the survey's own total.
      expect(cents(after.period?.credited) - cents(before.period?.credited)).toBe(160);
      expect((after.period?.completes ?? 0) - (before.period?.completes ?? 0)).toBe(1);
      expect(Number((await row('survey', 'id', surveyId)).credited_money)).toBe(160);

      // An administrator who may list surveys only sees the survey figures: no members, participations' series or payouts.
      const surveysOnly = await adminHolding(server, token, ['dashboard', 'dashboard/index', 'survey/survey/index']);
      const limited = await figures(surveysOnly);
      expect(Object.keys(limited).sort()).toEqual(['activeSurveys', 'topSurveys']);
      const withMembers = await adminHolding(server, token, ['dashboard', 'dashboard/index', 'user/user/index', 'survey/participation/index']);
      expect(Object.keys(await figures(withMembers)).sort()).toEqual(['days', 'members', 'period']);
      expect(Object.keys(after).sort()).toEqual(['activeSurveys', 'days', 'members', 'payoutsPending', 'period', 'topSurveys', 'walls']);
    });
  });

  function signedQueryFor(path: string, rid: string, status: string, secret = SECRET): string {
    const unsigned = `rid=${rid}&status=${status}`;
    return `${unsigned}&sig=${hmac(`${path}?${unsigned}`, secret)}`;
  }

  describe('server-to-server callback', () => {
    it('maps the provider exit code, credits once, and is idempotent', async () => {
      const provider = await createProvider({ exit_map: { '10': 'complete', '20': 'terminate' } });
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      await backdate(rid, 600);
      const path = `/api/survey/callback/${provider.code}`;
      const url = `${path}?${signedQueryFor(path, rid, '10')}`;
      const first = await providerCall(url);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ code: 1, msg: 'Recorded' });
      const again = await providerCall(url, 'POST');
      expect(await again.json()).toEqual({ code: 1, msg: 'This survey return was already recorded' });
      expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'complete', source: 'callback', credit_state: 'credited' });
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });

      const unknownStatus = await providerCall(`${path}?${signedQueryFor(path, rid, '99')}`);
      expect(await unknownStatus.json()).toEqual({ code: 0, msg: 'Unknown survey status "99"' });
      const unknownProvider = await providerCall('/api/survey/callback/nobody?rid=x');
      expect(unknownProvider.status).toBe(404);
      expect(await unknownProvider.json()).toEqual({ code: 0, msg: 'Unknown survey provider' });
    });

    it('a forged callback changes no attempt: logged with its address, and the signed complete is credited after it', async () => {
      const provider = await createProvider({ exit_map: { '10': 'complete', '30': 'security' } });
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      await backdate(rid, 600);
      const path = `/api/survey/callback/${provider.code}`;
      for (const query of [`rid=${rid}&status=30`, signedQueryFor(path, rid, '30', 'wrong-secret'), `rid=${rid}&status=nonsense&sig=00`]) {
        const forged = await providerCall(`${path}?${query}`);
        expect(await forged.json()).toEqual({ code: 0, msg: 'The signature of this survey return is invalid' });
      }
      expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'entered', credit_state: 'none' });
      const participation = await row('survey_participation', 'rid', rid);
      const log = await ok(admin<{ list: Row[]; total: number }>('survey.SecurityEvent/index', { query: { search: [{ field: 'participation_id', val: participation.id, operator: '=' }] } }));
      expect(log.list.map((entry) => [entry.channel, entry.reported, entry.ip])).toEqual([['callback', '', '127.0.0.1'], ['callback', 'security', '127.0.0.1'], ['callback', 'security', '127.0.0.1']]);

      expect(await (await providerCall(`${path}?${signedQueryFor(path, rid, '10')}`)).json()).toEqual({ code: 1, msg: 'Recorded' });
      expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'complete', credit_state: 'credited' });
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
    });

    it('refuses callers outside the allowlist and writes nothing', async () => {
      const provider = await createProvider({ ip_allowlist: '10.9.8.7\n192.168.0.0/16' });
      const surveyId = await createSurvey(provider.id);
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      const path = `/api/survey/callback/${provider.code}`;
      const refused = await providerCall(`${path}?${signedQueryFor(path, rid, 'complete')}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ code: 0, msg: 'Calls from this address are not allowed' });
      expect((await row('survey_participation', 'rid', rid)).status).toBe('entered');

      await ok(admin('survey.Provider/edit', { body: { id: provider.id, ip_allowlist: '127.0.0.0/8' } }));
      const allowed = await providerCall(`${path}?${signedQueryFor(path, rid, 'complete')}`);
      expect(await allowed.json()).toEqual({ code: 1, msg: 'Recorded' });
    });
  });

  describe('reconciliation', () => {
    it('previews, then reverses a complete (debiting the reward) and accepts a terminate (crediting it)', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1, consolation_money: '0.10' });
      const member = await createMember();
      const other = await createMember();
      const completeRid = await startOk(surveyId, member);
      await backdate(completeRid, 600);
      await ok(returnTo('success', signedQuery('success', completeRid)));
      const terminateRid = await startOk(surveyId, other);
      await ok(returnTo('terminate', signedQuery('terminate', terminateRid)));
      expect(await balance(other.id)).toEqual({ money: 10, score: 0 });

      const preview = await ok(admin<Row>('survey.Participation/reconcile', { body: { action: 'reverse', rids: `${completeRid}\n${terminateRid}\nnope`, reason: 'Client rejected', dryRun: true } }));
      expect(preview).toMatchObject({ dryRun: true, applied: 1, refused: 2 });
      expect((preview.rows as Row[]).map((item) => [item.rid, item.ok, item.to])).toEqual([[completeRid, true, 'reversed'], [terminateRid, false, ''], ['nope', false, '']]);
      expect((preview.rows as Row[])[2].message).toBe('No participation has this RID or provider transaction id');
      expect((await row('survey_participation', 'rid', completeRid)).status).toBe('complete');

      const noReason = await admin('survey.Participation/reconcile', { body: { action: 'reverse', rids: [completeRid], reason: ' ' } });
      expect({ code: noReason.code, msg: noReason.msg }).toEqual({ code: 0, msg: 'Please give a reason for the reconciliation' });

      const reversed = await admin<Row>('survey.Participation/reconcile', { body: { action: 'reverse', rids: [completeRid], reason: 'Client rejected' } });
      expect({ code: reversed.code, msg: reversed.msg }).toEqual({ code: 1, msg: '1 of 1 records reconciled' });
      expect(await row('survey_participation', 'rid', completeRid)).toMatchObject({ status: 'reversed', credit_state: 'reversed', source: 'reconcile' });
      expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
      const debit = (await db().selectFrom('user_money_log').selectAll().where('user_id', '=', member.id).orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
      expect({ money: Number(debit.money), before: Number(debit.before), after: Number(debit.after) }).toEqual({ money: -150, before: 150, after: 0 });

      await ok(admin('survey.Participation/reconcile', { body: { action: 'approve', rids: [terminateRid], reason: 'Client accepted' } }));
      expect(await row('survey_participation', 'rid', terminateRid)).toMatchObject({ status: 'complete', credit_state: 'credited' });
      // The consolation already paid is topped up to the reward, not added to it.
      expect(await balance(other.id)).toEqual({ money: 150, score: 10 });
      const survey = await row('survey', 'id', surveyId);
      expect({ completes: Number(survey.completes), terminates: Number(survey.terminates), credited: Number(survey.credited_money) }).toEqual({ completes: 1, terminates: 0, credited: 150 });

      // Nothing else may change a final status: a reversed record stays reversed.
      const again = await ok(admin<Row>('survey.Participation/reconcile', { body: { action: 'approve', rids: [completeRid], reason: 'Try again' } }));
      expect(again).toMatchObject({ applied: 0, refused: 1 });
      const details = await ok(admin<{ row: Row }>('survey.Participation/edit', { query: { id: (await row('survey_participation', 'rid', completeRid)).id } }));
      expect((details.row.events as Row[]).map((event) => [event.from_status, event.to_status, event.source])).toEqual([
        ['', 'entered', 'start'], ['entered', 'complete', 'redirect'], ['complete', 'reversed', 'reconcile'],
      ]);
      // The list rows carry the same history, naming the administrator who reconciled.
      const listed = await ok(admin<{ list: Row[] }>('survey.Participation/index', { query: { page: 1, limit: 50 } }));
      const listedEvents = (listed.list.find((item) => item.rid === completeRid)?.events ?? []) as Row[];
      expect(listedEvents.map((event) => [event.to_status, event.source, event.admin_name])).toEqual([
        ['entered', 'start', ''], ['complete', 'redirect', ''], ['reversed', 'reconcile', 'Admin'],
      ]);
      expect(listedEvents[2].payload).toMatchObject({ action: 'reverse' });
      await expectLedgersAddUp(member.id);
      await expectLedgersAddUp(other.id);
    });
  });

  describe('bulk reconciliation', () => {
    interface Answer {
      dryRun: boolean;
      applied: number;
      refused: number;
      counts: Record<string, number>;
      refusals: { message: string; count: number }[];
      members: { user_id: number; username: string; money_cents: number; score: number }[];
      totals: { money_cents: number; score: number };
      listed: { ids: number; column: string };
      rows: Row[];
      plan: string;
    }
    const reconcile = (body: Row, lang?: 'en' | 'zh-cn') => admin<Answer>('survey.Participation/reconcile', { body: { reason: 'Provider file June', ...body }, lang });

    /** What a member's ledgers add up to now: money (cents) and points. */
    async function ledgerSums(userId: number): Promise<{ money: number; score: number }> {
      const money = (await db().selectFrom('user_money_log').select((eb) => eb.fn.sum('money').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow()) as { sum: unknown };
      const score = (await db().selectFrom('user_score_log').select((eb) => eb.fn.sum('score').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow()) as { sum: unknown };
      return { money: Number(money.sum ?? 0), score: Number(score.sum ?? 0) };
    }

    async function completeOf(surveyId: number, member: { token: string }): Promise<string> {
      const rid = await startOk(surveyId, member);
      await backdate(rid, 3600);
      await ok(returnTo('success', signedQuery('success', rid)));
      return rid;
    }

    it('complete_only from a provider’s CSV: the dry run’s counts and per-member figures are what the apply does, in one go', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 30, consolation_money: '0.10', hold_speeders: true });
      const otherSurvey = await createSurvey(provider.id, { loi_minutes: 1 });
      const [kept, dropped, screened, late, refusedOne, held, spent, elsewhere] = await Promise.all(Array.from({ length: 8 }, () => createMember()));
      const keptRid = await completeOf(surveyId, kept);
      await completeOf(surveyId, dropped);
      const screenedRid = await startOk(surveyId, screened);
      await ok(returnTo('terminate', signedQuery('terminate', screenedRid)));
      // The provider names this attempt by its own transaction id.
      await db().updateTable('survey_participation').set({ provider_txid: 'T-0003' }).where('rid', '=', screenedRid).execute();
      const lateRid = await startOk(surveyId, late);
      await backdate(lateRid, 3 * 3600);
      await expireParticipations(server.server.app);
      const securityRid = await startOk(surveyId, refusedOne);
      await ok(returnTo('security', signedQuery('security', securityRid)));
      const heldRid = await startOk(surveyId, held);
      expect(await ok(returnTo('success', signedQuery('success', heldRid)))).toMatchObject({ credit_state: 'held' });
      // A complete left out whose reward was spent since: its reversal cannot be covered.
      await completeOf(surveyId, spent);
      await ok(admin('user.MoneyLog/add', { body: { user_id: spent.id, money: '-1.00', memo: 'Spent' } }));
      const elsewhereRid = await completeOf(otherSurvey, elsewhere);
      const everyone = [kept, dropped, screened, late, refusedOne, held, spent, elsewhere];
      const before = await Promise.all(everyone.map((member) => ledgerSums(member.id)));
      const surveyBefore = await row('survey', 'id', surveyId);
      expect({ completes: Number(surveyBefore.completes), terminates: Number(surveyBefore.terminates), timeouts: Number(surveyBefore.timeouts), credited: Number(surveyBefore.credited_money) })
        .toEqual({ completes: 4, terminates: 1, timeouts: 1, credited: 460 });

      const file = `\uFEFF"Note",Transaction_ID,Status\r\n"accepted, checked",${keptRid},complete\r\nok,T-0003,complete\r\nok,${lateRid},complete\r\nok,${securityRid},complete\r\nok,${heldRid},complete\r\nok,T-9999,complete\r\nok,${elsewhereRid},complete\r\n`;
      const dry = await ok(reconcile({ mode: 'complete_only', survey_id: surveyId, file, dryRun: true }));
      expect(dry.listed).toEqual({ ids: 7, column: 'Transaction_ID' });
      expect(dry.counts).toEqual({ complete: 3, reversed: 1, unchanged: 1, refused: 4 });
      expect({ applied: dry.applied, refused: dry.refused }).toEqual({ applied: 4, refused: 4 });
      expect(dry.rows.map((item) => [item.id, item.matched, item.outcome, item.money_cents, item.score])).toEqual([
        [keptRid, 'rid', 'unchanged', 0, 0],
        ['T-0003', 'provider_txid', 'complete', 140, 10],
        [lateRid, 'rid', 'complete', 150, 10],
        [securityRid, 'rid', 'refused', 0, 0],
        [heldRid, 'rid', 'complete', 150, 10],
        ['T-9999', '', 'refused', 0, 0],
        [elsewhereRid, 'rid', 'refused', 0, 0],
        ['', '', 'reversed', -150, -10],
        ['', '', 'refused', 0, 0],
      ]);
      expect(dry.rows.map((item) => item.message)).toEqual([
        '', '', '', 'A participation in status "Security terminated" cannot become "Complete"', '',
        `No participation of survey #${surveyId} has this RID or provider transaction id`,
        `This RID is a participation of survey #${otherSurvey}, not of the survey chosen`,
        '', 'The member’s balance cannot cover taking this reward back',
      ]);
      expect(dry.refusals).toHaveLength(4);
      const username = async (member: { id: number }) => String((await row('user', 'id', member.id)).username);
      expect(dry.members).toEqual([
        { user_id: dropped.id, username: await username(dropped), money_cents: -150, score: -10, pending_money_cents: 0, pending_score: 0 },
        { user_id: screened.id, username: await username(screened), money_cents: 140, score: 10, pending_money_cents: 0, pending_score: 0 },
        { user_id: late.id, username: await username(late), money_cents: 150, score: 10, pending_money_cents: 0, pending_score: 0 },
        { user_id: held.id, username: await username(held), money_cents: 150, score: 10, pending_money_cents: 0, pending_score: 0 },
      ].sort((a, b) => a.user_id - b.user_id));
      expect(dry.totals).toEqual({ money_cents: 290, score: 20, pending_money_cents: 0, pending_score: 0 });
      // The dry run changed nothing.
      expect(await Promise.all(everyone.map((member) => ledgerSums(member.id)))).toEqual(before);
      expect((await row('survey_participation', 'rid', lateRid)).status).toBe('timeout');

      const applied = await reconcile({ mode: 'complete_only', survey_id: surveyId, file, dryRun: false, plan: dry.plan });
      expect({ code: applied.code, msg: applied.msg }).toEqual({ code: 1, msg: '4 of 9 records reconciled' });
      expect(applied.data.counts).toEqual(dry.counts);
      expect(applied.data.members).toEqual(dry.members);
      // Each member's ledgers moved by exactly the dry run's figures, and every balance is its ledger.
      const after = await Promise.all(everyone.map((member) => ledgerSums(member.id)));
      const moved = new Map(dry.members.map((member) => [member.user_id, { money: member.money_cents, score: member.score }]));
      everyone.forEach((member, index) => {
        const expected = moved.get(member.id) ?? { money: 0, score: 0 };
        expect({ member: member.id, money: after[index].money - before[index].money, score: after[index].score - before[index].score }).toEqual({ member: member.id, ...expected });
      });
      for (const member of everyone) await expectLedgersAddUp(member.id);
      const statuses = async (rids: string[]) => Promise.all(rids.map(async (rid) => (await row('survey_participation', 'rid', rid)).status));
      expect(await statuses([keptRid, screenedRid, lateRid, securityRid, heldRid, elsewhereRid])).toEqual(['complete', 'complete', 'complete', 'security', 'complete', 'complete']);
      const droppedRow = (await db().selectFrom('survey_participation').selectAll().where('user_id', '=', dropped.id).executeTakeFirstOrThrow()) as Row;
      expect(droppedRow).toMatchObject({ status: 'reversed', credit_state: 'reversed', source: 'reconcile' });
      const surveyAfter = await row('survey', 'id', surveyId);
      expect({ completes: Number(surveyAfter.completes), terminates: Number(surveyAfter.terminates), timeouts: Number(surveyAfter.timeouts), credited: Number(surveyAfter.credited_money) })
        .toEqual({ completes: 5, terminates: 0, timeouts: 0, credited: 750 });

      // Each change is an event with the administrator and the reason; the provider's id is kept with it.
      const lastEvent = async (participationId: unknown) =>
        (await db().selectFrom('survey_participation_event').selectAll().where('participation_id', '=', Number(participationId)).orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
      const droppedEvent = await lastEvent(droppedRow.id);
      expect({ source: droppedEvent.source, admin: Number(droppedEvent.admin_id), payload: JSON.parse(String(droppedEvent.payload)) })
        .toEqual({ source: 'reconcile', admin: 1, payload: { action: 'reverse', reason: 'Provider file June', mode: 'complete_only' } });
      expect(JSON.parse(String((await lastEvent((await row('survey_participation', 'rid', screenedRid)).id)).payload))).toMatchObject({ action: 'approve', provider_txid: 'T-0003' });
      expect(await count('survey_participation_event', 'participation_id', (await row('survey_participation', 'rid', keptRid)).id)).toBe(2);

      // The member reads the reason with the record and in the ledger, in either language.
      const records = await ok(server.api<{ list: Row[] }>('survey/records', { userToken: dropped.token }));
      expect(records.list[0]).toMatchObject({ status: 'reversed', reason: 'Provider file June' });
      const title = String(surveyAfter.title);
      const memo = async (member: { token: string }, lang: 'en' | 'zh-cn') => (await ok(server.api<{ list: Row[] }>('account/balance', { userToken: member.token, lang }))).list[0].memo;
      expect(await memo(dropped, 'en')).toBe(`Survey reward reversed: ${title} (reason: Provider file June)`);
      expect(await memo(dropped, 'zh-cn')).toBe(`问卷奖励撤销：${title}（原因：Provider file June）`);
      expect(await memo(late, 'en')).toBe(`Survey reward after reconciliation: ${title} (reason: Provider file June)`);
      expect(await memo(late, 'zh-cn')).toBe(`问卷奖励（对账改判）：${title}（原因：Provider file June）`);

      // The same file again: nothing is left to change.
      const again = await ok(reconcile({ mode: 'complete_only', survey_id: surveyId, file, dryRun: true }));
      expect(again.counts).toEqual({ complete: 0, reversed: 0, unchanged: 4, refused: 4 });
    });

    it('refuses the whole apply when the records changed since the dry run, changing nothing', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const [first, second] = await Promise.all([createMember(), createMember()]);
      const rids = [await completeOf(surveyId, first), await completeOf(surveyId, second)];
      const dry = await ok(reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: true }));
      expect(dry.counts).toEqual({ complete: 0, reversed: 2, unchanged: 0, refused: 0 });

      const blind = await reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: false });
      expect({ code: blind.code, msg: blind.msg }).toEqual({ code: 0, msg: 'Run the dry run first: applying takes the plan it showed' });
      // Since the dry run, the second member spent part of the reward: its reversal is refused now.
      await ok(admin('user.MoneyLog/add', { body: { user_id: second.id, money: '-1.00', memo: 'Spent' } }));
      const before = await Promise.all([first, second].map((member) => ledgerSums(member.id)));
      const stale = await reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: false, plan: dry.plan });
      expect({ code: stale.code, msg: stale.msg }).toEqual({
        code: 0,
        msg: 'The records changed since the dry run: it showed 0 to become complete, 2 to be reversed, 0 unchanged and 0 refused, now it is 0, 1, 0 and 1. Nothing was changed: run the dry run again',
      });
      const staleZh = await reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: false, plan: dry.plan }, 'zh-cn');
      expect(staleZh.msg).toBe('试算之后记录已有变化：试算为 0 条改为完成、2 条撤销、0 条不变、0 条拒绝，现在为 0、1、0、1 条。未做任何修改：请重新试算');
      expect(await Promise.all(rids.map(async (rid) => (await row('survey_participation', 'rid', rid)).status))).toEqual(['complete', 'complete']);
      expect(await Promise.all([first, second].map((member) => ledgerSums(member.id)))).toEqual(before);
      expect(await count('survey_participation_event', 'participation_id', (await row('survey_participation', 'rid', rids[0])).id)).toBe(2);
      const forged = await reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: false, plan: 'v1.0.2.0.0.nothex' });
      expect(forged.msg).toBe('Run the dry run first: applying takes the plan it showed');

      // A new dry run shows the refusal, and applying it reverses the one that can be.
      const fresh = await ok(reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: true }));
      expect(fresh.refusals).toEqual([{ message: 'The member’s balance cannot cover taking this reward back', count: 1 }]);
      const applied = await ok(reconcile({ mode: 'reverse', rids: rids.join('\n'), dryRun: false, plan: fresh.plan }));
      expect(applied.counts).toEqual(fresh.counts);
      expect(await Promise.all(rids.map(async (rid) => (await row('survey_participation', 'rid', rid)).status))).toEqual(['reversed', 'complete']);
      for (const member of [first, second]) await expectLedgersAddUp(member.id);
    });

    it('matches a provider’s transaction id within the chosen survey, or across surveys when it names one attempt', async () => {
      const provider = await createProvider();
      const [surveyA, surveyB] = [await createSurvey(provider.id, { loi_minutes: 1 }), await createSurvey(provider.id, { loi_minutes: 1 })];
      const [one, two] = await Promise.all([createMember(), createMember()]);
      const ridA = await completeOf(surveyA, one);
      const ridB = await completeOf(surveyB, two);
      await db().updateTable('survey_participation').set({ provider_txid: 'SAME-1' }).where('rid', 'in', [ridA, ridB]).execute();
      const across = await ok(reconcile({ mode: 'reverse', rids: 'SAME-1', dryRun: true }));
      expect(across.rows.map((item) => [item.outcome, item.message])).toEqual([['refused', 'This provider transaction id is on 2 participations of different surveys: choose the survey']]);
      const within = await ok(reconcile({ mode: 'reverse', survey_id: surveyB, rids: 'SAME-1', dryRun: true }));
      expect(within.rows.map((item) => [item.rid, item.matched, item.outcome])).toEqual([[ridB, 'provider_txid', 'reversed']]);
      // One id listed as our rid and again as the provider's names one attempt: it changes once.
      const twice = await ok(reconcile({ mode: 'reverse', survey_id: surveyB, rids: [ridB, 'SAME-1'], dryRun: true }));
      expect(twice.rows.map((item) => [item.outcome, item.message])).toEqual([['reversed', ''], ['refused', `The same participation as "${ridB}", listed before`]]);
    });

    it('writes its ledger entries as one batch by the rules of a single entry: a used key applies once, no balance below zero', async () => {
      const [one, two] = await Promise.all([createMember(), createMember()]);
      const dialect = server.server.app.handle.dialect;
      const entry = (userId: number, amount: number, key: string, kind: 'money' | 'score' = 'money') => ({ kind, userId, amount, memo: 'Batch', idempotencyKey: key });
      const first = await db().transaction().execute((trx) => applyLedgerEntries(trx, dialect, [
        entry(one.id, 300, `b-${one.id}-a`), entry(two.id, 120, `b-${two.id}-a`), entry(one.id, -100, `b-${one.id}-b`), entry(one.id, 5, `b-${one.id}-p`, 'score'), entry(two.id, 120, `b-${two.id}-a`),
      ]));
      expect(first.map((item) => [item.before, item.after, item.applied])).toEqual([[0, 300, true], [0, 120, true], [300, 200, true], [0, 5, true], [0, 120, false]]);
      expect(first[4].id).toBe(first[1].id);
      expect(await balance(one.id)).toEqual({ money: 200, score: 5 });
      expect(await balance(two.id)).toEqual({ money: 120, score: 0 });
      // Again with a used key: it answers the first entry and changes nothing.
      const again = await db().transaction().execute((trx) => applyLedgerEntries(trx, dialect, [entry(one.id, 300, `b-${one.id}-a`)]));
      expect(again.map((item) => [item.id, item.applied])).toEqual([[first[0].id, false]]);
      // An entry that would take a balance below zero fails the whole batch.
      const below = db().transaction().execute((trx) => applyLedgerEntries(trx, dialect, [entry(two.id, -20, `b-${two.id}-c`), entry(one.id, -201, `b-${one.id}-c`)]));
      await expect(below).rejects.toMatchObject({ msg: '%s would become negative' });
      expect(await balance(one.id)).toEqual({ money: 200, score: 5 });
      expect(await balance(two.id)).toEqual({ money: 120, score: 0 });
      for (const member of [one, two]) await expectLedgersAddUp(member.id);
    });

    it('refuses bad requests with a clear message in the reader’s language and changes nothing', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await completeOf(surveyId, member);
      const refusals: [Row, string, string][] = [
        [{ mode: 'complete_only', rids: rid }, 'Choose the survey whose completes the list names', '请选择该列表所列完成记录所属的问卷'],
        [{ mode: 'everything', rids: rid }, 'Choose what the reconciliation does: reverse, approve or complete_only', '请选择对账方式：撤销、改判为完成或仅列出的为完成（reverse、approve、complete_only）'],
        [{ mode: 'reverse', rids: rid, file: 'rid\nab12\n' }, 'Paste the ids or load a file, not both', '请粘贴ID或读取文件，不要同时使用两者'],
        [{ mode: 'reverse', file: 'rid,note\nab12,"open\n' }, 'The file is not valid CSV: the quote opened on line 2 is never closed', '文件不是有效的 CSV：第 2 行开始的引号没有闭合'],
        [{ mode: 'reverse', rids: Array.from({ length: 10_001 }, (_, index) => `id${index}`) }, 'The list holds 10001 ids: at most 10000 can be reconciled at once', '列表中有 10001 个ID：一次最多对账 10000 个'],
        [{ mode: 'reverse', survey_id: 'first', rids: rid }, 'Choose the survey by its number', '请按编号选择问卷'],
        [{ mode: 'reverse', survey_id: 999_999, rids: rid }, 'Survey #999999 does not exist', '问卷 #999999 不存在'],
        [{ mode: 'complete_only', survey_id: surveyId, file: 'rid\nnot-ours\n' }, `None of the listed ids is a participation of survey #${surveyId}, so every complete of it would be reversed: check the file and the survey chosen`, `列表中没有任何ID属于问卷 #${surveyId} 的答题记录，这样会撤销该问卷的全部完成记录：请检查文件和所选问卷`],
      ];
      for (const [body, en, zh] of refusals) {
        for (const dryRun of [true, false]) {
          const answer = await reconcile({ ...body, dryRun, plan: 'v1.0.0.0.0.00000000000000000000000000000000' });
          expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg: en });
        }
        expect((await reconcile({ ...body, dryRun: true }, 'zh-cn')).msg).toBe(zh);
      }
      expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'complete', credit_state: 'credited' });
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
    });
  });

  describe('messages a person reads', () => {
    it('name statuses by their labels in the reader’s language, never by their keys', async () => {
      const provider = await createProvider();
      const id = await createSurvey(provider.id, { status: 'draft' });
      const closed = await admin('survey.Survey/edit', { body: { id, status: 'closed' } });
      expect({ code: closed.code, msg: closed.msg }).toEqual({ code: 0, msg: 'Status cannot change from "Draft (hidden from members)" to "Closed"' });
      const zhClosed = await admin('survey.Survey/edit', { body: { id, status: 'closed' }, lang: 'zh-cn' });
      expect(zhClosed.msg).toBe('状态不能从“草稿（会员看不到）”变更为“已关闭”');
      const badStatus = await admin('survey.Survey/add', { body: { provider_id: provider.id, title: 'Bad status', entry_url: 'https://panel.example/s?r={rid}', loi_minutes: 5, status: 'archived' } });
      expect(badStatus.msg).toBe('Status must be one of: Draft (hidden from members), Active, Paused, Closed');
      const zhBadStatus = await admin('survey.Survey/add', { body: { provider_id: provider.id, title: 'Bad status', entry_url: 'https://panel.example/s?r={rid}', loi_minutes: 5, status: 'archived' }, lang: 'zh-cn' });
      expect(zhBadStatus.msg).toBe('状态 只能是以下之一：草稿（会员看不到）、进行中、已暂停、已关闭');
      const badSearch = await admin('survey.Survey/index', { query: { search: [{ field: 'create_time', val: 'soon', operator: 'RANGE' }] } });
      expect(badSearch.msg).toBe('Invalid search value for Create time');

      // Reconciliation: refusals and the preview's changes read by the labels, a held complete by its credit.
      const surveyId = await createSurvey(provider.id, { loi_minutes: 60, hold_speeders: true });
      const member = await createMember();
      const other = await createMember();
      const heldRid = await startOk(surveyId, member);
      expect(await ok(returnTo('success', signedQuery('success', heldRid)))).toMatchObject({ credit_state: 'held' });
      const securityRid = await startOk(surveyId, other);
      await ok(returnTo('security', signedQuery('security', securityRid)));
      const preview = async (lang: 'en' | 'zh-cn') =>
        (await ok(admin<{ rows: Row[] }>('survey.Participation/reconcile', { body: { action: 'approve', rids: [heldRid, securityRid], reason: 'Checked', dryRun: true }, lang }))).rows;
      expect((await preview('en')).map((item) => [item.change, item.message])).toEqual([
        ['Complete (Held for review) → Complete (Credited)', ''],
        ['Security terminated', 'A participation in status "Security terminated" cannot become "Complete"'],
      ]);
      expect((await preview('zh-cn')).map((item) => [item.change, item.message])).toEqual([
        ['完成（待审核）→ 完成（已发放）', ''],
        ['安全终止', '状态为“安全终止”的答题记录不能变为“完成”'],
      ]);
    });
  });

  describe('dashboard', () => {
    interface Figures {
      members: number;
      activeSurveys: number;
      days: { date: string; starts: number; completes: number; credited: string }[];
      period: { starts: number; completes: number; conversion: number; credited: string };
      topSurveys: { id: number; title: string; completes: number }[];
      payoutsPending: { count: number; amount: string };
    }

    it('shows starts and completes per day in the site time zone, conversion, money credited and top surveys', async () => {
      // A zone far from the machine's: a day there starts 14 hours before UTC's.
      await ok(admin('routine.Config/edit', { body: { time_zone: 'Pacific/Kiritimati' } }));
      try {
        const before = await ok(admin<{ figures: Figures }>('Dashboard/index'));
        const provider = await createProvider();
        const surveyId = await createSurvey(provider.id, { loi_minutes: 1, title: 'Dashboard star' });
        const rids: string[] = [];
        for (let index = 0; index < 3; index++) {
          const member = await createMember();
          const rid = await startOk(surveyId, member);
          await backdate(rid, 600);
          rids.push(rid);
          if (index < 2) await ok(returnTo('success', signedQuery('success', rid)));
        }
        const { figures } = await ok(admin<{ figures: Figures }>('Dashboard/index'));
        expect(figures.days).toHaveLength(30);
        const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
        const last = figures.days[29];
        const lastBefore = before.figures.days[29];
        expect(last.date).toBe(today);
        // Each start counts on its own day there: backdated ten minutes, in the first ten minutes after
        // midnight it is the day before's.
        const dayThere = (seconds: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(seconds * 1000));
        const startDays = await Promise.all(rids.map(async (rid) => dayThere(Number((await row('survey_participation', 'rid', rid)).enter_time))));
        for (const index of [28, 29]) {
          const day = figures.days[index];
          expect(day.starts - before.figures.days[index].starts, day.date).toBe(startDays.filter((date) => date === day.date).length);
        }
        expect(startDays.every((date) => date === figures.days[28].date || date === today)).toBe(true);
        expect(last.completes - lastBefore.completes).toBe(2);
        expect(figures.members - before.figures.members).toBe(3);
        expect(figures.period.starts - before.figures.period.starts).toBe(3);
        expect(Number(figures.period.credited) - Number(before.figures.period.credited)).toBeCloseTo(3, 2);
        expect(figures.period.conversion).toBe(Math.round((figures.period.completes / figures.period.starts) * 1000) / 10);
        expect(figures.topSurveys.map((survey) => survey.title)).toContain('Dashboard star');
        expect(figures.payoutsPending).toEqual({ count: 0, amount: '0.00' });
      } finally {
        await ok(admin('routine.Config/edit', { body: { time_zone: 'Asia/Shanghai' } }));
      }
    });
  });

  describe('member figures', () => {
    it('charts, totals and the ranking from the member’s own credits', async () => {
      const provider = await createProvider();
      const first = await createSurvey(provider.id, { loi_minutes: 1, reward_money: '7.25' });
      const second = await createSurvey(provider.id, { loi_minutes: 1, reward_money: '2.00' });
      const member = await createMember();
      for (const surveyId of [first, second]) {
        const rid = await startOk(surveyId, member);
        await backdate(rid, 600);
        await ok(returnTo('success', signedQuery('success', rid)));
      }
      const charts = await ok(server.api<{ days: string[]; money: string[]; completes: number[] }>('account/getUserCharts', { userToken: member.token, query: { period: '7' } }));
      expect(charts.days).toHaveLength(7);
      expect(charts.money.at(-1)).toBe('9.25');
      expect(charts.completes.at(-1)).toBe(2);
      expect(charts.money.slice(0, 6).every((money) => money === '0.00')).toBe(true);
      const month = await ok(server.api<{ days: string[] }>('account/getUserCharts', { userToken: member.token, query: { period: 'month' } }));
      expect(month.days).toHaveLength(30);

      const data = await ok(server.api<Row>('account/getUserData', { userToken: member.token }));
      expect(data).toEqual({
        today: { money: '9.25', completes: 2 }, month: { money: '9.25', completes: 2 }, total: { money: '9.25', completes: 2 }, balance: '9.25', score: 20,
        pending: { money: '0.00', score: 0 },
      });

      // 7.25 + 2.00 is more than any other member of this suite earned: first place this month, once the
      // ranking job has run since (its 10-minute slot may have passed earlier in the suite, before these credits).
      await refreshRankings(server.server.app);
      const ranking = await ok(server.api<{ list: Row[]; mine: Row; computed_at: number }>('account/getUserRanking', { userToken: member.token, query: { period: 'month', metric: 'money' } }));
      expect(ranking.mine).toEqual({ rank: 1, value: '9.25' });
      expect(ranking.list[0]).toMatchObject({ rank: 1, value: '9.25', is_me: true });
      expect(ranking.list[0]).not.toHaveProperty('user_id');
      const byCompletes = await ok(server.api<{ mine: Row }>('account/getUserRanking', { userToken: member.token, query: { period: 'all', metric: 'completes' } }));
      expect(byCompletes.mine.value).toBe(2);

      // The snapshot is reused within its age: a newer credit shows at the next rebuild, not per request.
      const rows = await count('member_ranking');
      const again = await ok(server.api<{ computed_at: number }>('account/getUserRanking', { userToken: member.token, query: { period: 'month', metric: 'money' } }));
      expect(again.computed_at).toBe(ranking.computed_at);
      expect(await count('member_ranking')).toBe(rows);
    });

    it('refuses unknown periods and metrics clearly, and strangers', async () => {
      const member = await createMember();
      const period = await server.api('account/getUserCharts', { userToken: member.token, query: { period: 'year' } });
      expect({ code: period.code, msg: period.msg }).toEqual({ code: 0, msg: 'period must be one of: 7, 30, week, month' });
      const metric = await server.api('account/getUserRanking', { userToken: member.token, query: { metric: 'score' }, lang: 'zh-cn' });
      expect(metric.msg).toBe('metric 只能是以下之一：money, completes');
      const stranger = await server.api('account/getUserData');
      expect(stranger.code).toBe(303);
    });
  });

  describe('quick tasks', () => {
    const FORM = {
      type: 'object',
      required: ['name', 'proof', 'platform'],
      properties: {
        name: { type: 'string', title: 'Your name', maxLength: 20 },
        platform: { type: 'string', title: 'Platform', enum: ['ios', 'android'] },
        proof: { type: 'string', title: 'Screenshot', maxLength: 255, 'x-ui': { widget: 'image' } },
      },
    };

    async function createTask(values: Row = {}): Promise<number> {
      const title = `Task ${++counter}`;
      await ok(admin('survey.QuickTask/add', { body: { title, form: JSON.stringify(FORM), reward_money: '0.80', reward_score: 5, status: 'active', ...values } }));
      return Number((await row('quick_task', 'title', title)).id);
    }

    async function uploadAs(member: { token: string }): Promise<string> {
      const form = new FormData();
      // Distinct bytes per upload: identical files are stored once.
      const rgba = new Uint8Array(4 * 4 * 4).fill(++counter % 256);
      form.append('file', new Blob([new Uint8Array(encodePng(4, 4, rgba))], { type: 'image/png' }), 'proof.png');
      const response = await server.raw('/api/ajax/upload', { method: 'POST', headers: { 'ba-user-token': member.token, 'think-lang': 'en' }, body: form });
      const envelope = (await response.json()) as { code: number; data: { file: { url: string } } };
      expect(envelope.code).toBe(1);
      return envelope.data.file.url;
    }

    it('refuses a form members could not fill in, on the form field', async () => {
      const before = await count('quick_task');
      const cases: [string, string][] = [
        ['{not json', 'The form is not valid: not JSON'],
        [JSON.stringify({ type: 'object', properties: {} }), 'The form is not valid: 1 to 30 fields are expected'],
        [JSON.stringify({ type: 'object', properties: { file: { type: 'string', 'x-ui': { widget: 'editor' } } } }), 'The form is not valid: field "file": widget "editor" is not available to members'],
        [JSON.stringify({ type: 'object', properties: { Bad: { type: 'string' } } }), 'The form is not valid: /properties: must match pattern "^[a-z][a-z0-9_]*$"'],
      ];
      for (const [form, msg] of cases) {
        const answer = await admin('survey.QuickTask/add', { body: { title: 'Bad form', form } });
        expect({ code: answer.code, msg: answer.msg, data: answer.data }).toEqual({ code: 0, msg, data: { field: 'form', errorId: 'quickTaskFormInvalid' } });
      }
      expect(await count('quick_task')).toBe(before);
    });

    it('accepts the form the field builder writes (labels in both languages, radio options, an email) and checks answers by it', async () => {
      const form = {
        type: 'object',
        required: ['platform', 'contact'],
        properties: {
          platform: { type: 'string', enum: ['ios', 'android'], title: { 'zh-cn': '平台', en: 'Platform' }, 'x-ui': { widget: 'radio', options: { ios: { 'zh-cn': '苹果', en: 'iPhone' }, android: 'Android' } } },
          contact: { type: 'string', title: { 'zh-cn': '联系邮箱', en: 'Contact email' }, format: 'email', maxLength: 255, 'x-ui': { widget: 'string' } },
          stars: { type: 'integer', title: 'Stars', minimum: 1, maximum: 5, 'x-ui': { widget: 'number' } },
        },
      };
      const taskId = await createTask({ form: JSON.stringify(form) });
      const member = await createMember();
      const wrong = await server.api<{ errors: Record<string, string> }>('survey/quickTaskSubmit', { userToken: member.token, lang: 'zh-cn', body: { id: taskId, answers: { platform: 'pc', contact: 'nope', stars: 9 } } });
      expect(Object.keys(wrong.data.errors).sort()).toEqual(['contact', 'platform', 'stars']);
      expect(wrong.data.errors.platform).toContain('平台');
      const sent = await server.api<{ status: string }>('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { platform: 'ios', contact: 'amy@example.com', stars: 4 } } });
      expect(sent.code).toBe(1);
    });

    it('reports every wrong answer at once, each on its field, in the member\'s language', async () => {
      const taskId = await createTask();
      const member = await createMember();
      const submissions = await count('quick_task_submission');
      const answers = { name: 'A name far longer than twenty characters', platform: 'pc' };
      const en = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers } });
      expect({ code: en.code, msg: en.msg }).toEqual({ code: 0, msg: 'Screenshot cannot be empty' });
      expect(en.data).toEqual({
        field: 'proof',
        errors: { proof: 'Screenshot cannot be empty', name: 'Your name cannot be longer than 20 characters', platform: 'Platform must be one of: ios, android' },
        errorId: 'validationAll',
      });
      const zh = await server.api<{ errors: Record<string, string> }>('survey/quickTaskSubmit', { userToken: member.token, lang: 'zh-cn', body: { id: taskId, answers } });
      expect(Object.keys(zh.data.errors).sort()).toEqual(['name', 'platform', 'proof']);
      expect(zh.data.errors.proof).toContain('不能为空');
      expect(await count('quick_task_submission')).toBe(submissions);
    });

    it('a member submits answers checked against the form; an admin approves (credited) or rejects (with a reason)', async () => {
      const taskId = await createTask();
      const member = await createMember();
      const other = await createMember();
      const tasks = await ok(server.api<{ list: Row[] }>('survey/quickTasks', { userToken: member.token }));
      expect(tasks.list.find((task) => task.id === taskId)).toMatchObject({ form: FORM, reward_money: '0.80', my_status: null });

      // Bad answers: a translated message on the field, nothing written.
      const submissions = await count('quick_task_submission');
      const missing = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy', platform: 'ios' } } });
      expect({ code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ code: 0, msg: 'Screenshot cannot be empty', data: { field: 'proof', errors: { proof: 'Screenshot cannot be empty' }, errorId: 'validationAll' } });
      const choice = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy', platform: 'pc', proof: await uploadAs(member) } } });
      expect(choice.data).toMatchObject({ field: 'platform' });
      const elsewhere = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy', platform: 'ios', proof: 'https://tracker.example/pixel.png' } } });
      expect({ msg: elsewhere.msg, data: elsewhere.data }).toEqual({ msg: 'Screenshot must be an image uploaded here', data: { field: 'proof', errorId: 'quickTaskImageNotUploaded' } });
      const zh = await server.api('survey/quickTaskSubmit', { userToken: member.token, lang: 'zh-cn', body: { id: taskId, answers: { name: 'Amy', platform: 'ios' } } });
      expect(zh.msg).toContain('不能为空');
      expect(await count('quick_task_submission')).toBe(submissions);

      const proof = await uploadAs(member);
      const sent = await server.api<{ status: string }>('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy', platform: 'ios', proof, extra: 'dropped' } } });
      expect({ code: sent.code, msg: sent.msg, status: sent.data.status }).toEqual({ code: 1, msg: 'Submitted, waiting for review', status: 'pending' });
      const twice = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy', platform: 'ios', proof } } });
      expect(twice.data).toMatchObject({ errorId: 'quickTaskAlreadySubmitted' });
      const stored = await row('quick_task_submission', 'user_id', member.id);
      expect(JSON.parse(String(stored.answers))).toEqual({ name: 'Amy', platform: 'ios', proof });
      expect(await balance(member.id)).toEqual({ money: 0, score: 0 });

      const noReason = await admin('survey.QuickTaskSubmission/reject', { body: { ids: [stored.id] } });
      expect(noReason.msg).toBe('Please give a reason for the rejection');
      const approved = await admin('survey.QuickTaskSubmission/approve', { body: { ids: [stored.id] } });
      expect({ code: approved.code, msg: approved.msg }).toEqual({ code: 1, msg: '1 submissions approved' });
      expect(await balance(member.id)).toEqual({ money: 80, score: 5 });
      // A decided submission stays decided: approving again changes nothing and credits nothing.
      const again = await admin('survey.QuickTaskSubmission/approve', { body: { ids: [stored.id] } });
      expect(again.code).toBe(0);
      expect(await balance(member.id)).toEqual({ money: 80, score: 5 });
      const edit = await admin('survey.QuickTaskSubmission/edit', { body: { id: stored.id, status: 'rejected' } });
      expect(edit.data).toMatchObject({ errorId: 'submissionReadOnly' });

      // The other member is rejected with a reason, sees it, and may try again.
      await ok(server.api('survey/quickTaskSubmit', { userToken: other.token, body: { id: taskId, answers: { name: 'Bo', platform: 'android', proof: await uploadAs(other) } } }));
      const otherSubmission = await row('quick_task_submission', 'user_id', other.id);
      await ok(admin('survey.QuickTaskSubmission/reject', { body: { ids: [otherSubmission.id], reason: 'Screenshot unreadable' } }));
      const records = await ok(server.api<{ list: Row[]; total: number }>('survey/quickTaskRecords', { userToken: other.token }));
      expect(records.list[0]).toMatchObject({ task_id: taskId, status: 'rejected', reason: 'Screenshot unreadable', reward_money: '0.80' });
      const retry = await ok(server.api<{ list: Row[] }>('survey/quickTasks', { userToken: other.token }));
      expect(retry.list.find((task) => task.id === taskId)).toMatchObject({ my_status: 'rejected', my_reason: 'Screenshot unreadable' });
      await ok(server.api('survey/quickTaskSubmit', { userToken: other.token, body: { id: taskId, answers: { name: 'Bo', platform: 'android', proof: await uploadAs(other) } } }));
      expect(await balance(other.id)).toEqual({ money: 0, score: 0 });
      await expectLedgersAddUp(member.id);
    });

    it('credits at once when the task says so, and refuses closed tasks', async () => {
      const auto = await createTask({ review: 'auto' });
      const closed = await createTask({ status: 'draft' });
      const member = await createMember();
      const proof = await uploadAs(member);
      const sent = await server.api<{ status: string }>('survey/quickTaskSubmit', { userToken: member.token, body: { id: auto, answers: { name: 'Cy', platform: 'ios', proof } } });
      expect({ msg: sent.msg, status: sent.data.status }).toEqual({ msg: 'Submitted and credited', status: 'approved' });
      expect(await balance(member.id)).toEqual({ money: 80, score: 5 });
      const refused = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: closed, answers: { name: 'Cy', platform: 'ios', proof } } });
      expect(refused.msg).toBe('This task is not available');
      const unknown = await server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: 'x', answers: {} } });
      expect(unknown.msg).toBe('This task is not available');
    });
  });

  describe('timeouts, quotas and concurrency', () => {
    it('turns attempts older than max(2 × LOI, 2 h) into timeouts, once, and a later return changes nothing', async () => {
      const provider = await createProvider();
      const short = await createSurvey(provider.id, { loi_minutes: 10 });
      const long = await createSurvey(provider.id, { loi_minutes: 120 });
      const member = await createMember();
      const shortRid = await startOk(short, member);
      const longRid = await startOk(long, member);
      await backdate(shortRid, 2 * 3600 + 5);
      await backdate(longRid, 2 * 3600 + 5);
      const [a, b] = await Promise.all([expireParticipations(server.server.app), expireParticipations(server.server.app)]);
      expect(a + b).toBeGreaterThanOrEqual(1);
      expect(await row('survey_participation', 'rid', shortRid)).toMatchObject({ status: 'timeout', source: 'timeout' });
      expect((await row('survey_participation', 'rid', longRid)).status).toBe('entered');
      expect(Number((await row('survey', 'id', short)).timeouts)).toBe(1);
      const late = await ok(returnTo('success', signedQuery('success', shortRid)));
      expect(late).toMatchObject({ status: 'timeout', already_recorded: true });
      expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
    });

    it('credits 50 simultaneous returns of one rid once', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1 });
      const member = await createMember();
      const rid = await startOk(surveyId, member);
      await backdate(rid, 600);
      const query = signedQuery('success', rid);
      const path = `/api/survey/callback/${provider.code}`;
      const answers = await Promise.all(Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0 ? returnTo('success', query) : providerCall(`${path}?${signedQueryFor(path, rid, 'complete')}`).then((response) => response.json() as Promise<{ code: number }>),
      ));
      expect(answers.every((answer) => answer.code === 1)).toBe(true);
      expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
      expect(await count('user_money_log', 'user_id', member.id)).toBe(1);
      expect(await count('survey_participation_event', 'participation_id', (await row('survey_participation', 'rid', rid)).id)).toBe(2);
      await expectLedgersAddUp(member.id);
    });

    it('never exceeds the quota at the complete step: 50 starts, 10 completes of quota left', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1, quota_total: 10 });
      const members = await Promise.all(Array.from({ length: 50 }, () => createMember()));
      const rids = (await Promise.all(members.map((member) => start(surveyId, member)))).map((answer) => {
        expect(answer.code).toBe(1);
        return new URL(answer.data.url).searchParams.get('r') as string;
      });
      await db().updateTable('survey_participation').set({ enter_time: Math.floor(Date.now() / 1000) - 600 }).where('survey_id', '=', surveyId).execute();
      const answers = await Promise.all(rids.map((rid) => returnTo('success', signedQuery('success', rid))));
      const statuses = answers.map((answer) => answer.data.status);
      expect(statuses.filter((status) => status === 'complete')).toHaveLength(10);
      expect(statuses.filter((status) => status === 'overquota')).toHaveLength(40);
      const survey = await row('survey', 'id', surveyId);
      expect({ completes: Number(survey.completes), overquotas: Number(survey.overquotas), credited: Number(survey.credited_money) }).toEqual({ completes: 10, overquotas: 40, credited: 1500 });
      // Full: the survey leaves the task list and refuses new starts.
      const late = await createMember();
      const refused = await start(surveyId, late);
      expect(refused.msg).toBe('This survey has reached its quota');
      // Fifty members' password hashes alone take most of this on a loaded 2-core machine.
    }, 90_000);

    it('never exceeds the quota when reconcile approvals race genuine returns, and a refused approval says why and changes nothing', async () => {
      const QUOTA = 4;
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1, quota_total: QUOTA, consolation_money: '0.10' });
      // One complete of the quota left: QUOTA - 1 completes in, then members still answering and members screened out.
      for (let index = 0; index < QUOTA - 1; index += 1) {
        const rid = await startOk(surveyId, await createMember());
        await backdate(rid, 600);
        await ok(returnTo('success', signedQuery('success', rid)));
      }
      const answering = await Promise.all(Array.from({ length: 4 }, () => createMember()));
      const screened = await Promise.all(Array.from({ length: 4 }, () => createMember()));
      const answeringRids = await Promise.all(answering.map((member) => startOk(surveyId, member)));
      for (const rid of answeringRids) await backdate(rid, 600);
      const screenedRids: string[] = [];
      for (const member of screened) {
        const rid = await startOk(surveyId, member);
        await ok(returnTo('terminate', signedQuery('terminate', rid)));
        screenedRids.push(rid);
      }

      const [returns, approvals] = await Promise.all([
        Promise.all(answeringRids.map((rid) => returnTo('success', signedQuery('success', rid)))),
        Promise.all(screenedRids.map((rid) => admin<{ rows: Row[] }>('survey.Participation/reconcile', { body: { action: 'approve', rids: [rid], reason: 'Client accepted' } }))),
      ]);
      expect(returns.every((answer) => answer.code === 1)).toBe(true);
      expect(approvals.every((answer) => answer.code === 1)).toBe(true);

      const participations = (await db().selectFrom('survey_participation').selectAll().where('survey_id', '=', surveyId).execute()) as Row[];
      const completes = participations.filter((item) => item.status === 'complete');
      const survey = await row('survey', 'id', surveyId);
      expect(completes).toHaveLength(QUOTA);
      expect({ completes: Number(survey.completes), quota: Number(survey.quota_total) }).toEqual({ completes: QUOTA, quota: QUOTA });
      expect({
        terminates: Number(survey.terminates), overquotas: Number(survey.overquotas),
      }).toEqual({
        terminates: participations.filter((item) => item.status === 'terminate').length, overquotas: participations.filter((item) => item.status === 'overquota').length,
      });
      // A complete is paid the reward, a screen-out its consolation: once each, every balance its ledger.
      for (const item of participations) {
        expect(await balance(Number(item.user_id))).toEqual(item.status === 'complete' ? { money: 150, score: 10 } : { money: 10, score: 0 });
        await expectLedgersAddUp(Number(item.user_id));
      }
      expect(Number(survey.credited_money)).toBe(QUOTA * 150 + (participations.length - QUOTA) * 10);

      // The approvals that found the quota full say so and left their attempt as it was.
      const refused = approvals.map((answer) => answer.data.rows[0]).filter((item) => !item.ok);
      const returnedComplete = returns.filter((answer) => answer.data.status === 'complete').length;
      expect(screenedRids.length - refused.length + returnedComplete).toBe(1);
      for (const item of refused) {
        expect(item).toMatchObject({ quota_full: true, message: `Survey #${surveyId} has reached its quota (${QUOTA} of ${QUOTA} completes): confirm raising the quota to accept it as complete` });
        const stored = await row('survey_participation', 'rid', item.rid);
        expect(stored).toMatchObject({ status: 'terminate', credit_state: 'credited' });
        expect(await count('survey_participation_event', 'participation_id', stored.id)).toBe(2);
      }

      // Asked again, in either language, it is refused the same way and still changes nothing.
      const again = refused[0].rid as string;
      for (const [lang, message] of [
        ['en', `Survey #${surveyId} has reached its quota (${QUOTA} of ${QUOTA} completes): confirm raising the quota to accept it as complete`],
        ['zh-cn', `问卷 #${surveyId} 已达配额（完成 ${QUOTA} / 配额 ${QUOTA}）：确认提高配额后才能改为完成`],
      ] as const) {
        const answer = await ok(admin<{ applied: number; rows: Row[] }>('survey.Participation/reconcile', { body: { action: 'approve', rids: [again], reason: 'Client accepted' }, lang }));
        expect({ applied: answer.applied, message: answer.rows[0].message }).toEqual({ applied: 0, message });
      }
      const stored = await row('survey_participation', 'rid', again);
      expect(stored).toMatchObject({ status: 'terminate' });
      expect(await count('survey_participation_event', 'participation_id', stored.id)).toBe(2);
      expect(await balance(Number(stored.user_id))).toEqual({ money: 10, score: 0 });
      expect(Number((await row('survey', 'id', surveyId)).completes)).toBe(QUOTA);
    });

    it('on a full survey, a confirmed approval raises the quota by what it needs and records it, also when approvals race', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { loi_minutes: 1, quota_total: 1 });
      const screened = await Promise.all(Array.from({ length: 3 }, () => createMember()));
      const rids: string[] = [];
      for (const member of screened) {
        const rid = await startOk(surveyId, member);
        await ok(returnTo('terminate', signedQuery('terminate', rid)));
        rids.push(rid);
      }
      const first = await createMember();
      const firstRid = await startOk(surveyId, first);
      await backdate(firstRid, 600);
      await ok(returnTo('success', signedQuery('success', firstRid)));
      const reconcile = (body: Row, lang?: 'en' | 'zh-cn') =>
        ok(admin<{ applied: number; refused: number; rows: Row[] }>('survey.Participation/reconcile', { body: { action: 'approve', reason: 'Client accepted', ...body }, lang }));

      // The preview tells the quota is full; confirmed, it tells how far each approval raises it.
      const refused = await reconcile({ rids, dryRun: true });
      expect(refused).toMatchObject({ applied: 0, refused: 3 });
      expect(refused.rows.map((item) => item.quota_full)).toEqual([true, true, true]);
      const confirmed = await reconcile({ rids, dryRun: true, raiseQuota: true }, 'zh-cn');
      expect(confirmed.rows.map((item) => [item.ok, item.quota_full, item.message])).toEqual([
        [true, false, `问卷 #${surveyId} 的配额由 1 提高到 2`], [true, false, `问卷 #${surveyId} 的配额由 2 提高到 3`], [true, false, `问卷 #${surveyId} 的配额由 3 提高到 4`],
      ]);
      expect(Number((await row('survey', 'id', surveyId)).quota_total)).toBe(1);

      const answers = await Promise.all(rids.map((rid) => reconcile({ rids: [rid], raiseQuota: true })));
      expect(answers.map((answer) => answer.applied)).toEqual([1, 1, 1]);
      expect(answers.map((answer) => answer.rows[0].message).sort()).toEqual([
        `Raises the quota of survey #${surveyId} from 1 to 2`, `Raises the quota of survey #${surveyId} from 2 to 3`, `Raises the quota of survey #${surveyId} from 3 to 4`,
      ]);
      const survey = await row('survey', 'id', surveyId);
      expect({ completes: Number(survey.completes), quota: Number(survey.quota_total), terminates: Number(survey.terminates) }).toEqual({ completes: 4, quota: 4, terminates: 0 });
      // Each approval's event records the raise it made.
      const raises: unknown[] = [];
      for (const rid of rids) {
        const participation = await row('survey_participation', 'rid', rid);
        expect(participation).toMatchObject({ status: 'complete', credit_state: 'credited' });
        const event = (await db().selectFrom('survey_participation_event').select('payload').where('participation_id', '=', Number(participation.id)).orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
        raises.push((JSON.parse(String(event.payload)) as Row).quota);
      }
      expect(raises.sort((a, b) => (a as { from: number }).from - (b as { from: number }).from)).toEqual([{ from: 1, to: 2 }, { from: 2, to: 3 }, { from: 3, to: 4 }]);
      for (const member of [first, ...screened]) {
        expect(await balance(member.id)).toEqual({ money: 150, score: 10 });
        await expectLedgersAddUp(member.id);
      }
    });

    it('applies the daily cap exactly under concurrent starts', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id, { daily_cap: 3 });
      const members = await Promise.all(Array.from({ length: 8 }, () => createMember()));
      const answers = await Promise.all(members.map((member) => start(surveyId, member)));
      expect(answers.filter((answer) => answer.code === 1)).toHaveLength(3);
      expect(answers.filter((answer) => answer.msg === 'This survey has reached its limit for today, please come back tomorrow')).toHaveLength(5);
      expect(await count('survey_participation', 'survey_id', surveyId)).toBe(3);
    });

    it('lets one of a member’s simultaneous starts of a survey through', async () => {
      const provider = await createProvider();
      const surveyId = await createSurvey(provider.id);
      const member = await createMember();
      const answers = await Promise.all(Array.from({ length: 10 }, () => start(surveyId, member)));
      expect(answers.filter((answer) => answer.code === 1)).toHaveLength(1);
      expect(answers.filter((answer) => answer.msg === 'You have already taken this survey')).toHaveLength(9);
      expect(await count('survey_participation', 'survey_id', surveyId)).toBe(1);
    });
  });
});
