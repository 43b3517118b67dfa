import type { Controller, RequestContext } from '../../app-context.js';
import { CLIENT_MARKER, Header } from '../../../contract/headers.js';
import { isMemberViewPath } from '../../../contract/view-paths.js';
import type { Row } from '../../../schema/definition.js';
import { isTruthy, previousLogin } from '../../auth/login.js';
import { publicRuleTree, ruleTree } from '../../auth/menu-tree.js';
import { AREA_AUTH } from '../../auth/identity.js';
import { errors } from '../../errors.js';
import { siteConfig } from '../site-config.js';
import { memberInfo } from './user-controller.js';

/**
 * `GET /api/index/index` (docs/wire-contract.md#member-bootstrap): what the member centre needs before it draws anything. Signed
 * in: the member, the member-centre menus (top-level `menu_dir` trees) and the other top-level rules
 * (routes, top-bar items). Not signed in: the public rules, or "need login" when the page requires it.
 */
async function index(ctx: RequestContext) {
  const { site, openMemberCenter } = await siteOf(ctx);
  const identity = ctx.identity;
  if (!identity) {
    if (isTruthy(ctx.query.requiredLogin)) throw ctx.tokenExpired ? errors.tokenExpired() : errors.needLogin();
    return { site, openMemberCenter, userInfo: [], rules: await publicRuleTree(ctx.app.db), menus: [] };
  }
  const all = await ruleTree(ctx.app.db, AREA_AUTH.user.ruleTable, identity);
  const tree = ctx.request.headers[Header.client] === CLIENT_MARKER ? all : openableByBuildAdmin(all);
  return {
    site,
    openMemberCenter,
    userInfo: memberInfo(ctx.app, identity.account, ctx.token),
    // Ours: the login before this one, which the overview shows (`last_login_time` is this login's).
    previousLogin: previousLogin(identity.account),
    rules: tree.filter((rule) => rule.type !== 'menu' && rule.type !== 'menu_dir'),
    menus: tree.filter((rule) => rule.type === 'menu_dir'),
  };
}

/** Rule types BuildAdmin's member client turns into a route when their `component` names a view file it has. */
const ROUTED_TYPES: ReadonlySet<unknown> = new Set(['route', 'menu', 'nav', 'nav_user_menu']);

/**
 * The member rules as BuildAdmin's own client can use them (docs/wire-contract.md#member-bootstrap): a
 * tab page whose `component` is not one of its view files (our tasks, ranking, payouts, team) would be a
 * menu entry leading nowhere, so it is left out, and so is a menu directory left empty. Links, iframes
 * and its own pages stay.
 */
function openableByBuildAdmin(rules: readonly Row[]): Row[] {
  const kept: Row[] = [];
  for (const rule of rules) {
    const tab = (rule.menu_type ?? 'tab') === 'tab';
    if (ROUTED_TYPES.has(rule.type) && tab && !isMemberViewPath(String(rule.component ?? ''))) continue;
    const children = Array.isArray(rule.children) ? openableByBuildAdmin(rule.children as Row[]) : undefined;
    if (rule.type === 'menu_dir' && children !== undefined && children.length === 0) continue;
    kept.push(children === undefined ? rule : { ...rule, children });
  }
  return kept;
}

async function siteOf(ctx: RequestContext) {
  const config = await siteConfig(ctx);
  return {
    site: { siteName: config.siteName, recordNumber: config.recordNumber, version: config.version, cdnUrl: config.cdnUrl, timeZone: config.timeZone, upload: config.upload },
    openMemberCenter: await ctx.app.config.flag('open_member_center', true),
  };
}

export const memberIndexController: Controller = {
  name: 'index',
  path: 'index',
  area: 'user',
  actions: { index },
  noNeedLogin: ['index'],
  noNeedPermission: ['index'],
};
