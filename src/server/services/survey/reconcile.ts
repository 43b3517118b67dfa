import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ReconcileMode, ReconcileOutcome } from '../../../contract/reconcile.js';
import { sameText } from '../../../schema/local-text.js';
import { resourceByTable, type AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import type { Db } from '../../db/connection.js';
import { valueById } from '../../db/value-by-id.js';
import { checkDomainWrites, domainMoveAllowed } from '../../writes/domain-writes.js';
import type { Actor } from '../../writes/sensitive-log.js';
import { errors, type ApiError } from '../../errors.js';
import { cancelPendingHolds, creditOrHold } from '../holds.js';
import type { StoredParam } from '../../stored-text.js';
import { applyLedgerEntries, ledgerNotes, type LedgerKind } from '../ledger.js';
import {
  appendEvents, holdDaysOf, isTestRid, lockRow, participationLabel, REWARD_KINDS, rewardKey, type CreditState, type ParticipationRow,
} from './participations.js';

import { reasonParam } from './reversal-reasons.js';
/**
 * Reconciliation (docs/survey-domain.md#reconciliation): a provider says which completes it accepts, and
 * an administrator applies that to the participations, from a list of ids or the provider's file.
 *
 * One function plans (`planReconciliation`): it matches the ids, decides each participation's change and
 * follows every member's balance and every survey's quota through the list in the order it is applied.
 * The dry run is that plan, read without locks; applying plans again in its transaction, under the
 * locks, and writes exactly what that plan says, all or nothing. So the dry run's figures are what
 * applying does, and a plan that no longer matches the dry run's (`plan` token) is refused whole.
 *
 * Hold periods (docs/survey-domain.md#hold-period) are followed as `holds.ts` defines them: a reversal
 * takes back each credit of the participation by its own key, cancelling one still pending (no ledger
 * entry, no balance change) and debiting one available under `<credit key>:reverse`; an approval is
 * credited at once or held by the survey's (or its provider's) hold period. A step's `money` and `score`
 * are what the member's balance and points do, so a pending credit moves neither.
 */

/**
 * Most ids one reconciliation lists. A provider's reconciliation file covers a survey's completes, often
 * thousands; 10,000 apply in one transaction in seconds (measured in docs/survey-domain.md#reconciliation).
 */
export const RECONCILE_LIMIT = 10_000;

type Status = ParticipationRow['status'];

/** The change a plan makes to one participation. */
type Change = 'reverse' | 'approve';

interface QuotaRaise {
  surveyId: number;
  from: number;
  to: number;
}

/** One credit a reversal takes back: still pending (its hold is cancelled) or available (debited). */
interface CreditPart {
  kind: LedgerKind;
  /** the key the credit was made with, `survey:<participation>:credit|approve:money|score` */
  key: string;
  state: 'pending' | 'available';
  /** cents or points, positive */
  amount: number;
  /** the hold row of a pending credit */
  holdId?: number;
}

/** What happens to one listed id, or to one complete the list left out (`complete_only`). */
export interface ReconcileStep {
  /** the id as listed, '' for a complete the list left out */
  listed: string;
  matched: 'rid' | 'provider_txid' | '';
  participation?: ParticipationRow;
  change?: Change;
  outcome: ReconcileOutcome;
  from: Status | '';
  to: Status | '';
  fromCredit: CreditState | '';
  credit: CreditState | '';
  /** the member's balance change in cents, and points change: nothing for a credit pending or held */
  money: number;
  score: number;
  /**
   * what the member's pending credits (held, not yet available) change by, in cents and points: an approval
   * held for its hold period adds its top-up, a reversal cancels the credits still pending
   */
  pendingMoney: number;
  pendingScore: number;
  /** what the participation's credited amounts change by (a held credit counts as credited) */
  creditMoney: number;
  creditScore: number;
  /** a reversal's credits, each taken back by its own key */
  parts?: CreditPart[];
  /** an approval's hold period in days (0: credited at once) */
  holdDays?: number;
  /** why it is refused */
  error?: ApiError;
  quotaFull?: boolean;
  raised?: QuotaRaise;
}

export interface ReconcileInput {
  mode: ReconcileMode;
  surveyId: number | null;
  ids: string[];
  raiseQuota: boolean;
}

interface MemberFigures {
  userId: number;
  username: string;
  money: number;
  score: number;
  /** what lands as pending (held) rather than available, or leaves the pending credits */
  pendingMoney: number;
  pendingScore: number;
}

export interface ReconcilePlan {
  input: ReconcileInput;
  /** in the order applying takes them: in `complete_only` the reversals first, which free quota */
  steps: ReconcileStep[];
  counts: Record<ReconcileOutcome, number>;
  /** the members whose participations change, by member id */
  members: MemberFigures[];
  /** identifies the plan: applying with a dry run's token refuses when the plan is another */
  token: string;
  /** the titles of the surveys that change, for the ledger notes */
  surveyTitles: Map<number, string>;
}

/** Values of one `in (…)` list: well inside what SQLite and PostgreSQL take as parameters. */
const IN_LIST = 500;

function slices<T>(list: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < list.length; start += IN_LIST) result.push(list.slice(start, start + IN_LIST));
  return result;
}

