import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { centsToYuan } from '../db/values.js';
import { formatLocalDateTime, parseLocalDateTime } from '../../contract/site-time.js';
import { PAID_STATUSES } from '../../contract/outcomes.js';
import { dayIndex, periodOf } from './survey/figures.js';

/**
 * A member's own figures (the member centre's overview): earnings and completes per day, today / this
 * month / in all, and the rankings. Rankings are read from a snapshot table the background job
 * `member-rankings` rebuilds every `RANKING_MAX_AGE` seconds (`jobs/jobs.ts`), so a page view never
 * aggregates the whole history; a view finding no snapshot yet (a new database, before the job's first
 * run) builds that one. Sums are kept in cents and leave these functions in yuan.
 */

export const RANKING_PERIODS = ['day', 'week', 'month', 'all'] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number];
export const RANKING_METRICS = ['money', 'completes'] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number];

/** Seconds between two rebuilds of the ranking snapshots (the `member-rankings` job's period). */
export const RANKING_MAX_AGE = 600;
/** Members kept in each snapshot (the member's own rank beyond it is shown as unranked). */
const RANKING_DEPTH = 1000;

interface MemberDay {
  date: string;
  /** yuan */
  money: string;
  completes: number;
}

/** Earnings (net survey credits) and completes per day over the last `days` days. */
export async function memberDailyFigures(app: AppContext, userId: number, days: number): Promise<MemberDay[]> {
  const period = periodOf(days, await app.config.timeZone());
  const rows = await app.db
    .selectFrom('survey_participation')
    .select([dayIndex('finish_time', period).as('day'), (eb) => eb.fn.sum('credited_money').as('money'), (eb) => eb.fn.count<number>(sql`CASE WHEN status = 'complete' THEN 1 END`).as('completes')])
    .where('user_id', '=', userId)
    .where('finish_time', '>=', period.since)
    .groupBy('day')
    .execute();
  const series = period.dates.map((date) => ({ date, money: 0, completes: 0 }));
  for (const row of rows) {
    const day = series[Number(row.day)];
    if (day) Object.assign(day, { money: Number(row.money ?? 0), completes: Number(row.completes) });
  }
  return series.map((day) => ({ ...day, money: centsToYuan(day.money) }));
}

/** Unix seconds where a ranking period starts, in the site's zone (`all`: 0). */
function periodStart(period: RankingPeriod, timeZone: string, now = nowSeconds()): number {
  if (period === 'all') return 0;
  const today = formatLocalDateTime(now, timeZone).slice(0, 10);
  const midnight = parseLocalDateTime(today, timeZone) ?? now - (now % 86_400);
  if (period === 'day') return midnight;
  if (period === 'week') {
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
    return midnight - weekday * 86_400;
  }
  return parseLocalDateTime(`${today.slice(0, 8)}01`, timeZone) ?? midnight;
}

interface MemberTotals {
  /** yuan */
  money: string;
  completes: number;
}

async function totalsSince(app: AppContext, userId: number, since: number): Promise<MemberTotals> {
  let query = app.db
    .selectFrom('survey_participation')
    .select([(eb) => eb.fn.sum('credited_money').as('money'), (eb) => eb.fn.count<number>(sql`CASE WHEN status = 'complete' THEN 1 END`).as('completes')])
    .where('user_id', '=', userId);
  if (since > 0) query = query.where('finish_time', '>=', since);
  const row = await query.executeTakeFirstOrThrow();
  return { money: centsToYuan(row.money ?? 0), completes: Number(row.completes) };
}

export async function memberTotals(app: AppContext, userId: number): Promise<{ today: MemberTotals; month: MemberTotals; total: MemberTotals }> {
  const timeZone = await app.config.timeZone();
  const now = nowSeconds();
  return {
    today: await totalsSince(app, userId, periodStart('day', timeZone, now)),
    month: await totalsSince(app, userId, periodStart('month', timeZone, now)),
    total: await totalsSince(app, userId, 0),
  };
}

