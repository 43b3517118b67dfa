import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import { centsToYuan } from '../db/values.js';
import { openPayouts } from './payouts.js';
import type { CodeChannelHealth } from '../../contract/code-channels.js';
import { channelsHealth } from './code-channels.js';
import { accountVerificationTypes, registrationWithoutCode } from './member-accounts.js';
import { dailySurveyFigures, periodOf, topSurveys } from './survey/figures.js';
import { wallFigures } from './survey/wall-figures.js';

/**
 * The back office's dashboard: the remark of its menu rule and the platform's figures (members,
 * surveys open, starts and completes per day, conversion, money credited, payouts waiting, top
 * surveys, each survey wall's transactions). Money is summed in cents and answered in yuan.
 */

/** Days of the dashboard's series. */
const DASHBOARD_DAYS = 30;

/**
 * What the dashboard warns of while no verification code can reach a member (no channel has delivered
 * through its current settings, or none is turned on): each channel's health and whether members can still
 * register without a code; undefined while a code can be sent.
 */
export async function codeChannelNotice(app: AppContext): Promise<{ channels: CodeChannelHealth[]; registerWithoutCode: boolean } | undefined> {
  if ((await accountVerificationTypes(app)).length > 0) return undefined;
  return { channels: await channelsHealth(app), registerWithoutCode: await registrationWithoutCode(app) };
}

/** Members. */
async function memberCount(app: AppContext): Promise<number> {
  return Number((await app.db.selectFrom('user').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total);
}

/** Surveys open now. */
async function activeSurveyCount(app: AppContext): Promise<number> {
  return Number((await app.db.selectFrom('survey').select((eb) => eb.fn.countAll().as('total')).where('status', '=', 'active').executeTakeFirstOrThrow()).total);
}

/** The remark of the dashboard's menu rule, as stored (a message key or text), '' when none. */
export async function dashboardRemark(app: AppContext): Promise<string> {
  const rule = await app.db.selectFrom('admin_rule').select('remark').where('name', '=', 'dashboard').executeTakeFirst();
  return rule?.remark ?? '';
}

/** The tables whose figures the dashboard sums, each shown only to a reader of its list. */
type DashboardTable = 'user' | 'survey' | 'survey_participation' | 'payout' | 'survey_wall_transaction';

/**
 * The platform's figures over the last `DASHBOARD_DAYS` days of the site's calendar, each only when
 * `reads` says the administrator may read the list it sums: members with the members' list, surveys
 * open and the top surveys with the surveys', the daily series with the participations', payouts waiting
 * with the payouts', the walls with the wall transactions'. A figure left out is not in the answer.
 */
export async function dashboardFigures(app: AppContext, reads: (table: DashboardTable) => boolean) {
  const figures: Record<string, unknown> = {};
  if (reads('user')) figures.members = await memberCount(app);
  if (reads('survey')) {
    figures.activeSurveys = await activeSurveyCount(app);
    figures.topSurveys = await topSurveys(app);
  }
  const period = periodOf(DASHBOARD_DAYS, await app.config.timeZone(), nowSeconds());
  if (reads('survey_participation')) {
    const days = await dailySurveyFigures(app, period);
    const starts = days.reduce((sum, day) => sum + day.starts, 0);
    const completes = days.reduce((sum, day) => sum + day.completes, 0);
    const credited = days.reduce((sum, day) => sum + day.credited, 0);
    figures.days = days.map((day) => ({ ...day, credited: centsToYuan(day.credited) }));
    figures.period = { starts, completes, conversion: starts > 0 ? Math.round((completes / starts) * 1000) / 10 : 0, credited: centsToYuan(credited) };
  }
  if (reads('payout')) figures.payoutsPending = await openPayouts(app);
  if (reads('survey_wall_transaction')) figures.walls = await wallFigures(app, period.since);
  return figures;
}