/** The participations whose `column` is one of `values` (within one survey when given), locked when applying. */
async function participationsWhere(app: AppContext, db: Db, column: 'rid' | 'provider_txid', values: readonly string[], surveyId: number | null, lock: boolean): Promise<ParticipationRow[]> {
  const rows: ParticipationRow[] = [];
  for (const slice of slices(values)) {
    let query = db.selectFrom('survey_participation').selectAll().where(column, 'in', slice);
    if (surveyId !== null) query = query.where('survey_id', '=', surveyId);
    query = query.orderBy('id');
    rows.push(...(await (lock ? lockRow(app, query) : query).execute()));
  }
  return rows;
}

function refusal(listed: string, participation: ParticipationRow | undefined, error: ApiError, matched: ReconcileStep['matched'] = ''): ReconcileStep {
  const from = participation?.status ?? '';
  const fromCredit = participation?.credit_state ?? '';
  return { listed, matched, participation, outcome: 'refused', from, to: '', fromCredit, credit: fromCredit, money: 0, score: 0, pendingMoney: 0, pendingScore: 0, creditMoney: 0, creditScore: 0, error };
}

/** The change the mode asks of a matched participation, before balances and quotas are counted. */
function stepFor(app: AppContext, mode: ReconcileMode, listed: string, matched: ReconcileStep['matched'], participation: ParticipationRow): ReconcileStep {
  const from = participation.status;
  const fromCredit = participation.credit_state;
  const base = { listed, matched, participation, from, fromCredit };
  const refuse = (to: Status) => refusal(listed, participation, errors.cannotReconcile(participationLabel(app, 'status', from), participationLabel(app, 'status', to)), matched);
  // The balance figures are set once the credits' holds are known (`withCredits`).
  const reverse = (): ReconcileStep => ({
    ...base, change: 'reverse', outcome: 'reversed', to: 'reversed', credit: fromCredit === 'credited' ? 'reversed' : 'none',
    money: 0, score: 0, pendingMoney: 0, pendingScore: 0, creditMoney: -Number(participation.credited_money), creditScore: -Number(participation.credited_score),
  });
  // A consolation already paid for a screen-out is topped up to the reward, never paid twice.
  const approve = (): ReconcileStep => ({
    ...base, change: 'approve', outcome: 'complete', to: 'complete', credit: 'credited', money: 0, score: 0, pendingMoney: 0, pendingScore: 0,
    creditMoney: Math.max(0, Number(participation.reward_money) - Number(participation.credited_money)),
    creditScore: Math.max(0, Number(participation.reward_score) - Number(participation.credited_score)),
  });
  // Which statuses may be reversed or approved into a complete is the schema's `x-transitions`.
  const may = (to: Status) => domainMoveAllowed(resourceByTable(app, 'survey_participation'), 'status', participation, to);
  if (mode === 'reverse') return may('reversed') ? reverse() : refuse('reversed');
  if (from === 'complete' && fromCredit === 'held') return approve();
  if (may('complete')) return approve();
  if (mode === 'complete_only' && from === 'complete') return { ...base, outcome: 'unchanged', to: from, credit: fromCredit, money: 0, score: 0, pendingMoney: 0, pendingScore: 0, creditMoney: 0, creditScore: 0 };
  return refuse('complete');
}

type Match = { row: ParticipationRow; matched: 'rid' | 'provider_txid' } | { refused: ReconcileStep };

/**
 * A listed id's participation: first as our rid, then as the provider's transaction id, within the
 * chosen survey (a rid of another survey is refused as such), or across all surveys when none is chosen
 * (a transaction id on several participations is refused as ambiguous).
 */