/** Rebuild one snapshot: the top members of the period by the metric, in one transaction. */
async function rebuildRanking(app: AppContext, period: RankingPeriod, metric: RankingMetric, now = nowSeconds()): Promise<void> {
  const since = periodStart(period, await app.config.timeZone(), now);
  const value = metric === 'money' ? sql<number>`SUM(credited_money)` : sql<number>`COUNT(CASE WHEN status = 'complete' THEN 1 END)`;
  let query = app.db.selectFrom('survey_participation').select(['user_id', value.as('value')]).where('status', 'in', PAID_STATUSES);
  if (since > 0) query = query.where('finish_time', '>=', since);
  const rows = await query.groupBy('user_id').having(value, '>', 0).orderBy('value', 'desc').orderBy('user_id', 'asc').limit(RANKING_DEPTH).execute();
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('member_ranking').where('period', '=', period).where('metric', '=', metric).execute();
    for (let start = 0; start < rows.length; start += 200) {
      const values = rows.slice(start, start + 200).map((row, index) => ({ period, metric, user_id: Number(row.user_id), rank: start + index + 1, value: Number(row.value), computed_at: now }));
      await trx.insertInto('member_ranking').values(values).execute();
    }
    // An empty ranking still records when it was computed (a row no member matches).
    if (rows.length === 0) await trx.insertInto('member_ranking').values({ period, metric, user_id: 0, rank: 0, value: 0, computed_at: now }).execute();
  });
}

async function rebuildRankingOnce(app: AppContext, period: RankingPeriod, metric: RankingMetric): Promise<void> {
  try {
    await rebuildRanking(app, period, metric);
  } catch (error) {
    // Another request (or the job, in another process) rebuilt the same snapshot at the same moment: theirs stands.
    if (!isUniqueViolation(error)) throw error;
  }
}

/** Every ranking snapshot rebuilt (the `member-rankings` job). */
export async function refreshRankings(app: AppContext): Promise<void> {
  for (const period of RANKING_PERIODS) for (const metric of RANKING_METRICS) await rebuildRankingOnce(app, period, metric);
}

async function snapshotAge(app: AppContext, period: RankingPeriod, metric: RankingMetric): Promise<number> {
  const row = await app.db.selectFrom('member_ranking').select('computed_at').where('period', '=', period).where('metric', '=', metric).limit(1).executeTakeFirst();
  return row ? nowSeconds() - Number(row.computed_at) : Number.POSITIVE_INFINITY;
}

interface Ranking {
  computed_at: number;
  /** when the job rebuilds the snapshot: what a member earned after `computed_at` counts from then */
  refresh_at: number;
  /** `value`: yuan for the money metric, a count for completes */
  list: { rank: number; user_id: number; nickname: string; avatar: string; value: string | number }[];
  mine: { rank: number | null; value: string | number };
}

export async function memberRanking(app: AppContext, userId: number, period: RankingPeriod, metric: RankingMetric, top = 10): Promise<Ranking> {
  if ((await snapshotAge(app, period, metric)) === Number.POSITIVE_INFINITY) await rebuildRankingOnce(app, period, metric);
  const list = await app.db
    .selectFrom('member_ranking as r')
    .innerJoin('user as u', 'u.id', 'r.user_id')
    .select(['r.rank', 'r.user_id', 'r.value', 'r.computed_at', 'u.nickname', 'u.avatar'])
    .where('r.period', '=', period)
    .where('r.metric', '=', metric)
    .where('r.rank', '>', 0)
    .orderBy('r.rank', 'asc')
    .limit(top)
    .execute();
  const mine = await app.db.selectFrom('member_ranking').select(['rank', 'value', 'computed_at']).where('period', '=', period).where('metric', '=', metric).where('user_id', '=', userId).executeTakeFirst();
  const computedAt = await app.db.selectFrom('member_ranking').select('computed_at').where('period', '=', period).where('metric', '=', metric).limit(1).executeTakeFirst();
  const computed = Number(computedAt?.computed_at ?? nowSeconds());
  const shown = (value: unknown) => (metric === 'money' ? centsToYuan(value) : Number(value));
  return {
    computed_at: computed,
    // the job's next slot: it runs at every multiple of its period
    refresh_at: Math.floor(computed / RANKING_MAX_AGE) * RANKING_MAX_AGE + RANKING_MAX_AGE,
    list: list.map((row) => ({ rank: Number(row.rank), user_id: Number(row.user_id), nickname: row.nickname, avatar: row.avatar, value: shown(row.value) })),
    mine: { rank: mine ? Number(mine.rank) : null, value: shown(mine?.value ?? 0) },
  };
}
