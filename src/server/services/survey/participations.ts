import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { fieldOf, valueLabel, type Row } from '../../../schema/definition.js';
import type { LocalText } from '../../../schema/local-text.js';
import { resourceByTable, type AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import type { Db, StoredRow } from '../../db/connection.js';
import { centsToYuan } from '../../db/values.js';
import { creditOrHold } from '../holds.js';
import { updateDomainRow } from '../../writes/domain-writes.js';
import type { LedgerKind } from '../ledger.js';
import { OUTCOME_COUNTER, OUTCOME_CREDIT, type FinalStatus, type ReportedStatus } from '../../../contract/outcomes.js';

/**
 * A member's attempt at a survey (docs/survey-domain.md#participation-statuses): `entered` → one final status, once. Every change of
 * status appends an event, moves the survey's counters and credits through the ledger, in one transaction.
 */

type StatusSource = 'redirect' | 'callback' | 'admin' | 'reconcile' | 'timeout';
export type CreditState = 'none' | 'held' | 'credited' | 'reversed';

/** A participation as stored (money in cents). */
export type ParticipationRow = StoredRow<'survey_participation'>;
/** A survey as stored (money in cents). */
export type SurveyRow = StoredRow<'survey'>;

/** 128 random bits: the only identifier of an attempt that leaves our site. */
export function newRid(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Rids of the provider test tool start with `test-`. A real rid is hex digits only, so no attempt has
 * one, and no return or callback carrying one ever reaches an attempt.
 */
const TEST_RID_PREFIX = 'test-';

export function newTestRid(): string {
  return `${TEST_RID_PREFIX}${randomBytes(8).toString('hex')}`;
}

export function isTestRid(rid: string): boolean {
  return rid.startsWith(TEST_RID_PREFIX);
}

export function lockRow<Q extends { forUpdate(): Q }>(app: AppContext, query: Q): Q {
  // SQLite serialises writers per database; PostgreSQL needs the row lock.
  return app.handle.dialect === 'postgres' ? query.forUpdate() : query;
}

export async function findParticipationByRid(db: Db, rid: string): Promise<ParticipationRow | undefined> {
  if (rid === '' || rid.length > 64 || isTestRid(rid)) return undefined;
  return db.selectFrom('survey_participation').selectAll().where('rid', '=', rid).executeTakeFirst();
}

interface EventInput {
  participationId: number;
  from: string;
  to: string;
  source: string;
  adminId?: number;
  payload?: Row;
  ip?: string;
}

/** Rows of an insert of events: a reconciliation of a provider's file changes thousands of records at once. */
const EVENTS_PER_INSERT = 200;

export async function appendEvents(trx: Db, events: readonly EventInput[]): Promise<void> {
  const now = nowSeconds();
  for (let start = 0; start < events.length; start += EVENTS_PER_INSERT) {
    await trx
      .insertInto('survey_participation_event')
      .values(events.slice(start, start + EVENTS_PER_INSERT).map((event) => ({
        participation_id: event.participationId,
        from_status: event.from,
        to_status: event.to,
        source: event.source,
        admin_id: event.adminId ?? null,
        payload: event.payload ? JSON.stringify(event.payload).slice(0, 4000) : '',
        ip: (event.ip ?? '').slice(0, 50),
        create_time: now,
      })))
      .execute();
  }
}

export async function appendEvent(trx: Db, event: EventInput): Promise<void> {
  await appendEvents(trx, [event]);
}

async function bumpCounter(trx: Db, surveyId: number, column: string, by: number): Promise<void> {
  await trx.updateTable('survey').set({ [column]: sql`${sql.ref(column)} + ${by}` }).where('id', '=', surveyId).execute();
}

/** Take one complete from the quota; false when it is full (the complete becomes over quota). */
async function takeQuota(trx: Db, surveyId: number): Promise<boolean> {
  const result = await trx
    .updateTable('survey')
    .set({ completes: sql`completes + 1` })
    .where('id', '=', surveyId)
    .where((eb) => eb.or([eb('quota_total', '=', 0), eb('completes', '<', eb.ref('quota_total'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

interface CreditInput {
  participation: ParticipationRow;
  money: number;
  score: number;
  memo: string;
}

/** The stage of a participation's credit: its final status's, or a reconciliation's approval (a top-up). */
type CreditStage = 'credit' | 'approve';
export const REWARD_KINDS: readonly LedgerKind[] = ['money', 'score'];

/** The idempotency key of one stage of a participation's reward, one per ledger: `survey:<id>:credit:money`. */
export function rewardKey(participationId: number, stage: CreditStage, kind: LedgerKind): string {
  return `survey:${participationId}:${stage}:${kind}`;
}

/**
 * Days a survey's credits wait before they are available (docs/survey-domain.md#hold-period): the survey's
 * own hold period, or its provider's when the survey names none.
 */
export async function holdDaysOf(trx: Db, survey: SurveyRow): Promise<number> {
  if (survey.hold_days !== null) return Number(survey.hold_days);
  const provider = await trx.selectFrom('survey_provider').select('hold_days').where('id', '=', survey.provider_id).executeTakeFirst();
  return Number(provider?.hold_days ?? 0);
}

interface RewardCredit {
  /** the ledger entries of a credit available at once */
  moneyLogId: number | null;
  scoreLogId: number | null;
  /** when a held credit becomes available (Unix seconds), null when nothing is held */
  availableAt: number | null;
}

/** Credit a participation's reward (positive amounts), at once or held for `holdDays`; keyed so it applies once. */
async function creditReward(app: AppContext, trx: Db, input: CreditInput, stage: CreditStage, holdDays: number): Promise<RewardCredit> {
  const { participation, memo } = input;
  const result: RewardCredit = { moneyLogId: null, scoreLogId: null, availableAt: null };
  const earnedAt = nowSeconds();
  for (const kind of REWARD_KINDS) {
    const amount = kind === 'money' ? input.money : input.score;
    if (amount <= 0) continue;
    const outcome = await creditOrHold(trx, app.handle.dialect, {
      kind, userId: participation.user_id, amount, memo, idempotencyKey: rewardKey(participation.id, stage, kind), holdDays, earnedAt,
      source: { type: 'participation', id: participation.id },
    });
    if (outcome.state === 'available') result[kind === 'money' ? 'moneyLogId' : 'scoreLogId'] = outcome.logId;
    if (outcome.state === 'pending') result.availableAt = Math.max(result.availableAt ?? 0, outcome.releaseAt);
  }
  return result;
}

interface FinishInput {
  status: FinalStatus;
  source: StatusSource;
  ip: string;
  /** the raw query string the provider sent back */
  rawQuery?: string;
  /** the provider's own id of this attempt's transaction (its `transaction_param`), matched by reconciliation files */
  providerTxid?: string;
  adminId?: number;
  reason?: string;
  /** translates the ledger memo */
  memo: (survey: SurveyRow) => string;
}

export interface FinishResult {
  participation: ParticipationRow;
  survey: SurveyRow;
  /** false when an earlier final status stood (first final status wins) */
  changed: boolean;
  /** what this call credited: money in yuan, points */
  credited: { money: string; score: number };
  /** when what this call credited becomes available, when it is held (Unix seconds); null when available now */
  availableAt: number | null;
}

/**
 * Move an `entered` participation to its final status. A complete over quota becomes `overquota`; a
 * speeder on a survey that holds them is recorded but not credited. Only the first call changes anything.
 */
export async function finishParticipation(app: AppContext, participationId: number, input: FinishInput): Promise<FinishResult> {
  return app.db.transaction().execute(async (trx) => {
    const current = await lockRow(app, trx.selectFrom('survey_participation').selectAll().where('id', '=', participationId)).executeTakeFirstOrThrow();
    const survey = await trx.selectFrom('survey').selectAll().where('id', '=', current.survey_id).executeTakeFirstOrThrow();
    if (current.status !== 'entered') return { participation: current, survey, changed: false, credited: { money: centsToYuan(0), score: 0 }, availableAt: null };

    const now = nowSeconds();
    const loiSeconds = Math.max(0, now - Number(current.enter_time));
    let status: FinalStatus = input.status;
    if (status === 'complete' && !(await takeQuota(trx, survey.id))) status = 'overquota';
    if (status !== 'complete') await bumpCounter(trx, survey.id, OUTCOME_COUNTER[status], 1);

    const speeder = status === 'complete' && loiSeconds * 3 < Number(survey.loi_minutes) * 60;
    const returnIp = input.source === 'redirect' ? input.ip : '';
    const changes: Row = {
      status,
      source: input.source,
      finish_time: now,
      loi_seconds: loiSeconds,
      flag_speeder: speeder ? 1 : 0,
      update_time: now,
    };
    if (returnIp) {
      changes.return_ip = returnIp.slice(0, 50);
      changes.flag_ip_changed = current.entry_ip !== '' && current.entry_ip !== returnIp ? 1 : 0;
    }
    if (input.rawQuery !== undefined) changes.raw_query = input.rawQuery.slice(0, 4000);
    if (input.providerTxid) changes.provider_txid = input.providerTxid.slice(0, 100);

    // What the outcome credits (contract/outcomes.ts): the reward snapshot taken at start, or the survey's consolation.
    let money = 0;
    let score = 0;
    if (OUTCOME_CREDIT[status] === 'reward') {
      money = Number(current.reward_money);
      score = Number(current.reward_score);
    } else if (OUTCOME_CREDIT[status] === 'consolation') {
      money = Number(survey.consolation_money);
      score = Number(survey.consolation_score);
    }
    const held = speeder && Boolean(Number(survey.hold_speeders));
    let credited = { money: 0, score: 0 };
    let availableAt: number | null = null;
    if (held) {
      changes.credit_state = 'held';
    } else if (money > 0 || score > 0) {
      // A credit held for the hold period still counts as credited here; its hold row says when it is available.
      const logs = await creditReward(app, trx, { participation: current, money, score, memo: input.memo(survey) }, 'credit', await holdDaysOf(trx, survey));
      Object.assign(changes, { credit_state: 'credited', credited_money: money, credited_score: score, money_log_id: logs.moneyLogId, score_log_id: logs.scoreLogId });
      credited = { money, score };
      availableAt = logs.availableAt;
      if (money > 0) await bumpCounter(trx, survey.id, 'credited_money', money);
    }

    // The engine checks the move (x-transitions) and logs watched fields; the update holds only while the status is
    // still `entered`, so a concurrent second return (another process) changes nothing.
    const write = { definition: resourceByTable(app, 'survey_participation'), existing: current, changes };
    if ((await updateDomainRow({ adminId: input.adminId ?? 0, ip: input.ip, userAgent: '' }, trx, write)) !== 1) throw new Error('participation changed under a row lock');
    await appendEvent(trx, {
      participationId: current.id, from: 'entered', to: status, source: input.source, adminId: input.adminId, ip: input.ip,
      payload: {
        ...(input.rawQuery !== undefined ? { query: input.rawQuery.slice(0, 2000) } : {}),
        ...(status !== input.status ? { reported: input.status } : {}),
        ...(speeder ? { speeder: true, held } : {}),
        ...(availableAt !== null ? { available_at: availableAt } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      },
    });
    const participation = await trx.selectFrom('survey_participation').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
    return { participation, survey, changed: true, credited: { money: centsToYuan(credited.money), score: credited.score }, availableAt };
  });
}

interface ForgedReturn {
  channel: 'redirect' | 'callback';
  failure: RefusedCheck;
  providerId: number;
  ip: string;
  rawQuery: string;
  /** the final status the request claimed, when it named one */
  reported?: ReportedStatus;
}

/** Which check of a provider's request failed (`signature-recipe.ts`, and the callback's address allowlist). */
type RefusedCheck = 'missing' | 'wrong' | 'expired' | 'address';

/** The security log's kind for a refused check. */
const SECURITY_EVENT_KIND = {
  missing: 'signature_missing', wrong: 'signature_wrong', expired: 'signature_expired', address: 'address_refused',
} as const satisfies Record<RefusedCheck, string>;

/**
 * A provider's request that fails a check (signature missing, wrong or expired; a callback from an address
 * the provider's allowlist leaves out): anyone who learns a rid can send one, so it changes no status and
 * credits nothing (the member's genuine, signed return still counts). It goes to the security log with the
 * address it came from and the check that failed; when it names a known attempt, that attempt is flagged and
 * the refusal kept in its history.
 */
export async function recordForgedReturn(app: AppContext, participationId: number | undefined, forged: ForgedReturn): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const rawQuery = forged.rawQuery.slice(0, 4000);
    const current = participationId === undefined
      ? undefined
      : await lockRow(app, trx.selectFrom('survey_participation').selectAll().where('id', '=', participationId)).executeTakeFirstOrThrow();
    if (current) {
      await trx.updateTable('survey_participation').set({ flag_sig_invalid: 1 }).where('id', '=', current.id).execute();
      await appendEvent(trx, {
        participationId: current.id, from: current.status, to: current.status, source: forged.channel, ip: forged.ip,
        payload: { signature: 'invalid', check: forged.failure, ...(forged.reported ? { reported: forged.reported } : {}), query: rawQuery.slice(0, 2000) },
      });
    }
    await trx
      .insertInto('survey_security_event')
      .values({
        kind: SECURITY_EVENT_KIND[forged.failure], participation_id: current?.id ?? null, survey_id: current?.survey_id ?? null, provider_id: forged.providerId,
        channel: forged.channel, reported: forged.reported ?? '', ip: forged.ip.slice(0, 50), raw_query: rawQuery, create_time: nowSeconds(),
      })
      .execute();
  });
}

/** The label a person reads for a participation's status or credit state, from the schema, in every language. */
export function participationLabel(app: AppContext, field: 'status' | 'credit_state', value: string): LocalText {
  return valueLabel(fieldOf(resourceByTable(app, 'survey_participation'), field), value);
}

/** `entered` rows older than max(2 × LOI, 2 h) become `timeout`; safe to run in several processes at once. */
export async function expireParticipations(app: AppContext, now = nowSeconds(), batch = 500): Promise<number> {
  const candidates = await app.db
    .selectFrom('survey_participation as p')
    .innerJoin('survey as s', 's.id', 'p.survey_id')
    .select(['p.id as id', 'p.enter_time as enter_time', 's.loi_minutes as loi_minutes'])
    .where('p.status', '=', 'entered')
    .where('p.enter_time', '<', now - 2 * 3600)
    .orderBy('p.enter_time', 'asc')
    .limit(batch)
    .execute();
  let expired = 0;
  for (const row of candidates) {
    const limit = Math.max(2 * Number(row.loi_minutes) * 60, 2 * 3600);
    if (Number(row.enter_time) + limit > now) continue;
    const result = await finishParticipation(app, Number(row.id), { status: 'timeout', source: 'timeout', ip: '', memo: () => '' });
    if (result.changed) expired += 1;
  }
  return expired;
}
