import { DEFAULT_AVATAR } from '../../../contract/headers.js';
import { AREA_AUTH, loadIdentity } from '../../auth/identity.js';
import { findAccount, isTruthy, loginWithPassword, previousLogin, revokeSession } from '../../auth/login.js';
import { throttleAddress } from '../../auth/attempts.js';
import { ruleTree } from '../../auth/menu-tree.js';
import { ClickCaptchaService } from '../../captcha/captcha-service.js';
import { errors, Success } from '../../errors.js';
import { presentAdminFields } from '../../resources/system/admin.js';
import { definitionsFor, schemaPages } from '../../resources/client-definitions.js';
import type { AppContext, Controller, RequestContext } from '../../app-context.js';
import { siteConfig } from '../site-config.js';
import { checkCredentialsShape } from '../../auth/credentials.js';
import { installedPackageManagers, offeredCommands, packageManager } from '../../services/terminal/commands.js';

/** `Index`: admin login, logout and the bootstrap data of the back office (docs/wire-contract.md#back-office-bootstrap). */

async function captchaRequired(app: AppContext): Promise<boolean> {
  return app.settings.adminLoginCaptcha ?? app.config.flag('admin_login_captcha', true);
}

async function login(ctx: RequestContext) {
  if (ctx.identity) throw errors.loggedIn();
  if (ctx.method !== 'POST') return { captcha: await captchaRequired(ctx.app) };
  await throttleAddress(ctx.app, 'login:admin', ctx.ip, ctx.app.settings.authRateLimit);
  const { username, password } = checkCredentialsShape(ctx.body, 'admin');
  if (await captchaRequired(ctx.app)) {
    const ok = await new ClickCaptchaService(ctx.app.db).check(ctx.body.captchaId, ctx.body.captchaInfo, true);
    if (!ok) throw errors.captchaError();
  }
  ctx.logTitle = 'Login';
  const account = await findAccount(ctx.app, 'admin', 'username', username);
  const result = await loginWithPassword(ctx.app, 'admin', account, username, password, isTruthy(ctx.body.keep), ctx.ip);
  // The operation log of this request names the admin who just logged in.
  ctx.identity = await loadIdentity(ctx.app.db, AREA_AUTH.admin, Number(result.account.id));
  const zone = await ctx.app.config.timeZone();
  const shaped = presentAdminFields(result.account, zone);
  return new Success(
    {
      userInfo: {
        id: Number(shaped.id),
        username: shaped.username,
        nickname: shaped.nickname,
        avatar: shaped.avatar,
        last_login_time: shaped.last_login_time,
        token: result.token,
        refresh_token: result.refreshToken,
      },
      // Ours, asked for with `bootstrap: true`: what `index` answers this admin, so the back office
      // opens without a second round trip (a client that does not ask gets BuildAdmin's answer).
      // When it cannot be made (no menus), the login still succeeds and `index` says why.
      ...(isTruthy(ctx.body.bootstrap) ? await bootstrapOf(ctx).then((bootstrap) => ({ bootstrap }), () => ({})) : {}),
    },
    'Login succeeded!',
  );
}

async function logout(ctx: RequestContext) {
  if (ctx.method !== 'POST') return null;
  await revokeSession(ctx.app, 'admin', ctx.token, ctx.body.refreshToken);
  return null;
}

async function index(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return bootstrapOf(ctx);
}

/** The back office's bootstrap for the signed-in admin (`index`, and a login that asks for it). */
async function bootstrapOf(ctx: RequestContext) {
  const identity = ctx.identity;
  if (!identity) throw errors.needLogin();
  const menus = await ruleTree(ctx.app.db, AREA_AUTH.admin.ruleTable, identity);
  if (menus.length === 0) throw errors.noBackgroundMenu();
  const zone = await ctx.app.config.timeZone();
  const shaped = presentAdminFields(identity.account, zone);
  return {
    adminInfo: {
      id: identity.id,
      username: shaped.username,
      nickname: shaped.nickname,
      avatar: shaped.avatar || DEFAULT_AVATAR,
      last_login_time: shaped.last_login_time,
      super: identity.isSuper,
    },
    // Ours: the login before this one, which the dashboard shows (`last_login_time` is this login's).
    previousLogin: previousLogin(identity.account),
    menus,
    // Ours, beside BuildAdmin's keys: the screens are drawn from these (a BuildAdmin client ignores them).
    definitions: definitionsFor(ctx.app, identity),
    schemaPages: schemaPages(ctx.app),
    // the revision of the definitions above, even when another set went live while this request ran
    schemaRevision: ctx.app.schemas.revisionOf(ctx.app.resources),
    siteConfig: await siteConfig(ctx),
    terminal: await terminalSettings(ctx),
  };
}

/**
 * BuildAdmin's `terminal` keys, and ours for a super admin (the only one the terminal serves): whether it
 * is switched on, the package managers installed, the commands with their titles in the reader's language.
 */
async function terminalSettings(ctx: RequestContext) {
  const stock = { phpDevelopmentServer: false, npmPackageManager: await packageManager(ctx.app) };
  if (!ctx.identity?.isSuper) return stock;
  return {
    ...stock,
    enabled: ctx.app.settings.terminal,
    packageManagers: installedPackageManagers(),
    commands: offeredCommands().map((command) => ({ key: command.key, title: ctx.t(command.title) })),
  };
}

/**
 * `schemaRevision` (ours): the revision of the schemas this process serves. The open back office asks
 * every few seconds and, when it moved past the one its menus came with, loads `index` again: a module
 * another admin (or process) made live appears without a reload.
 */
function schemaRevision(ctx: RequestContext): Promise<{ revision: number }> {
  return Promise.resolve({ revision: ctx.app.schemas.revisionOf(ctx.app.resources) });
}

export const indexController: Controller = {
  name: 'Index',
  path: 'index',
  area: 'admin',
  actions: { index, login, logout, schemaRevision },
  noNeedLogin: ['login', 'logout'],
  noNeedPermission: ['index', 'schemaRevision'],
};