function matchListed(input: ReconcileInput, listed: string, byRid: Map<string, ParticipationRow>, byTxid: Map<string, ParticipationRow[]>): Match {
  const own = byRid.get(listed);
  if (own) {
    if (input.surveyId !== null && Number(own.survey_id) !== input.surveyId) return { refused: refusal(listed, own, errors.reconcileIdOtherSurvey(Number(own.survey_id)), 'rid') };
    return { row: own, matched: 'rid' };
  }
  const theirs = byTxid.get(listed) ?? [];
  if (theirs.length === 1) return { row: theirs[0], matched: 'provider_txid' };
  if (theirs.length > 1) return { refused: refusal(listed, undefined, errors.reconcileTxidAmbiguous(theirs.length), 'provider_txid') };
  return { refused: refusal(listed, undefined, input.surveyId === null ? errors.reconcileIdUnknown() : errors.reconcileIdUnknownInSurvey(input.surveyId)) };
}

/** The steps of the listed ids, in the order listed, and (`complete_only`) the reversals of the completes left out. */
async function matchedSteps(app: AppContext, db: Db, input: ReconcileInput, lock: boolean): Promise<{ listed: ReconcileStep[]; unlisted: ReconcileStep[] }> {
  const rids = input.ids.filter((id) => id.length <= 64 && !isTestRid(id));
  const byRid = new Map((await participationsWhere(app, db, 'rid', rids, null, lock)).map((row) => [row.rid, row]));
  const others = input.ids.filter((id) => !byRid.has(id));
  const byTxid = new Map<string, ParticipationRow[]>();
  for (const row of await participationsWhere(app, db, 'provider_txid', others, input.surveyId, lock)) {
    const txid = row.provider_txid ?? '';
    byTxid.set(txid, [...(byTxid.get(txid) ?? []), row]);
  }
  const seen = new Map<number, string>();
  const listed = input.ids.map((id): ReconcileStep => {
    const found = matchListed(input, id, byRid, byTxid);
    if ('refused' in found) return found.refused;
    const before = seen.get(found.row.id);
    if (before !== undefined) return refusal(id, found.row, errors.reconcileListedTwice(sameText(before)), found.matched);
    seen.set(found.row.id, id);
    return stepFor(app, input.mode, id, found.matched, found.row);
  });
  if (input.mode !== 'complete_only' || input.surveyId === null) return { listed, unlisted: [] };
  // A list matching nothing of the survey would only reverse its completes: a wrong file or survey.
  if (seen.size === 0) throw errors.reconcileNoneMatched(input.surveyId);
  let completes = db.selectFrom('survey_participation').selectAll().where('survey_id', '=', input.surveyId).where('status', '=', 'complete').orderBy('id');
  if (lock) completes = lockRow(app, completes);
  const unlisted = (await completes.execute()).filter((row) => !seen.has(row.id)).map((row) => stepFor(app, 'reverse', '', '', row));
  return { listed, unlisted };
}

/** An approval taking a complete from its survey's quota: a terminate or timeout (a held complete has its place already). */
function takesQuota(step: ReconcileStep): boolean {
  return step.change === 'approve' && step.from !== 'complete';
}

interface SurveyFigures {
  title: string;
  completes: number;
  quota: number;
  /** days its credits are held (the survey's own hold period, else its provider's) */
  holdDays: number;
}

/** The surveys and members the changes touch, locked when applying: surveys first, then members, as returns lock them. */
async function touched(app: AppContext, db: Db, steps: readonly ReconcileStep[], lock: boolean) {
  const changing = steps.filter((step) => step.change && step.participation);
  const surveyIds = [...new Set(changing.map((step) => Number(step.participation?.survey_id)))].sort((a, b) => a - b);
  const userIds = [...new Set(changing.map((step) => Number(step.participation?.user_id)))].sort((a, b) => a - b);
  const surveys = new Map<number, SurveyFigures>();
  for (const slice of slices(surveyIds)) {
    const query = db.selectFrom('survey').selectAll().where('id', 'in', slice).orderBy('id');
    for (const row of await (lock ? lockRow(app, query) : query).execute()) {
      surveys.set(Number(row.id), { title: row.title, completes: Number(row.completes), quota: Number(row.quota_total), holdDays: await holdDaysOf(db, row) });
    }
  }
  const users = new Map<number, MemberFigures>();
  for (const slice of slices(userIds)) {
    const query = db.selectFrom('user').select(['id', 'username', 'money', 'score']).where('id', 'in', slice).orderBy('id');
    for (const row of await (lock ? lockRow(app, query) : query).execute()) users.set(Number(row.id), { userId: Number(row.id), username: row.username, money: Number(row.money), score: Number(row.score), pendingMoney: 0, pendingScore: 0 });
  }
  return { surveys, users };
}

