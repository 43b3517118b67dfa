import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import { centsToYuan } from '../db/values.js';
import { openPayouts } from './payouts.js';
import { dailySurveyFigures, periodOf, topSurveys } from './survey/figures.js';
import { wallFigures } from './survey/wall-figures.js';

/**
 * The back office's dashboard: the remark of its menu rule and the platform's figures (members,
 * surveys open, starts and completes per day, conversion, money credited, payouts waiting, top
 * surveys, each survey wall's transactions). Money is summed in cents and answered in yuan.
 */

/** Days of the dashboard's series. */
const DASHBOARD_DAYS = 30;

/** Members, and surveys open now. */
async function headcounts(app: AppContext): Promise<{ members: number; activeSurveys: number }> {
  const members = await app.db.selectFrom('user').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const active = await app.db.selectFrom('survey').select((eb) => eb.fn.countAll().as('total')).where('status', '=', 'active').executeTakeFirstOrThrow();
  return { members: Number(members.total), activeSurveys: Number(active.total) };
}

/** The remark of the dashboard's menu rule, as stored (a message key or text), '' when none. */
export async function dashboardRemark(app: AppContext): Promise<string> {
  const rule = await app.db.selectFrom('admin_rule').select('remark').where('name', '=', 'dashboard').executeTakeFirst();
  return rule?.remark ?? '';
}

/** The platform's figures over the last `DASHBOARD_DAYS` days of the site's calendar. */
export async function dashboardFigures(app: AppContext) {
  const period = periodOf(DASHBOARD_DAYS, await app.config.timeZone(), nowSeconds());
  const days = await dailySurveyFigures(app, period);
  const starts = days.reduce((sum, day) => sum + day.starts, 0);
  const completes = days.reduce((sum, day) => sum + day.completes, 0);
  const credited = days.reduce((sum, day) => sum + day.credited, 0);
  return {
    ...(await headcounts(app)),
    days: days.map((day) => ({ ...day, credited: centsToYuan(day.credited) })),
    period: { starts, completes, conversion: starts > 0 ? Math.round((completes / starts) * 1000) / 10 : 0, credited: centsToYuan(credited) },
    payoutsPending: await openPayouts(app),
    topSurveys: await topSurveys(app),
    walls: await wallFigures(app, period.since),
  };
}
