import { sql } from 'kysely';
import { resourceOf, type AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import { wireColumns } from '../../db/values.js';
import type { SurveySurveyRow } from '../../../generated/resources.js';
import { formatLocalDateTime, parseLocalDateTime } from '../../../contract/site-time.js';

/**
 * Survey figures for the dashboard. Days are the site's calendar days; each series is one indexed
 * range read grouped by day (`enter_time`, `finish_time`), and survey totals are the kept counters.
 */

interface DayFigures {
  date: string;
  starts: number;
  completes: number;
  /** cents */
  credited: number;
}

interface Period {
  /** Unix seconds of the first day's midnight in the site's zone */
  since: number;
  dates: string[];
}

/** The last `days` calendar days in `timeZone`, oldest first, today last. */
export function periodOf(days: number, timeZone: string, now = nowSeconds()): Period {
  const today = formatLocalDateTime(now, timeZone).slice(0, 10);
  const todayStart = parseLocalDateTime(today, timeZone) ?? now - (now % 86_400);
  const since = todayStart - (days - 1) * 86_400;
  const dates = Array.from({ length: days }, (_, index) => formatLocalDateTime(since + index * 86_400 + 43_200, timeZone).slice(0, 10));
  return { since, dates };
}

/** Which day of the period a time column falls on (0 = the first); a DST change shifts it by an hour. */
export function dayIndex(column: string, period: Period) {
  // better-sqlite3 binds numbers as REAL: the cast truncates the division to whole days on both engines.
  return sql<number>`CAST((${sql.ref(column)} - ${period.since}) / 86400 AS INTEGER)`;
}

export async function dailySurveyFigures(app: AppContext, period: Period): Promise<DayFigures[]> {
  const db = app.db;
  const starts = await db
    .selectFrom('survey_participation')
    .select([dayIndex('enter_time', period).as('day'), (eb) => eb.fn.countAll().as('total')])
    .where('enter_time', '>=', period.since)
    .groupBy('day')
    .execute();
  // What was credited counts every finished participation (a terminate's consolation too), as the
  // surveys' own credited totals do; completes count the completes alone.
  const completes = await db
    .selectFrom('survey_participation')
    .select([dayIndex('finish_time', period).as('day'), (eb) => eb.fn.count<number>(sql`CASE WHEN status = 'complete' THEN 1 END`).as('total'), (eb) => eb.fn.sum('credited_money').as('credited')])
    .where('finish_time', '>=', period.since)
    .groupBy('day')
    .execute();
  const series = period.dates.map((date) => ({ date, starts: 0, completes: 0, credited: 0 }));
  for (const row of starts) {
    const day = series[Number(row.day)];
    if (day) day.starts = Number(row.total);
  }
  for (const row of completes) {
    const day = series[Number(row.day)];
    if (day) Object.assign(day, { completes: Number(row.total), credited: Number(row.credited ?? 0) });
  }
  return series;
}

type TopSurvey = Required<Pick<SurveySurveyRow, 'id' | 'title' | 'starts' | 'completes' | 'credited_money'>>;

/** The surveys with the most completes, as the survey schema shows them. */
export async function topSurveys(app: AppContext, limit = 5): Promise<TopSurvey[]> {
  const definition = resourceOf(app, 'survey/survey');
  const rows = await app.db.selectFrom('survey').select(['id', 'title', 'starts', 'completes', 'credited_money']).orderBy('completes', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => wireColumns(definition, row));
}
