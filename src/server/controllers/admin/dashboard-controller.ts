import { nowSeconds } from '../../clock.js';
import { centsToYuan } from '../../db/values.js';
import { dailySurveyFigures, periodOf, topSurveys } from '../../services/survey/figures.js';
import type { Controller, RequestContext } from '../../http/controller.js';

/** Days of the dashboard's series. */
const DASHBOARD_DAYS = 30;

/** Members, and surveys open now. */
async function headcounts(ctx: RequestContext): Promise<{ members: number; activeSurveys: number }> {
  const members = await ctx.app.db.selectFrom('user').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const active = await ctx.app.db.selectFrom('survey').select((eb) => eb.fn.countAll().as('total')).where('status', '=', 'active').executeTakeFirstOrThrow();
  return { members: Number(members.total), activeSurveys: Number(active.total) };
}

/**
 * `Dashboard/index` (docs/wire-contract.md#dashboard): the translated remark of the dashboard rule, plus the platform's
 * figures: members, surveys open, starts and completes per day, conversion, money credited, payouts
 * waiting (pending or approved), top surveys.
 */
async function index(ctx: RequestContext) {
  const rule = await ctx.app.db.selectFrom('admin_rule').select('remark').where('name', '=', 'dashboard').executeTakeFirst();
  const period = periodOf(DASHBOARD_DAYS, await ctx.app.config.timeZone(), nowSeconds());
  const days = await dailySurveyFigures(ctx.app, period);
  const starts = days.reduce((sum, day) => sum + day.starts, 0);
  const completes = days.reduce((sum, day) => sum + day.completes, 0);
  const credited = days.reduce((sum, day) => sum + day.credited, 0);
  const pending = (await ctx.app.db
    .selectFrom('payout')
    .select([(eb) => eb.fn.countAll().as('count'), (eb) => eb.fn.sum('amount').as('amount')])
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirstOrThrow()) as { count: number | string; amount: number | string | null };
  return {
    remark: rule?.remark ? ctx.t(rule.remark) : '',
    figures: {
      ...(await headcounts(ctx)),
      days: days.map((day) => ({ ...day, credited: centsToYuan(day.credited) })),
      period: { starts, completes, conversion: starts > 0 ? Math.round((completes / starts) * 1000) / 10 : 0, credited: centsToYuan(credited) },
      payoutsPending: { count: Number(pending.count), amount: centsToYuan(pending.amount ?? 0) },
      topSurveys: (await topSurveys(ctx.app)).map((survey) => ({ ...survey, credited_money: centsToYuan(survey.credited_money) })),
    },
  };
}

export const dashboardController: Controller = {
  name: 'Dashboard',
  path: 'dashboard',
  area: 'admin',
  actions: { index },
  noNeedLogin: [],
  noNeedPermission: [],
};
