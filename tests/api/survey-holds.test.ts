import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../../src/server/clock.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { JOBS } from '../../src/server/jobs/jobs.js';
import { resourceByTable } from '../../src/server/app-context.js';
import { ApiError } from '../../src/server/errors.js';
import { cancelPendingHolds, releaseDueHolds } from '../../src/server/services/holds.js';
import { updateDomainRow } from '../../src/server/writes/domain-writes.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Hold periods on both databases (docs/survey-domain.md#hold-period): a credit of a provider (or survey)
 * with a hold lands pending, outside the balance and the ledger, shows in the member API with the date it
 * becomes available, cannot be paid out, is cancelled by a reverse before its release, and is released
 * once by the sweep after its days, however many sweeps run.
 */

type Row = Record<string, unknown>;
const SECRET = 'hold-secret-1';
const PASSWORD = 'Member_pass1';
const DAY = 86_400;

describe.each(DATABASES)('hold periods on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;

  const app = () => server.server.app;
  const db = () => app().db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(response: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
    const answer = await response;
    expect({ code: answer.code, msg: answer.msg }).toMatchObject({ code: 1 });
    return answer.data;
  }

  async function row(table: string, column: string, value: unknown): Promise<Row> {
    return (await dynamicDb(db()).selectFrom(table).selectAll().where(column, '=', value).executeTakeFirstOrThrow()) as Row;
  }

  async function createProvider(values: Row = {}): Promise<Row> {
    const code = `h${++counter}${kind.slice(0, 2)}`;
    await ok(admin('survey.Provider/add', { body: { code, name: `Provider ${code}`, secret: SECRET, ...values } }));
    return row('survey_provider', 'code', code);
  }

  async function createSurvey(providerId: unknown, values: Row = {}): Promise<number> {
    const title = `Held survey ${++counter}`;
    await ok(admin('survey.Survey/add', {
      body: { provider_id: providerId, title, entry_url: 'https://panel.example/s/1?r={rid}', reward_money: '20.00', reward_score: 10, loi_minutes: 1, status: 'active', ...values },
    }));
    return Number((await row('survey', 'title', title)).id);
  }

  async function createMember(): Promise<{ id: number; token: string }> {
    const username = `hm${++counter}${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: PASSWORD } }));
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    expect(login.code).toBe(1);
    return { id: login.data.userInfo.id, token: login.data.userInfo.token };
  }

  /** Start the survey, wait out the speeder limit (moves the start back), and come back signed to `page`. */
  async function take(surveyId: number, member: { token: string }, page = 'success'): Promise<{ rid: string; report: Row }> {
    const started = await ok(server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: member.token }));
    const rid = new URL(started.url).searchParams.get('r') as string;
    const current = await row('survey_participation', 'rid', rid);
    await db().updateTable('survey_participation').set({ enter_time: Number(current.enter_time) - 600 }).where('rid', '=', rid).execute();
    const unsigned = `rid=${rid}`;
    const query = `${unsigned}&sig=${createHmac('sha256', SECRET).update(`/${page}?${unsigned}`).digest('hex')}`;
    const report = await ok(server.api<Row>('survey/outcome', { body: { outcome: page, query }, userToken: member.token }));
    return { rid, report };
  }

  async function reconcile(action: 'reverse' | 'approve', rid: string) {
    return ok(admin<{ applied: number; rows: Row[] }>('survey.Participation/reconcile', { body: { action, rids: [rid], reason: 'Provider file' } }));
  }

  async function balance(userId: number): Promise<{ money: number; score: number }> {
    const user = await row('user', 'id', userId);
    return { money: Number(user.money), score: Number(user.score) };
  }

  async function ledger(userId: number): Promise<{ money: Row[]; score: Row[] }> {
    const money = (await db().selectFrom('user_money_log').selectAll().where('user_id', '=', userId).orderBy('id').execute()) as Row[];
    const score = (await db().selectFrom('user_score_log').selectAll().where('user_id', '=', userId).orderBy('id').execute()) as Row[];
    return { money, score };
  }

  async function holds(userId: number): Promise<Row[]> {
    return (await db().selectFrom('user_credit_hold').selectAll().where('user_id', '=', userId).orderBy('id').execute()) as Row[];
  }

  /** The member's balance and points equal the sums of their ledgers (docs/survey-domain.md#ledgers). */
  async function expectLedgersAddUp(userId: number) {
    const entries = await ledger(userId);
    const sum = (rows: Row[], column: string) => rows.reduce((total, entry) => total + Number(entry[column]), 0);
    expect(await balance(userId)).toEqual({ money: sum(entries.money, 'money'), score: sum(entries.score, 'score') });
  }

  async function savePaymentDetails(member: { token: string }) {
    await ok(server.api('paymentuser/payment', { userToken: member.token, body: { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai', bank_num: '6222000011112222' } }));
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lands a held credit as pending: the balance and the ledger unchanged, the member shown what and when, no payout drawing on it; the sweep releases it once after its days', async () => {
    const provider = await createProvider({ hold_days: 7 });
    const surveyId = await createSurvey(provider.id);
    const member = await createMember();
    const before = nowSeconds();
    const { rid, report } = await take(surveyId, member);
    const after = nowSeconds();

    // The outcome page is told what was credited and when it becomes available.
    expect(report).toMatchObject({ status: 'complete', credit_state: 'credited', credited: { money: '20.00', score: 10 }, balance: { money: '0.00', score: 0 } });
    expect(Number(report.available_at)).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(Number(report.available_at)).toBeLessThanOrEqual(after + 7 * DAY);
    expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
    expect(await ledger(member.id)).toEqual({ money: [], score: [] });
    const participation = await row('survey_participation', 'rid', rid);
    expect(await holds(member.id)).toMatchObject([
      { kind: 'money', state: 'pending', source_type: 'participation', idempotency_key: `survey:${participation.id}:credit:money`, log_id: null },
      { kind: 'score', state: 'pending', source_type: 'participation', idempotency_key: `survey:${participation.id}:credit:score`, log_id: null },
    ]);
    const [moneyHold, scoreHold] = await holds(member.id);
    expect([Number(moneyHold.amount), Number(scoreHold.amount), Number(moneyHold.source_id)]).toEqual([2000, 10, Number(participation.id)]);
    const releaseAt = Number(moneyHold.release_at);
    expect(releaseAt).toBe(Number(report.available_at));

    // The member API: available and pending apart, each pending credit with its date and its memo in the reader's language.
    const figures = await ok(server.api<Row>('account/getUserData', { userToken: member.token }));
    expect(figures).toMatchObject({ balance: '0.00', score: 0, pending: { money: '20.00', score: 10 } });
    const pending = await ok(server.api<Row>('account/pendingCredits', { userToken: member.token, lang: 'en' }));
    expect(pending).toMatchObject({ total: 2, money: '20.00', score: 10 });
    const survey = await row('survey', 'id', surveyId);
    expect(pending.list).toEqual([
      { id: Number(moneyHold.id), kind: 'money', money: '20.00', release_at: releaseAt, memo: `Survey reward: ${String(survey.title)}`, create_time: expect.any(Number) },
      { id: Number(scoreHold.id), kind: 'score', score: 10, release_at: releaseAt, memo: `Survey reward: ${String(survey.title)}`, create_time: expect.any(Number) },
    ]);
    const zh = await ok(server.api<{ list: Row[] }>('account/pendingCredits', { userToken: member.token, lang: 'zh-cn' }));
    expect(zh.list[0].memo).toBe(`问卷奖励：${String(survey.title)}`);
    const stranger = await server.api('account/pendingCredits');
    expect(stranger.code).not.toBe(1);
    const badPage = await server.api('account/pendingCredits', { userToken: member.token, query: { limit: 1000 } });
    expect(badPage.code).toBe(0);

    // A payout draws on the available balance only.
    await savePaymentDetails(member);
    const refused = await server.api('paymentuser/payout', { userToken: member.token, body: { amount: '15.00' } });
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'The amount is more than your balance' });
    expect(await ok(server.api<Row>('paymentuser/payment', { userToken: member.token }))).toMatchObject({ balance: '0.00', pending: '20.00' });
    expect(Number((await db().selectFrom('payout').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', member.id).executeTakeFirstOrThrow()).n)).toBe(0);

    // Not yet due: nothing moves. Due: two sweeps at once (two processes) release each hold once.
    expect(await releaseDueHolds(app(), releaseAt - 1)).toBe(0);
    expect((await holds(member.id)).map((hold) => hold.state)).toEqual(['pending', 'pending']);
    const sweeps = await Promise.all([releaseDueHolds(app(), releaseAt), releaseDueHolds(app(), releaseAt)]);
    expect(sweeps[0] + sweeps[1]).toBe(2);
    expect(await releaseDueHolds(app(), releaseAt + DAY)).toBe(0);
    expect(await balance(member.id)).toEqual({ money: 2000, score: 10 });
    const entries = await ledger(member.id);
    expect(entries.money.map((entry) => [Number(entry.money), entry.idempotency_key])).toEqual([[2000, `survey:${participation.id}:credit:money`]]);
    expect(entries.score.map((entry) => [Number(entry.score), entry.idempotency_key])).toEqual([[10, `survey:${participation.id}:credit:score`]]);
    expect(await holds(member.id)).toMatchObject([
      { state: 'released', log_id: entries.money[0].id },
      { state: 'released', log_id: entries.score[0].id },
    ]);
    await expectLedgersAddUp(member.id);
    expect(await ok(server.api<Row>('account/pendingCredits', { userToken: member.token }))).toMatchObject({ list: [], total: 0, money: '0.00', score: 0 });
    expect(await ok(server.api<Row>('account/getUserData', { userToken: member.token }))).toMatchObject({ balance: '20.00', pending: { money: '0.00', score: 0 } });

    // Released, the money is the member's to pay out.
    expect((await server.api('paymentuser/payout', { userToken: member.token, body: { amount: '15.00' } })).code).toBe(1);
    expect(await balance(member.id)).toMatchObject({ money: 500 });
    await expectLedgersAddUp(member.id);
  });

  it('a sweep counted exactly: each of many due holds released once by two sweeps racing', async () => {
    const provider = await createProvider({ hold_days: 1 });
    const members = await Promise.all([1, 2, 3, 4, 5].map(() => createMember()));
    const surveys = await Promise.all(members.map(() => createSurvey(provider.id)));
    for (const [index, member] of members.entries()) await take(surveys[index], member);
    const due = nowSeconds() + DAY + 60;
    const sweeps = await Promise.all([releaseDueHolds(app(), due), releaseDueHolds(app(), due)]);
    // Holds of the other tests may be due too; these members' ten holds are among what the two released.
    expect(sweeps[0] + sweeps[1]).toBeGreaterThanOrEqual(10);
    for (const member of members) {
      expect(await balance(member.id)).toEqual({ money: 2000, score: 10 });
      expect((await ledger(member.id)).money).toHaveLength(1);
      await expectLedgersAddUp(member.id);
    }
  });

  it('a reverse before the release cancels the held credit and writes nothing to the ledger; after the release it debits', async () => {
    const provider = await createProvider({ hold_days: 3 });
    const surveyId = await createSurvey(provider.id);
    const early = await createMember();
    const late = await createMember();
    const { rid: earlyRid } = await take(surveyId, early);
    const { rid: lateRid } = await take(surveyId, late);

    const reversed = await reconcile('reverse', earlyRid);
    expect(reversed).toMatchObject({ applied: 1 });
    expect(await row('survey_participation', 'rid', earlyRid)).toMatchObject({ status: 'reversed', credit_state: 'reversed' });
    expect((await holds(early.id)).map((hold) => [hold.state, hold.cancel_memo !== ''])).toEqual([['cancelled', true], ['cancelled', true]]);
    expect(await ledger(early.id)).toEqual({ money: [], score: [] });
    expect(await balance(early.id)).toEqual({ money: 0, score: 0 });
    // The participation's history says a pending credit was cancelled.
    const details = await ok(admin<{ row: Row }>('survey.Participation/edit', { query: { id: (await row('survey_participation', 'rid', earlyRid)).id } }));
    expect((details.row.events as Row[]).at(-1)?.payload).toMatchObject({ action: 'reverse', pending_cancelled: true });
    // A cancelled hold is never released, and the member sees nothing pending.
    await releaseDueHolds(app(), nowSeconds() + 4 * DAY);
    expect(await balance(early.id)).toEqual({ money: 0, score: 0 });
    expect(await ok(server.api<Row>('account/pendingCredits', { userToken: early.token }))).toMatchObject({ total: 0, money: '0.00' });

    // Released, then reversed: debited back through the ledger.
    expect(await balance(late.id)).toEqual({ money: 2000, score: 10 });
    await reconcile('reverse', lateRid);
    expect(await balance(late.id)).toEqual({ money: 0, score: 0 });
    expect((await ledger(late.id)).money.map((entry) => Number(entry.money))).toEqual([2000, -2000]);
    await expectLedgersAddUp(early.id);
    await expectLedgersAddUp(late.id);
    const counters = await row('survey', 'id', surveyId);
    expect({ completes: Number(counters.completes), credited: Number(counters.credited_money) }).toEqual({ completes: 0, credited: 0 });
  });

  it('an approval credits or holds as the survey says; a reverse then cancels what is still held', async () => {
    const provider = await createProvider({ hold_days: 2 });
    const surveyId = await createSurvey(provider.id, { consolation_money: '1.00' });
    const member = await createMember();
    const { rid, report } = await take(surveyId, member, 'terminate');
    expect(report).toMatchObject({ status: 'terminate', credited: { money: '1.00', score: 0 } });
    expect(report.available_at).toEqual(expect.any(Number));
    // The consolation is released; the approval's top-up is held afresh.
    await releaseDueHolds(app(), nowSeconds() + 2 * DAY + 1);
    expect(await balance(member.id)).toEqual({ money: 100, score: 0 });
    await reconcile('approve', rid);
    expect(await row('survey_participation', 'rid', rid)).toMatchObject({ status: 'complete', credit_state: 'credited' });
    expect(await balance(member.id)).toEqual({ money: 100, score: 0 });
    const participation = await row('survey_participation', 'rid', rid);
    const topUp = (await holds(member.id)).filter((hold) => hold.state === 'pending');
    expect(topUp.map((hold) => [hold.kind, Number(hold.amount), hold.idempotency_key])).toEqual([
      ['money', 1900, `survey:${participation.id}:approve:money`], ['score', 10, `survey:${participation.id}:approve:score`],
    ]);
    const details = await ok(admin<{ row: Row }>('survey.Participation/edit', { query: { id: participation.id } }));
    expect((details.row.events as Row[]).at(-1)?.payload).toMatchObject({ action: 'approve', available_at: Number(topUp[0].release_at) });

    // Reversed: the released consolation is debited, the held top-up cancelled.
    await reconcile('reverse', rid);
    expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
    expect((await holds(member.id)).map((hold) => hold.state)).toEqual(['released', 'cancelled', 'cancelled']);
    expect((await ledger(member.id)).money.map((entry) => [Number(entry.money), entry.idempotency_key])).toEqual([
      [100, `survey:${participation.id}:credit:money`], [-100, `survey:${participation.id}:credit:money:reverse`],
    ]);
    await expectLedgersAddUp(member.id);
  });

  it('a bulk dry run counts no money for a pending credit or a held approval, and its apply does exactly what it showed', async () => {
    const provider = await createProvider({ hold_days: 3 });
    const surveyId = await createSurvey(provider.id, { consolation_money: '1.00' });
    const pending = await createMember();
    const released = await createMember();
    const screened = await createMember();
    const { rid: pendingRid } = await take(surveyId, pending);
    const { rid: releasedRid } = await take(surveyId, released);
    await releaseDueHolds(app(), nowSeconds() + 3 * DAY + 1);
    // Taken after the sweep (another survey of the provider): this one's credit is still pending.
    const { rid: laterRid } = await take(await createSurvey(provider.id), pending);
    const { rid: screenedRid } = await take(surveyId, screened, 'terminate');
    expect(await balance(pending.id)).toEqual({ money: 2000, score: 10 });

    type Answer = { counts: Row; members: Row[]; totals: Row; rows: Row[]; plan: string; held: number };
    const body = { mode: 'reverse', rids: [releasedRid, laterRid].join('\n'), reason: 'Provider file' };
    const dry = await ok(admin<Answer>('survey.Participation/reconcile', { body: { ...body, dryRun: true } }));
    expect(dry.counts).toMatchObject({ reversed: 2, refused: 0 });
    // The released credit is debited; the pending one is cancelled and moves no balance.
    expect(dry.rows.map((entry) => [entry.rid, entry.money_cents, entry.score])).toEqual([[releasedRid, -2000, -10], [laterRid, 0, 0]]);
    // ... and leaves the member's pending credits.
    expect(dry.members.map((member) => [member.user_id, member.money_cents, member.score, member.pending_money_cents, member.pending_score])).toEqual([[pending.id, 0, 0, -2000, -10], [released.id, -2000, -10, 0, 0]]);
    expect(dry.totals).toEqual({ money_cents: -2000, score: -10, pending_money_cents: -2000, pending_score: -10 });
    expect(dry.held).toBe(0);
    expect(await balance(released.id)).toEqual({ money: 2000, score: 10 });

    const before = { pending: await balance(pending.id), released: await balance(released.id) };
    const applied = await ok(admin<Answer>('survey.Participation/reconcile', { body: { ...body, dryRun: false, plan: dry.plan } }));
    expect(applied.members).toEqual(dry.members);
    expect(await balance(released.id)).toEqual({ money: before.released.money - 2000, score: before.released.score - 10 });
    expect(await balance(pending.id)).toEqual(before.pending);
    const later = await row('survey_participation', 'rid', laterRid);
    expect((await holds(pending.id)).filter((hold) => String(hold.idempotency_key).startsWith(`survey:${later.id}:`)).map((hold) => hold.state)).toEqual(['cancelled', 'cancelled']);
    await expectLedgersAddUp(pending.id);
    await expectLedgersAddUp(released.id);
    // The first complete of the pending member stays as it was.
    expect(await row('survey_participation', 'rid', pendingRid)).toMatchObject({ status: 'complete' });

    // An approval on the held survey: the dry run shows no balance change, the apply holds the top-up.
    const approve = { mode: 'approve', survey_id: surveyId, rids: screenedRid, reason: 'Provider file' };
    const dryApprove = await ok(admin<Answer>('survey.Participation/reconcile', { body: { ...approve, dryRun: true } }));
    expect(dryApprove.rows.map((entry) => [entry.outcome, entry.money_cents, entry.score])).toEqual([['complete', 0, 0]]);
    // What lands as pending, by member: the top-up to the reward and its points.
    expect(dryApprove.held).toBe(1);
    expect(dryApprove.members.map((member) => [member.user_id, member.money_cents, member.score, member.pending_money_cents, member.pending_score])).toEqual([[screened.id, 0, 0, 1900, 10]]);
    expect(dryApprove.totals).toEqual({ money_cents: 0, score: 0, pending_money_cents: 1900, pending_score: 10 });
    const screenedBefore = await balance(screened.id);
    const pendingBefore = (await holds(screened.id)).filter((hold) => hold.state === 'pending');
    const appliedApprove = await ok(admin<Answer>('survey.Participation/reconcile', { body: { ...approve, dryRun: false, plan: dryApprove.plan } }));
    expect({ members: appliedApprove.members, totals: appliedApprove.totals, held: appliedApprove.held }).toEqual({ members: dryApprove.members, totals: dryApprove.totals, held: dryApprove.held });
    expect(await balance(screened.id)).toEqual(screenedBefore);
    // The holds written are exactly the pending figures the dry run showed.
    const newHolds = (await holds(screened.id)).filter((hold) => hold.state === 'pending' && !pendingBefore.some((before) => before.id === hold.id));
    const heldOf = (kind: string) => newHolds.filter((hold) => hold.kind === kind).reduce((sum, hold) => sum + Number(hold.amount), 0);
    expect([heldOf('money'), heldOf('score')]).toEqual([dryApprove.totals.pending_money_cents, dryApprove.totals.pending_score]);
    const approved = await row('survey_participation', 'rid', screenedRid);
    expect(approved).toMatchObject({ status: 'complete', credit_state: 'credited' });
    expect(Number(approved.credited_money)).toBe(2000);
    // The consolation (still pending) and the approval's top-up, each under its own key.
    expect((await holds(screened.id)).map((hold) => [hold.state, hold.kind, Number(hold.amount), hold.idempotency_key])).toEqual([
      ['pending', 'money', 100, `survey:${approved.id}:credit:money`],
      ['pending', 'money', 1900, `survey:${approved.id}:approve:money`],
      ['pending', 'score', 10, `survey:${approved.id}:approve:score`],
    ]);
    await expectLedgersAddUp(screened.id);
  });

  it('a survey’s own hold period overrides its provider’s; empty uses the provider’s, 0 pays at once; bad periods are refused', async () => {
    const holding = await createProvider({ hold_days: 5 });
    const paying = await createProvider();
    expect(Number(paying.hold_days)).toBe(0);
    const member = await createMember();

    const atOnce = await createSurvey(holding.id, { hold_days: 0 });
    expect((await take(atOnce, member)).report).not.toHaveProperty('available_at');
    expect(await balance(member.id)).toEqual({ money: 2000, score: 10 });

    // The form sends an emptied number as null.
    const providers = await createSurvey(holding.id, { hold_days: null });
    expect((await row('survey', 'id', providers)).hold_days).toBeNull();
    const fiveDays = (await take(providers, member)).report;
    expect(Number(fiveDays.available_at)).toBeGreaterThanOrEqual(nowSeconds() + 5 * DAY - 60);

    const ownHold = await createSurvey(paying.id, { hold_days: 2 });
    const twoDays = (await take(ownHold, member)).report;
    expect(Number(twoDays.available_at)).toBeLessThanOrEqual(nowSeconds() + 2 * DAY);
    expect(await balance(member.id)).toEqual({ money: 2000, score: 10 });

    for (const [path, body] of [['survey.Provider/add', { code: `bad${kind}`, name: 'Bad', secret: SECRET, hold_days: -1 }], ['survey.Survey/edit', { id: ownHold, hold_days: 400 }]] as const) {
      const answer = await admin(path, { body, lang: 'en' });
      expect(answer.code).toBe(0);
      expect(answer.msg).toContain('Hold period (days)');
      const zh = await admin(path, { body, lang: 'zh-cn' });
      expect(zh.msg).toContain('待入账天数');
    }
    expect(Number((await row('survey', 'id', ownHold)).hold_days)).toBe(2);
    await expectLedgersAddUp(member.id);
  });

  it('a hold period left blank (a cleared form field) is not set: a survey follows its provider, a provider holds nothing; a bad one is refused in either language and changes nothing', async () => {
    const blankProvider = await createProvider({ hold_days: '' });
    expect(Number(blankProvider.hold_days)).toBe(0);
    const holding = await createProvider({ hold_days: 4 });
    // a survey added or edited with the field cleared follows its provider's hold period
    const added = await createSurvey(holding.id, { hold_days: '' });
    expect((await row('survey', 'id', added)).hold_days).toBeNull();
    const edited = await createSurvey(holding.id, { hold_days: 1 });
    await ok(admin('survey.Survey/edit', { body: { id: edited, hold_days: '' } }));
    expect((await row('survey', 'id', edited)).hold_days).toBeNull();
    const member = await createMember();
    const report = (await take(edited, member)).report;
    expect(Number(report.available_at)).toBeGreaterThanOrEqual(nowSeconds() + 4 * DAY - 60);
    expect(await balance(member.id)).toEqual({ money: 0, score: 0 });
    // a provider's cleared hold period holds nothing again
    await ok(admin('survey.Provider/edit', { body: { id: holding.id, hold_days: '' } }));
    expect(Number((await row('survey_provider', 'id', holding.id)).hold_days)).toBe(0);
    await ok(admin('survey.Provider/edit', { body: { id: holding.id, hold_days: 4 } }));
    for (const [path, id] of [['survey.Provider/edit', holding.id], ['survey.Survey/edit', edited]] as const) {
      for (const [value, en, zh] of [['abc', 'Hold period (days) must be an integer', '待入账天数必须是整数'], ['-3', 'Hold period (days) must not be less than 0', '待入账天数不能小于 0']]) {
        const answer = await admin(path, { body: { id, hold_days: value }, lang: 'en' });
        expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 0, msg: en });
        expect((await admin(path, { body: { id, hold_days: value }, lang: 'zh-cn' })).msg).toBe(zh);
      }
    }
    expect(Number((await row('survey_provider', 'id', holding.id)).hold_days)).toBe(4);
    expect((await row('survey', 'id', edited)).hold_days).toBeNull();
    const refusedAdd = await admin('survey.Provider/add', { body: { code: `blank${kind}`, name: 'Blank', secret: SECRET, hold_days: 'x' }, lang: 'en' });
    expect(refusedAdd.code).toBe(0);
    expect(await db().selectFrom('survey_provider').select('id').where('code', '=', `blank${kind}`).executeTakeFirst()).toBeUndefined();
    await expectLedgersAddUp(member.id);
  });

  it('moves holds and credits only as their schemas declare: cancelling a released hold is refused in the reader\'s language and changes nothing', async () => {
    const provider = await createProvider({ hold_days: 1 });
    const surveyId = await createSurvey(provider.id);
    const member = await createMember();
    const { rid } = await take(surveyId, member);
    await releaseDueHolds(app(), nowSeconds() + DAY + 60);
    const released = await holds(member.id);
    expect(released.map((hold) => hold.state)).toEqual(['released', 'released']);
    const before = { balance: await balance(member.id), ledger: await ledger(member.id) };
    expect(before.balance).toEqual({ money: 2000, score: 10 });

    /** What a move answers: the refusal, in both languages. */
    async function refusalOf(move: Promise<unknown>): Promise<Record<'en' | 'zh-cn', string>> {
      const error = await move.then(() => undefined, (reason: unknown) => reason);
      if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
      expect(error.id).toBe('invalidTransition');
      return { en: app().messages.translator('en')(error.msg, error.params), 'zh-cn': app().messages.translator('zh-cn')(error.msg, error.params) };
    }
    const actor = { adminId: 0, ip: '127.0.0.1', userAgent: 'test' };

    // A reversal's cancel of what it found pending, reaching holds the sweep released meanwhile.
    const cancel = app().db.transaction().execute((trx) => cancelPendingHolds(app(), trx, actor, released.map((hold) => Number(hold.id)), 'Provider file'));
    expect(await refusalOf(cancel)).toEqual({ en: 'State cannot change from "Available" to "Cancelled"', 'zh-cn': '状态不能从“已入账”变更为“已取消”' });
    expect(await holds(member.id)).toEqual(released);
    expect({ balance: await balance(member.id), ledger: await ledger(member.id) }).toEqual(before);

    // A participation's credit moves as its schema declares too: a credited reward is never held afterwards.
    const participation = await row('survey_participation', 'rid', rid);
    expect(participation.credit_state).toBe('credited');
    const hold = app().db.transaction().execute((trx) => updateDomainRow(actor, trx, { definition: resourceByTable(app(), 'survey_participation'), existing: participation, changes: { credit_state: 'held' } }));
    expect(await refusalOf(hold)).toEqual({ en: 'Credit cannot change from "Credited" to "Held for review"', 'zh-cn': '奖励发放不能从“已发放”变更为“待审核”' });
    expect(await row('survey_participation', 'rid', rid)).toEqual(participation);
  });

  it('the back office lists the holds read-only, amounts as their ledgers show them; the survey-holds job releases what is due', async () => {
    const provider = await createProvider({ hold_days: 1 });
    const surveyId = await createSurvey(provider.id, { reward_money: '2.50', reward_score: 30 });
    const member = await createMember();
    await take(surveyId, member);
    // 会员管理 › 待入账: a list to read and export, no node to change a row.
    const menu = await row('admin_rule', 'name', 'user/creditHold');
    expect(menu).toMatchObject({ type: 'menu', title: '待入账' });
    const nodes = (await db().selectFrom('admin_rule').select('name').where('pid', '=', Number(menu.id)).execute()).map((rule) => rule.name).sort();
    expect(nodes).toEqual(['user/creditHold/export', 'user/creditHold/index']);
    const list = await ok(admin<{ list: Row[]; total: number }>('user.CreditHold/index', { query: { search: [{ field: 'user_id', val: member.id, operator: '=' }] }, lang: 'en' }));
    expect(list.total).toBe(2);
    expect(list.list.map((hold) => [hold.kind, hold.amount_shown, hold.state])).toEqual([['score', '30', 'pending'], ['money', '2.50', 'pending']]);
    expect(list.list[0].memo).toContain('Survey reward: ');
    expect(list.list[0]).not.toHaveProperty('idempotency_key');
    for (const action of ['add', 'del']) {
      const refused = await admin(`user.CreditHold/${action}`, { body: { ids: [list.list[0].id], user_id: member.id, amount: 1 }, lang: 'en' });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'Pending credits change only by their release or a reversal' });
    }
    const zhRefused = await admin('user.CreditHold/edit', { body: { id: list.list[0].id, state: 'released' }, lang: 'zh-cn' });
    expect(zhRefused.msg).toBe('待入账记录只会在到期入账或被撤销时变化');
    expect((await holds(member.id)).map((hold) => hold.state)).toEqual(['pending', 'pending']);

    // The job as the runner calls it: a hold whose day has come is released by it.
    const job = JOBS.find((entry) => entry.name === 'survey-holds');
    expect(job).toMatchObject({ everySeconds: 60 });
    await db().updateTable('user_credit_hold').set({ release_at: nowSeconds() - 1 }).where('user_id', '=', member.id).execute();
    await job?.run(app());
    expect(await balance(member.id)).toEqual({ money: 250, score: 30 });
    await expectLedgersAddUp(member.id);
  });
});
