import type { PointsExchangeAnswer, PointsExchangeState } from '../../contract/member-api.js';
import type { AppContext } from '../app-context.js';
import type { Db } from '../db/connection.js';
import { centsToYuan } from '../db/values.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { errors } from '../errors.js';
import { applyLedgerEntry, ledgerNotes, memberBalance } from './ledger.js';
import { periodOf } from './survey/figures.js';

/**
 * Members exchange points for balance (docs/survey-domain.md#points-exchange) at the rate the operator sets in
 * the config group "Points": `points_exchange` (the switch), `points_exchange_rate` (points for ¥1.00),
 * `points_exchange_min` (the least points of one exchange) and `points_exchange_daily` (the most points a
 * member exchanges a day of the site's calendar, 0 for no limit). Money is exact: an exchange takes only a
 * number of points that makes whole cents (a multiple of `step`), and is refused otherwise, never rounded.
 * The points leave and the balance arrives in one transaction, through both ledgers, under the member
 * row's lock, so parallel exchanges queue and never pass the points held or the daily limit.
 */

const POINTS_EXCHANGE_SETTINGS = {
  open: 'points_exchange',
  rate: 'points_exchange_rate',
  minimum: 'points_exchange_min',
  daily: 'points_exchange_daily',
} as const;

/** What a setting may hold: a whole number in these bounds. */
export const POINTS_EXCHANGE_BOUNDS = {
  points_exchange_rate: { min: 1, max: 1_000_000 },
  points_exchange_min: { min: 1, max: 1_000_000_000 },
  points_exchange_daily: { min: 0, max: 1_000_000_000 },
} as const;

const KEY_PREFIX = 'points-exchange:';
/** A request's id, made by the form once per exchange: a retried or doubled submit carries the same one. */
const REQUEST_ID = /^[A-Za-z0-9-]{8,36}$/;
const MAX_POINTS = 1_000_000_000;

