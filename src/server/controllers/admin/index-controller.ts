import { DEFAULT_AVATAR } from '../../../contract/headers.js';
import { AREA_AUTH, loadIdentity } from '../../auth/identity.js';
import { checkPassword, completeLogin, findAccount, isTruthy, previousLogin, revokeSession, type LoginResult } from '../../auth/login.js';
import { isLockedOut, recordFailure, throttleAddress } from '../../auth/attempts.js';
import { beginSetup, confirmSetup, twoFactorState, verifySecondFactor } from '../../auth/two-factor.js';
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
  const checked = await checkPassword(ctx.app, 'admin', account, username, password, ctx.ip);
  const adminId = Number(checked.account.id);
  const factor = await twoFactorState(ctx.app.db, adminId);
  if (!factor.enabled && !factor.required) return signedIn(ctx, await completeLogin(ctx.app, 'admin', checked, isTruthy(ctx.body.keep), ctx.ip));
  // A client that cannot ask for the code (BuildAdmin's own) is told where to sign in.
  if (!isTruthy(ctx.body.twoFactor)) throw errors.twoFactorNeedsOurClient(ctx.app.settings.adminEntrance);
  if (checked.rehash) await ctx.app.db.updateTable('admin').set({ password: checked.rehash, salt: '' }).where('id', '=', adminId).execute();
  const setup = factor.enabled ? undefined : await beginSetup(ctx.app, adminId, String(checked.account.username));
  const challenge = await ctx.app.tokens.issue('admin-2fa', adminId);
  return new Success({ twoFactor: { challenge, ...(setup ? { setup } : {}) } }, setup ? 'Set up two-factor sign-in to continue' : 'Enter the code from your authenticator app');
}

/**
 * `twoFactor` (ours): the second step of an admin's sign-in (docs/two-factor.md). `challenge` is what the
 * password step answered (five minutes, one use); `code` a current code of the authenticator app or a
 * recovery code. A wrong code counts as a failed login (the same lockout) and changes nothing else.
 * When the step sets two-factor sign-in up, the answer carries the new recovery codes, shown once.
 */
async function twoFactor(ctx: RequestContext) {
  if (ctx.identity) throw errors.loggedIn();
  if (ctx.method !== 'POST') throw errors.parameterError();
  await throttleAddress(ctx.app, 'login:admin', ctx.ip, ctx.app.settings.authRateLimit);
  ctx.logTitle = 'Login';
  const { challenge, code } = ctx.body;
  if (typeof challenge !== 'string' || challenge === '') throw errors.twoFactorExpired();
  if (typeof code !== 'string' || code.trim() === '' || code.length > 40) throw errors.twoFactorCodeWrong();
  const record = await ctx.app.tokens.find(challenge);
  if (!record || record.type !== 'admin-2fa' || record.expired) throw errors.twoFactorExpired();
  const account = await findAccount(ctx.app, 'admin', 'id', String(record.userId));
  if (!account) throw errors.twoFactorExpired();
  if (!AREA_AUTH.admin.isEnabled(account)) throw errors.accountDisabled();
  const key = String(account.id);
  if (await isLockedOut(ctx.app, 'login:admin', key, ctx.ip)) throw errors.loginLocked();
  const state = await twoFactorState(ctx.app.db, Number(account.id));
  const recoveryCodes = state.enabled ? undefined : await confirmSetup(ctx.app, Number(account.id), code.trim());
  const passed = state.enabled ? await verifySecondFactor(ctx.app, Number(account.id), code) : recoveryCodes !== undefined;
  if (!passed) {
    await recordFailure(ctx.app, 'login:admin', key, ctx.ip);
    throw errors.twoFactorCodeWrong();
  }
  await ctx.app.tokens.revoke(challenge);
  return signedIn(ctx, await completeLogin(ctx.app, 'admin', { account }, isTruthy(ctx.body.keep), ctx.ip), recoveryCodes);
}

/** The answer of a successful sign-in: BuildAdmin's `userInfo`, and the bootstrap when asked for. */
async function signedIn(ctx: RequestContext, result: LoginResult, recoveryCodes?: string[]) {
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
      ...(recoveryCodes ? { recoveryCodes } : {}),
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
  actions: { index, login, logout, schemaRevision, twoFactor },
  noNeedLogin: ['login', 'logout', 'twoFactor'],
  noNeedPermission: ['index', 'schemaRevision'],
};