/** The keys a participation may have been credited under: its final status's credit, then an approval's top-up. */
function creditKeys(participationId: number): { kind: LedgerKind; key: string }[] {
  return (['credit', 'approve'] as const).flatMap((stage) => REWARD_KINDS.map((kind) => ({ kind, key: rewardKey(participationId, stage, kind) })));
}

interface CreditRecords {
  /** the hold rows by credit key, locked when applying */
  holds: Map<string, { id: number; state: string; amount: number; kind: string }>;
  /** the ledger entries' amounts by kind and credit key */
  entries: Record<LedgerKind, Map<string, number>>;
}

/**
 * The holds and ledger entries of the reversals' credits, read by their keys. Locked when applying, and
 * before the members: the release of a hold locks the hold, then the member, and so does this.
 */
async function creditRecords(app: AppContext, db: Db, steps: readonly ReconcileStep[], lock: boolean): Promise<CreditRecords> {
  const keys = steps.filter((step) => step.change === 'reverse' && step.participation).flatMap((step) => creditKeys(Number(step.participation?.id)).map((credit) => credit.key));
  const records: CreditRecords = { holds: new Map(), entries: { money: new Map(), score: new Map() } };
  for (const slice of slices(keys)) {
    const holds = db.selectFrom('user_credit_hold').select(['id', 'idempotency_key', 'state', 'amount', 'kind']).where('idempotency_key', 'in', slice).orderBy('id');
    for (const row of await (lock ? lockRow(app, holds) : holds).execute()) {
      records.holds.set(row.idempotency_key, { id: Number(row.id), state: row.state, amount: Number(row.amount), kind: row.kind });
    }
    for (const row of await db.selectFrom('user_money_log').select(['idempotency_key', 'before', 'after']).where('idempotency_key', 'in', slice).execute()) {
      if (row.idempotency_key) records.entries.money.set(row.idempotency_key, Number(row.after) - Number(row.before));
    }
    for (const row of await db.selectFrom('user_score_log').select(['idempotency_key', 'before', 'after']).where('idempotency_key', 'in', slice).execute()) {
      if (row.idempotency_key) records.entries.score.set(row.idempotency_key, Number(row.after) - Number(row.before));
    }
  }
  return records;
}

/**
 * Each change's effect on the member's balance and points, by the rules of `holds.ts`: a reversal takes
 * back every credit by its own key (a pending one is cancelled and moves nothing, an available one is
 * debited by what it credited, a cancelled one is gone already); an approval moves the balance only when
 * its survey's hold period is 0, else its top-up is held.
 */
function withCredits(steps: readonly ReconcileStep[], records: CreditRecords, surveys: Map<number, SurveyFigures>): ReconcileStep[] {
  return steps.map((step) => {
    if (!step.change || !step.participation) return step;
    if (step.change === 'approve') {
      const holdDays = surveys.get(Number(step.participation.survey_id))?.holdDays ?? 0;
      return holdDays > 0
        ? { ...step, holdDays, money: 0, score: 0, pendingMoney: step.creditMoney, pendingScore: step.creditScore }
        : { ...step, holdDays, money: step.creditMoney, score: step.creditScore };
    }
    const parts: CreditPart[] = [];
    for (const { kind, key } of creditKeys(Number(step.participation.id))) {
      const hold = records.holds.get(key);
      if (hold?.state === 'cancelled') continue;
      if (hold?.state === 'pending') {
        parts.push({ kind, key, state: 'pending', amount: hold.amount, holdId: hold.id });
        continue;
      }
      const amount = records.entries[kind].get(key);
      if (amount !== undefined && amount !== 0) parts.push({ kind, key, state: 'available', amount });
    }
    const taken = (kind: LedgerKind, state: CreditPart['state']) => parts.filter((part) => part.kind === kind && part.state === state).reduce((sum, part) => sum + part.amount, 0);
    return { ...step, parts, money: -taken('money', 'available'), score: -taken('score', 'available'), pendingMoney: -taken('money', 'pending'), pendingScore: -taken('score', 'pending') };
  });
}

/**
 * Follows the changes in order through each survey's quota and each member's balance: an approval on a
 * full survey is refused unless the quota may be raised (then it records the raise), a reversal frees a
 * place, and a debit the balance (or the points) cannot cover is refused.
 */
