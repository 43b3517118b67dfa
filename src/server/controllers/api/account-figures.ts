import type { Action, RequestContext } from '../../app-context.js';
import { centsToYuan } from '../../db/values.js';
import { errors } from '../../errors.js';
import { pendingCreditsOf, pendingTotals } from '../../services/holds.js';
import { memberBalance } from '../../services/ledger.js';
import { memberDailyFigures, memberRanking, memberTotals, RANKING_METRICS, RANKING_PERIODS, type RankingMetric, type RankingPeriod } from '../../services/member-figures.js';
import type { PendingCredits } from '../../../contract/member-api.js';
import { paging } from '../paging.js';
import { isOneOf } from '../../../contract/checks.js';

/**
 * `/api/account/getUserCharts|getUserRanking|getUserData|pendingCredits`: the member's own figures
 * (docs/survey-domain.md#rankings-and-figures) and the credits still held (docs/survey-domain.md#hold-period).
 */

const CHART_DAYS: Record<string, number> = { '7': 7, week: 7, '30': 30, month: 30 };

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}

function choice<T extends string>(value: unknown, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined || value === '') return fallback;
  if (isOneOf(allowed, value)) return value;
  throw errors.invalidChoice(name, allowed.join(', '));
}

const getUserCharts: Action = async (ctx) => {
  const identity = member(ctx);
  const period = choice(ctx.query.period, Object.keys(CHART_DAYS), '7', 'period');
  const days = await memberDailyFigures(ctx.app, identity.id, CHART_DAYS[period]);
  return { days: days.map((day) => day.date), money: days.map((day) => day.money), completes: days.map((day) => day.completes) };
};

const getUserRanking: Action = async (ctx) => {
  const identity = member(ctx);
  const period = choice<RankingPeriod>(ctx.query.period, RANKING_PERIODS, 'month', 'period');
  const metric = choice<RankingMetric>(ctx.query.metric, RANKING_METRICS, 'money', 'metric');
  const ranking = await memberRanking(ctx.app, identity.id, period, metric);
  return {
    period,
    metric,
    computed_at: ranking.computed_at,
    refresh_at: ranking.refresh_at,
    list: ranking.list.map((row) => ({ rank: row.rank, nickname: row.nickname, avatar: row.avatar, value: row.value, is_me: row.user_id === identity.id })),
    mine: ranking.mine,
  };
};

const getUserData: Action = async (ctx) => {
  const identity = member(ctx);
  const totals = await memberTotals(ctx.app, identity.id);
  const balance = await memberBalance(ctx.app, identity.id);
  const pending = await pendingTotals(ctx.app.db, identity.id);
  // `balance` and `score` are available (a payout draws on them); `pending` is held, not yet in them.
  return { ...totals, balance: balance.money, score: balance.score, pending: { money: centsToYuan(pending.money), score: pending.score } };
};

/** The member's credits still held, the soonest available first, each with the time it becomes available. */
const pendingCredits = async (ctx: RequestContext): Promise<PendingCredits> => pendingCreditsOf(ctx.app, member(ctx).id, paging(ctx.query), ctx.lang);

export const accountFigureActions: Record<string, Action> = { getUserCharts, getUserRanking, getUserData, pendingCredits };
