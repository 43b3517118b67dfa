import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { fieldOf, valueLabel, type Row } from '../../../schema/definition.js';
import type { LocalText } from '../../../schema/local-text.js';
import { resourceByTable, type AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import type { Db, StoredRow } from '../../db/connection.js';
import { centsToYuan } from '../../db/values.js';
import { applyLedgerEntry } from '../ledger.js';

/**
 * A member's attempt at a survey (docs/survey-domain.md#participation-statuses): `entered` → one final status, once. Every change of
 * status appends an event, moves the survey's counters and credits through the ledger, in one transaction.
 */

const FINAL_STATUSES = ['complete', 'terminate', 'overquota', 'security', 'timeout'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];
/** The final statuses a provider can report: a timeout is ours, never reported. */
const REPORTED_STATUSES = ['complete', 'terminate', 'overquota', 'security'] as const satisfies readonly FinalStatus[];
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];
type StatusSource = 'redirect' | 'callback' | 'admin' | 'reconcile' | 'timeout';
export type CreditState = 'none' | 'held' | 'credited' | 'reversed';

/** A participation as stored (money in cents). */
export type ParticipationRow = StoredRow<'survey_participation'>;
/** A survey as stored (money in cents). */
export type SurveyRow = StoredRow<'survey'>;

/** The counter column of the survey that counts each final status. */
const COUNTER_OF: Record<FinalStatus, string> = {
  complete: 'completes', terminate: 'terminates', overquota: 'overquotas', security: 'securities', timeout: 'timeouts',
};

export function isFinalStatus(value: unknown): value is FinalStatus {
  return (FINAL_STATUSES as readonly unknown[]).includes(value);
}

export function isReportedStatus(value: unknown): value is ReportedStatus {
  return (REPORTED_STATUSES as readonly unknown[]).includes(value);
}

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

/** Credit (or, with negative amounts, debit) a participation's reward; keyed so it applies once. */
async function moveReward(app: AppContext, trx: Db, input: CreditInput, key: string): Promise<{ moneyLogId: number | null; scoreLogId: number | null }> {
  const { participation, money, score, memo } = input;
  let moneyLogId: number | null = null;
  let scoreLogId: number | null = null;
  if (money !== 0) {
    const entry = await applyLedgerEntry(trx, app.handle.dialect, { kind: 'money', userId: participation.user_id, amount: money, memo, idempotencyKey: `survey:${participation.id}:${key}:money` });
    moneyLogId = entry.id;
  }
  if (score !== 0) {
    const entry = await applyLedgerEntry(trx, app.handle.dialect, { kind: 'score', userId: participation.user_id, amount: score, memo, idempotencyKey: `survey:${participation.id}:${key}:score` });
    scoreLogId = entry.id;
  }
  return { moneyLogId, scoreLogId };
}

interface FinishInput {
  status: FinalStatus;
  source: StatusSource;
  ip: string;
  /** the raw query string the provider sent back */
  rawQuery?: string;
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
}

/**
 * Move an `entered` participation to its final status. A complete over quota becomes `overquota`; a
 * speeder on a survey that holds them is recorded but not credited. Only the first call changes anything.
 */
export async function finishParticipation(app: AppContext, participationId: number, input: FinishInput): Promise<FinishResult> {
  return app.db.transaction().execute(async (trx) => {
    const current = await lockRow(app, trx.selectFrom('survey_participation').selectAll().where('id', '=', participationId)).executeTakeFirstOrThrow();
    const survey = await trx.selectFrom('survey').selectAll().where('id', '=', current.survey_id).executeTakeFirstOrThrow();
    if (current.status !== 'entered') return { participation: current, survey, changed: false, credited: { money: centsToYuan(0), score: 0 } };

    const now = nowSeconds();
    const loiSeconds = Math.max(0, now - Number(current.enter_time));
    let status: FinalStatus = input.status;
    if (status === 'complete' && !(await takeQuota(trx, survey.id))) status = 'overquota';
    if (status !== 'complete') await bumpCounter(trx, survey.id, COUNTER_OF[status], 1);

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

    // Rewards: the snapshot taken at start for a complete, the survey's consolation for a screen-out.
    let money = 0;
    let score = 0;
    if (status === 'complete') {
      money = Number(current.reward_money);
      score = Number(current.reward_score);
    } else if (status === 'terminate' || status === 'overquota') {
      money = Number(survey.consolation_money);
      score = Number(survey.consolation_score);
    }
    const held = speeder && Boolean(Number(survey.hold_speeders));
    let credited = { money: 0, score: 0 };
    if (held) {
      changes.credit_state = 'held';
    } else if (money > 0 || score > 0) {
      const logs = await moveReward(app, trx, { participation: current, money, score, memo: input.memo(survey) }, 'credit');
      Object.assign(changes, { credit_state: 'credited', credited_money: money, credited_score: score, money_log_id: logs.moneyLogId, score_log_id: logs.scoreLogId });
      credited = { money, score };
      if (money > 0) await bumpCounter(trx, survey.id, 'credited_money', money);
    }

    // The guard on `entered` makes a concurrent second return (another process) change nothing.
    const updated = await trx.updateTable('survey_participation').set(changes).where('id', '=', current.id).where('status', '=', 'entered').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new Error('participation changed under a row lock');
    await appendEvent(trx, {
      participationId: current.id, from: 'entered', to: status, source: input.source, adminId: input.adminId, ip: input.ip,
      payload: {
        ...(input.rawQuery !== undefined ? { query: input.rawQuery.slice(0, 2000) } : {}),
        ...(status !== input.status ? { reported: input.status } : {}),
        ...(speeder ? { speeder: true, held } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      },
    });
    const participation = await trx.selectFrom('survey_participation').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
    return { participation, survey, changed: true, credited: { money: centsToYuan(credited.money), score: credited.score } };
  });
}

interface ForgedReturn {
  channel: 'redirect' | 'callback';
  providerId: number;
  ip: string;
  rawQuery: string;
  /** the final status the request claimed, when it named one */
  reported?: ReportedStatus;
}

/**
 * A return for a known rid whose signature fails: anyone who learns a rid can send one, so it changes
 * no status and credits nothing (the member's genuine, signed return still counts). It flags the
 * attempt, is kept in its history and in the security log, with the address it came from.
 */
export async function recordForgedReturn(app: AppContext, participationId: number, forged: ForgedReturn): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const current = await lockRow(app, trx.selectFrom('survey_participation').selectAll().where('id', '=', participationId)).executeTakeFirstOrThrow();
    const rawQuery = forged.rawQuery.slice(0, 4000);
    await trx.updateTable('survey_participation').set({ flag_sig_invalid: 1 }).where('id', '=', current.id).execute();
    await appendEvent(trx, {
      participationId: current.id, from: current.status, to: current.status, source: forged.channel, ip: forged.ip,
      payload: { signature: 'invalid', ...(forged.reported ? { reported: forged.reported } : {}), query: rawQuery.slice(0, 2000) },
    });
    await trx
      .insertInto('survey_security_event')
      .values({
        kind: 'signature_invalid', participation_id: current.id, survey_id: current.survey_id, provider_id: forged.providerId, channel: forged.channel,
        reported: forged.reported ?? '', ip: forged.ip.slice(0, 50), raw_query: rawQuery, create_time: nowSeconds(),
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