function countThrough(steps: ReconcileStep[], surveys: Map<number, SurveyFigures>, users: Map<number, MemberFigures>, raiseQuota: boolean): ReconcileStep[] {
  const quota = new Map([...surveys].map(([id, survey]) => [id, { completes: survey.completes, quota: survey.quota }]));
  const balance = new Map([...users].map(([id, user]) => [id, { money: user.money, score: user.score }]));
  return steps.map((step) => {
    if (!step.change || !step.participation) return step;
    const surveyId = Number(step.participation.survey_id);
    const counts = quota.get(surveyId) ?? { completes: 0, quota: 0 };
    const own = balance.get(Number(step.participation.user_id)) ?? { money: 0, score: 0 };
    let raised: QuotaRaise | undefined;
    if (takesQuota(step) && counts.quota !== 0 && counts.completes >= counts.quota) {
      if (!raiseQuota) return { ...refusal(step.listed, step.participation, errors.reconcileQuotaFull(surveyId, counts.completes, counts.quota), step.matched), quotaFull: true };
      raised = { surveyId, from: counts.quota, to: counts.completes + 1 };
    }
    if (own.money + step.money < 0) return refusal(step.listed, step.participation, errors.reconcileBalanceShort(), step.matched);
    if (own.score + step.score < 0) return refusal(step.listed, step.participation, errors.reconcilePointsShort(), step.matched);
    own.money += step.money;
    own.score += step.score;
    if (takesQuota(step)) counts.completes += 1;
    if (step.change === 'reverse') counts.completes -= 1;
    if (raised) counts.quota = raised.to;
    return raised ? { ...step, raised } : step;
  });
}

const OUTCOMES: readonly ReconcileOutcome[] = ['complete', 'reversed', 'unchanged', 'refused'];

function countsOf(steps: readonly ReconcileStep[]): Record<ReconcileOutcome, number> {
  const counts = { complete: 0, reversed: 0, unchanged: 0, refused: 0 };
  for (const step of steps) counts[step.outcome] += 1;
  return counts;
}

/**
 * The plan's token: its counts, then a digest of every step (which participation, from what to what,
 * the money and points, why refused, the quota raised), so two plans share it only when they do the same.
 */
function tokenOf(input: ReconcileInput, steps: readonly ReconcileStep[], counts: Record<ReconcileOutcome, number>): string {
  const digest = createHash('sha256').update(JSON.stringify([
    input.mode, input.surveyId, input.raiseQuota,
    steps.map((step) => [
      step.listed, step.participation?.id ?? null, step.outcome, step.from, step.to, step.credit, step.money, step.score, step.pendingMoney, step.pendingScore, step.creditMoney, step.creditScore,
      step.holdDays ?? null, (step.parts ?? []).map((part) => [part.key, part.state, part.amount]), step.error?.msg ?? '', step.raised?.from ?? null, step.raised?.to ?? null,
    ]),
  ])).digest('hex');
  return ['v1', ...OUTCOMES.map((outcome) => counts[outcome]), digest.slice(0, 32)].join('.');
}

/** The counts a token carries (complete, reversed, unchanged, refused), or undefined for anything else. */
function countsOfToken(token: string): number[] | undefined {
  const parts = token.split('.');
  if (parts.length !== 6 || parts[0] !== 'v1' || !/^[0-9a-f]{32}$/.test(parts[5])) return undefined;
  const counts = parts.slice(1, 5).map(Number);
  return counts.every((count) => Number.isSafeInteger(count) && count >= 0) ? counts : undefined;
}

/** What a reconciliation would do, read from `db` (locked when `lock`, inside the applying transaction). */
async function planOn(app: AppContext, db: Db, input: ReconcileInput, lock: boolean): Promise<ReconcilePlan> {
  if (input.mode === 'complete_only' && input.surveyId === null) throw errors.reconcileSurveyRequired();
  if (input.surveyId !== null && !(await db.selectFrom('survey').select('id').where('id', '=', input.surveyId).executeTakeFirst())) {
    throw errors.reconcileSurveyUnknown(input.surveyId);
  }
  const { listed, unlisted } = await matchedSteps(app, db, input, lock);
  const ordered = [...unlisted, ...listed];
  const records = await creditRecords(app, db, ordered, lock);
  const { surveys, users } = await touched(app, db, ordered, lock);
  const steps = countThrough(withCredits(ordered, records, surveys), surveys, users, input.raiseQuota);
  const counts = countsOf(steps);
  const figures = new Map<number, MemberFigures>();
  for (const step of steps) {
    if (!step.change || !step.participation) continue;
    const userId = Number(step.participation.user_id);
    const member = figures.get(userId) ?? { userId, username: users.get(userId)?.username ?? '', money: 0, score: 0, pendingMoney: 0, pendingScore: 0 };
    member.money += step.money;
    member.score += step.score;
    member.pendingMoney += step.pendingMoney;
    member.pendingScore += step.pendingScore;
    figures.set(userId, member);
  }
  const members = [...figures.values()].sort((a, b) => a.userId - b.userId);
  return { input, steps, counts, members, token: tokenOf(input, steps, counts), surveyTitles: new Map([...surveys].map(([id, survey]) => [id, survey.title])) };
}

