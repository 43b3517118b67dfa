import { codeChannelNotice, dashboardFigures, dashboardRemark } from '../../services/dashboard.js';
import { errors } from '../../errors.js';
import { resourceByTable, type Controller, type RequestContext } from '../../app-context.js';
import { mayReadList } from '../../resources/access.js';

/**
 * `Dashboard/index` (docs/wire-contract.md#dashboard): the translated remark of the dashboard rule, plus the platform's
 * figures: members, surveys open, starts and completes per day, conversion, money credited, payouts
 * waiting (pending or approved), top surveys; each only with the right to read what it sums. While no
 * verification code can reach a member, `codeChannels` says so to an administrator who may read the settings.
 */
async function index(ctx: RequestContext) {
  const remark = await dashboardRemark(ctx.app);
  const identity = ctx.identity;
  if (!identity) throw errors.needLogin();
  const figures = await dashboardFigures(ctx.app, (table) => mayReadList(identity, resourceByTable(ctx.app, table)));
  // to whoever can open the settings where it is put right
  const notice = mayReadList(identity, resourceByTable(ctx.app, 'config')) ? await codeChannelNotice(ctx.app) : undefined;
  return { remark: remark ? ctx.t(remark) : '', figures, ...(notice ? { codeChannels: notice } : {}) };
}

export const dashboardController: Controller = {
  name: 'Dashboard',
  path: 'dashboard',
  area: 'admin',
  actions: { index },
  noNeedLogin: [],
  noNeedPermission: [],
};