interface Rules {
  enabled: boolean;
  rate: number;
  minimum: number;
  daily: number;
  /** the fewest points that make whole cents: every exchange is a multiple of it */
  step: number;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

function wholeSetting(text: string, fallback: number, bounds: { min: number; max: number }): number {
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= bounds.min && value <= bounds.max ? value : fallback;
}

async function rulesOf(app: AppContext): Promise<Rules> {
  const rate = wholeSetting(await app.config.get(POINTS_EXCHANGE_SETTINGS.rate, '100'), 100, POINTS_EXCHANGE_BOUNDS.points_exchange_rate);
  const step = rate / greatestCommonDivisor(rate, 100);
  return {
    enabled: await app.config.flag(POINTS_EXCHANGE_SETTINGS.open, false),
    rate,
    minimum: wholeSetting(await app.config.get(POINTS_EXCHANGE_SETTINGS.minimum, '100'), 100, POINTS_EXCHANGE_BOUNDS.points_exchange_min),
    daily: wholeSetting(await app.config.get(POINTS_EXCHANGE_SETTINGS.daily, '0'), 0, POINTS_EXCHANGE_BOUNDS.points_exchange_daily),
    step,
  };
}

/** Cents that `points` make at `rate` points a yuan; whole by the step rule. */
/** The least points of one exchange: the setting, raised to the next multiple of the step (so it makes whole cents). */
function minimumOf(rules: Rules): number {
  return Math.ceil(rules.minimum / rules.step) * rules.step;
}

function centsOf(points: number, rate: number): number {
  return (points * 100) / rate;
}

/** The points the member exchanged since `dayStart` (their exchange entries on the points ledger). */
async function exchangedSince(db: Db, userId: number, dayStart: number): Promise<number> {
  const row = await db
    .selectFrom('user_score_log')
    .select((eb) => eb.fn.sum<number | string | null>('score').as('total'))
    .where('user_id', '=', userId)
    .where('idempotency_key', 'like', `${KEY_PREFIX}%`)
    .where('create_time', '>=', dayStart)
    .executeTakeFirstOrThrow();
  return -Number(row.total ?? 0);
}

async function dayStart(app: AppContext): Promise<number> {
  return periodOf(1, await app.config.timeZone()).since;
}

/** What the points page shows: the rules, the member's points and balance, and what is left of today's limit. */
export async function pointsExchangeState(app: AppContext, userId: number): Promise<PointsExchangeState> {
  const rules = await rulesOf(app);
  const today = await exchangedSince(app.db, userId, await dayStart(app));
  const balance = await memberBalance(app, userId);
  return {
    enabled: rules.enabled,
    rate: rules.rate,
    minimum: minimumOf(rules),
    step: rules.step,
    daily_limit: rules.daily,
    today,
    remaining: rules.daily === 0 ? null : Math.max(rules.daily - today, 0),
    score: balance.score,
    money: balance.money,
  };
}

function pointsOf(input: unknown): number {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (!/^\d{1,10}$/.test(text)) throw errors.pointsExchangeInvalid();
  const points = Number(text);
  if (points < 1 || points > MAX_POINTS) throw errors.pointsExchangeInvalid();
  return points;
}

/**
 * Exchange `points` for balance. `requestId` names the exchange: a second request with it changes nothing
 * and answers the balance as it stands (`applied: false`).
 */
export async function exchangePoints(app: AppContext, userId: number, pointsInput: unknown, requestIdInput: unknown): Promise<PointsExchangeAnswer> {
  const rules = await rulesOf(app);
  if (!rules.enabled) throw errors.pointsExchangeClosed();
  if (typeof requestIdInput !== 'string' || !REQUEST_ID.test(requestIdInput)) throw errors.parameterError();
  const points = pointsOf(pointsInput);
  const minimum = minimumOf(rules);
  if (points < minimum) throw errors.pointsExchangeBelowMinimum(minimum);
  if (points % rules.step !== 0) throw errors.pointsExchangeStep(rules.step, centsToYuan(centsOf(rules.step, rules.rate)));
  const cents = centsOf(points, rules.rate);
  const key = `${KEY_PREFIX}${userId}:${requestIdInput}`;
  const since = await dayStart(app);
  const answer = async (applied: boolean): Promise<PointsExchangeAnswer> => ({ ...(await memberBalance(app, userId)), points, amount: centsToYuan(cents), applied });
  try {
    const applied = await app.db.transaction().execute(async (trx) => {
      // The member row's lock first: exchanges of one member queue here, so each reads what the last one left.
      let lookup = trx.selectFrom('user').select(['id', 'score']).where('id', '=', userId);
      if (app.handle.dialect === 'postgres') lookup = lookup.forUpdate();
      const member = await lookup.executeTakeFirst();
      if (!member) throw errors.userNotFound();
      const earlier = await trx.selectFrom('user_score_log').select('id').where('idempotency_key', '=', key).executeTakeFirst();
      if (earlier) return false;
      if (points > Number(member.score)) throw errors.pointsExchangeAboveHeld(Number(member.score));
      if (rules.daily > 0) {
        const today = await exchangedSince(trx, userId, since);
        if (today + points > rules.daily) throw errors.pointsExchangeAboveDaily(rules.daily, Math.max(rules.daily - today, 0));
      }
      const memo = ledgerNotes.pointsExchanged(points, centsToYuan(cents));
      await applyLedgerEntry(trx, app.handle.dialect, { kind: 'score', userId, amount: -points, memo, idempotencyKey: key });
      await applyLedgerEntry(trx, app.handle.dialect, { kind: 'money', userId, amount: cents, memo, idempotencyKey: key });
      return true;
    });
    return await answer(applied);
  } catch (error) {
    // The same request twice at once: the second's insert meets the first's key, and it answers as a retry would.
    if (isUniqueViolation(error)) {
      const earlier = await app.db.selectFrom('user_score_log').select('id').where('idempotency_key', '=', key).executeTakeFirst();
      if (earlier) return answer(false);
    }
    throw error;
  }
}