/** The dry run: the plan as the records stand, changing nothing. */
export async function planReconciliation(app: AppContext, input: ReconcileInput): Promise<ReconcilePlan> {
  return planOn(app, app.db, input, false);
}

interface ApplyContext {
  adminId: number;
  /** stored text: the administrator's own words, or a reason of ours as a stored message (`reversal-reasons.ts`) */
  reason: string;
  /** a provider's own words beside `reason`, as it sent them (its reversal callback) */
  providerReason?: string;
  ip: string;
  /** the dry run's token; without it (the single-action callers of before) the plan is applied as it stands */
  plan?: string;
}

/** Applying reconciliations one after another on PostgreSQL ("reconc" in ASCII): two never lock each other's rows in turn. */
const RECONCILE_LOCK = 0x7265636f6e63;

interface SurveyChange {
  completes: number;
  terminates: number;
  timeouts: number;
  credited: number;
  quota?: number;
}

/** A step that changes its participation. */
type ChangingStep = ReconcileStep & { change: Change; participation: ParticipationRow; to: Status; credit: CreditState };

function isChanging(step: ReconcileStep): step is ChangingStep {
  return step.change !== undefined && step.participation !== undefined && step.to !== '' && step.credit !== '';
}

/** Rows of one update: well inside what SQLite and PostgreSQL take as parameters. */
const UPDATE_SLICE = 200;

type LogIds = Map<number, { money_log_id?: number; score_log_id?: number }>;

/** The ledger note of a change, in the member's language when read. */
function memoOf(step: ChangingStep, titles: Map<number, string>, reason: StoredParam): string {
  const participation = step.participation;
  const survey = { id: participation.survey_id, title: titles.get(Number(participation.survey_id)) ?? '' };
  return step.change === 'reverse' ? ledgerNotes.surveyRewardReversed(survey, reason) : ledgerNotes.surveyRewardReconciled(survey, reason);
}

/**
 * The ledger entries of the changes, in the order applied, through the ledger's batch (one transaction
 * with the rest): a reversal debits each available credit under `<credit key>:reverse`, an approval paid
 * at once credits `survey:<participation>:approve:money|score` (the key `creditOrHold` would use), so
 * each applies once. Answers the entries' ids by participation, for the approvals that keep them.
 */
async function writeLedger(app: AppContext, trx: Db, steps: readonly ChangingStep[], titles: Map<number, string>, reason: StoredParam): Promise<LogIds> {
  const inputs = steps.flatMap((step) => {
    const participation = step.participation;
    const memo = memoOf(step, titles, reason);
    if (step.change === 'reverse') {
      return (step.parts ?? [])
        .filter((part) => part.state === 'available')
        .map((part) => ({ step, kind: part.kind, userId: participation.user_id, amount: -part.amount, memo, idempotencyKey: `${part.key}:reverse` }));
    }
    if ((step.holdDays ?? 0) > 0) return [];
    return REWARD_KINDS
      .filter((kind) => (kind === 'money' ? step.money : step.score) > 0)
      .map((kind) => ({ step, kind, userId: participation.user_id, amount: kind === 'money' ? step.money : step.score, memo, idempotencyKey: rewardKey(participation.id, 'approve', kind) }));
  });
  const entries = await applyLedgerEntries(trx, app.handle.dialect, inputs);
  const logs: LogIds = new Map();
  entries.forEach((entry, index) => {
    const { step, kind } = inputs[index];
    // A key used before applies nothing: the plan's figures would not be what happened.
    if (!entry.applied) throw new Error(`reconcile: the ledger key of participation ${step.participation.id} was used before`);
    if (step.change !== 'approve') return;
    logs.set(step.participation.id, { ...logs.get(step.participation.id), [kind === 'money' ? 'money_log_id' : 'score_log_id']: entry.id });
  });
  return logs;
}

/**
 * The holds of the changes: a reversal cancels each credit still pending (its row locked since the plan
 * read it, so a release cannot slip in between); an approval on a survey with a hold period holds its
 * top-up (`creditOrHold`). Answers when each held approval becomes available, by participation.
 */
