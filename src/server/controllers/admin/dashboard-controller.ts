import { dashboardFigures, dashboardRemark } from '../../services/dashboard.js';
import type { Controller, RequestContext } from '../../http/controller.js';

/**
 * `Dashboard/index` (docs/wire-contract.md#dashboard): the translated remark of the dashboard rule, plus the platform's
 * figures: members, surveys open, starts and completes per day, conversion, money credited, payouts
 * waiting (pending or approved), top surveys.
 */
async function index(ctx: RequestContext) {
  const remark = await dashboardRemark(ctx.app);
  return { remark: remark ? ctx.t(remark) : '', figures: await dashboardFigures(ctx.app) };
}

export const dashboardController: Controller = {
  name: 'Dashboard',
  path: 'dashboard',
  area: 'admin',
  actions: { index },
  noNeedLogin: [],
  noNeedPermission: [],
};
