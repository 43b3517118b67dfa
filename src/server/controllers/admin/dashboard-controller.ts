import type { Controller, RequestContext } from '../controller.js';

/** `Dashboard/index` (contract §4.6): the translated remark of the dashboard rule. */
async function index(ctx: RequestContext) {
  const rule = (await ctx.app.db.selectFrom('admin_rule').select('remark').where('name', '=', 'dashboard').executeTakeFirst()) as { remark: string } | undefined;
  return { remark: rule?.remark ? ctx.t(rule.remark) : '' };
}

export const dashboardController: Controller = {
  name: 'Dashboard',
  path: 'dashboard',
  area: 'admin',
  actions: { index },
  noNeedLogin: [],
  noNeedPermission: [],
};