async function writeHolds(app: AppContext, trx: Db, actor: Actor, steps: readonly ChangingStep[], titles: Map<number, string>, reason: StoredParam): Promise<Map<number, number>> {
  const cancelled = steps.flatMap((step) => (step.change === 'reverse' ? (step.parts ?? []).filter((part) => part.state === 'pending').map((part) => ({ id: part.holdId as number, memo: memoOf(step, titles, reason) })) : []));
  // Every reversal of one list shares its memo but for the survey's title: one batch a memo.
  const byMemo = new Map<string, number[]>();
  for (const hold of cancelled) byMemo.set(hold.memo, [...(byMemo.get(hold.memo) ?? []), hold.id]);
  for (const [memo, ids] of byMemo) await cancelPendingHolds(app, trx, actor, ids, memo);
  const availableAt = new Map<number, number>();
  for (const step of steps) {
    const holdDays = step.holdDays ?? 0;
    if (step.change !== 'approve' || holdDays === 0) continue;
    const participation = step.participation;
    for (const kind of REWARD_KINDS) {
      const amount = kind === 'money' ? step.creditMoney : step.creditScore;
      if (amount <= 0) continue;
      const outcome = await creditOrHold(trx, app.handle.dialect, {
        kind, userId: participation.user_id, amount, memo: memoOf(step, titles, reason), idempotencyKey: rewardKey(participation.id, 'approve', kind), holdDays,
        source: { type: 'participation', id: participation.id },
      });
      // The plan counted a new hold: a key used before would make its figures wrong.
      if (outcome.state !== 'pending' || !outcome.applied) throw new Error(`reconcile: the credit key of participation ${participation.id} was used before`);
      availableAt.set(participation.id, Math.max(availableAt.get(participation.id) ?? 0, outcome.releaseAt));
    }
  }
  return availableAt;
}

/** The ledger entry ids an approval of the slice keeps in `column`. */
function logIdsOf(slice: readonly ChangingStep[], logs: LogIds, column: 'money_log_id' | 'score_log_id'): [number, number][] {
  return slice.flatMap((step) => {
    const id = logs.get(step.participation.id)?.[column];
    return id === undefined ? [] : [[step.participation.id, id] as [number, number]];
  });
}

/** What a change writes on its participation but the ledger ids: the same for most rows of a list. */
function valuesOf(step: ChangingStep) {
  const credited = step.change === 'reverse'
    ? { credited_money: 0, credited_score: 0 }
    : { credited_money: Number(step.participation.credited_money) + step.creditMoney, credited_score: Number(step.participation.credited_score) + step.creditScore };
  return { status: step.to, credit_state: step.credit, ...credited };
}

/**
 * The participations' new status, credit and amounts. Rows that take the same values (every reversal of a
 * list, the approvals of one reward) are updated together, a slice at a time, each approval with the ids
 * of its own entries (`valueById`). Their rows are locked since the plan read them, so each update must
 * find every row of its slice.
 */
async function writeParticipations(app: AppContext, trx: Db, actor: Actor, steps: readonly ChangingStep[], logs: LogIds): Promise<void> {
  const now = nowSeconds();
  // The engine checks each row's move and logs its watched fields, as it does for a single domain write.
  const writes = steps.map((step) => ({ existing: step.participation, changes: { ...valuesOf(step), source: 'reconcile' } }));
  await checkDomainWrites(actor, trx, resourceByTable(app, 'survey_participation'), writes);
  const groups = new Map<string, ChangingStep[]>();
  for (const step of steps) {
    const key = JSON.stringify(valuesOf(step));
    groups.set(key, [...(groups.get(key) ?? []), step]);
  }
  for (const group of groups.values()) {
    for (let start = 0; start < group.length; start += UPDATE_SLICE) {
      const slice = group.slice(start, start + UPDATE_SLICE);
      const updated = await trx
        .updateTable('survey_participation')
        .set({
          ...valuesOf(slice[0]),
          // An approval keeps the ids of the entries that credited it; the others keep theirs.
          money_log_id: valueById('money_log_id', logIdsOf(slice, logs, 'money_log_id')),
          score_log_id: valueById('score_log_id', logIdsOf(slice, logs, 'score_log_id')),
          source: 'reconcile',
          update_time: now,
        })
        .where('id', 'in', slice.map((step) => step.participation.id))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== slice.length) throw new Error('reconcile: participations changed under their row locks');
    }
  }
}

/** Each survey's counters after the changes: one update a survey, at the end (its row is locked already). */
async function writeSurveyCounters(trx: Db, changes: Map<number, SurveyChange>): Promise<void> {
  for (const [surveyId, change] of [...changes].sort(([a], [b]) => a - b)) {
    await trx
      .updateTable('survey')
      .set({
        completes: sql`completes + ${change.completes}`,
        terminates: sql`terminates + ${change.terminates}`,
        timeouts: sql`timeouts + ${change.timeouts}`,
        credited_money: sql`credited_money + ${change.credited}`,
        ...(change.quota !== undefined ? { quota_total: change.quota } : {}),
      })
      .where('id', '=', surveyId)
      .execute();
  }
}

/**
 * Apply a reconciliation in one transaction: plan again under the locks, refuse the whole when the plan
 * is not the dry run's, then write every change (status, ledger entries, event, survey counters).
 * Refused rows of the plan are left as they are; anything failing on the way undoes everything.
 */
export async function applyReconciliation(app: AppContext, input: ReconcileInput, context: ApplyContext): Promise<ReconcilePlan> {
  const expected = context.plan === undefined ? undefined : countsOfToken(context.plan);
  if (context.plan !== undefined && !expected) throw errors.reconcileDryRunFirst();
  return app.db.transaction().execute(async (trx) => {
    if (app.handle.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${RECONCILE_LOCK})`.execute(trx);
    const plan = await planOn(app, trx, input, true);
    if (expected && plan.token !== context.plan) {
      const now = OUTCOMES.map((outcome) => plan.counts[outcome]);
      throw now.every((count, index) => count === expected[index]) ? errors.reconcilePlanChangedSameCounts() : errors.reconcilePlanChanged(expected, now);
    }
    const changing = plan.steps.filter(isChanging);
    const reason = reasonParam(context.reason, context.providerReason ?? '');
    const actor = { adminId: context.adminId, ip: context.ip, userAgent: '' };
    const availableAt = await writeHolds(app, trx, actor, changing, plan.surveyTitles, reason);
    const logs = await writeLedger(app, trx, changing, plan.surveyTitles, reason);
    await writeParticipations(app, trx, actor, changing, logs);
    const surveyChanges = new Map<number, SurveyChange>();
    const events = changing.map((step) => {
      const surveyId = Number(step.participation.survey_id);
      const change = surveyChanges.get(surveyId) ?? { completes: 0, terminates: 0, timeouts: 0, credited: 0 };
      if (step.change === 'reverse') change.completes -= 1;
      // An accepted terminate or timeout leaves its counter for the completes (a held complete is counted already).
      if (takesQuota(step)) change.completes += 1;
      if (step.change === 'approve' && step.from === 'terminate') change.terminates -= 1;
      if (step.change === 'approve' && step.from === 'timeout') change.timeouts -= 1;
      // A held credit counts as credited, as a return's does; a reversal takes back all it was credited.
      change.credited += step.creditMoney;
      if (step.raised) change.quota = step.raised.to;
      surveyChanges.set(surveyId, change);
      return {
        participationId: step.participation.id, from: step.from, to: step.to, source: 'reconcile', adminId: context.adminId, ip: context.ip,
        payload: {
          action: step.change, reason: context.reason,
          ...(context.providerReason ? { provider_reason: context.providerReason } : {}),
          ...(input.mode === 'complete_only' ? { mode: input.mode } : {}),
          ...(step.matched === 'provider_txid' ? { provider_txid: step.listed } : {}),
          ...(step.raised ? { quota: { from: step.raised.from, to: step.raised.to } } : {}),
          // When a held credit becomes available, or that a reversal cancelled one still pending.
          ...(availableAt.has(step.participation.id) ? { available_at: availableAt.get(step.participation.id) } : {}),
          ...((step.parts ?? []).some((part) => part.state === 'pending') ? { pending_cancelled: true } : {}),
        },
      };
    });
    await appendEvents(trx, events);
    await writeSurveyCounters(trx, surveyChanges);
    return plan;
  });
}

/**
 * Reverse one participation through the planner, as a provider's reversal callback asks
 * (`returns.ts`): the same rules as a listed reverse, applied at once. Answers whether it changed
 * anything; a participation not complete (reversed already, never completed) or a debit the balance
 * cannot cover changes nothing.
 */
export async function reverseParticipation(app: AppContext, rid: string, surveyId: number, context: Omit<ApplyContext, 'plan'>): Promise<{ ok: boolean; plan: ReconcilePlan }> {
  const plan = await applyReconciliation(app, { mode: 'reverse', surveyId, ids: [rid], raiseQuota: false }, context);
  return { ok: plan.counts.reversed === 1, plan };
}
