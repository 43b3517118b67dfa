import type { Row } from '../../../schema/definition.js';
import { resourceByTable, type Controller, type RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { beginSetup, confirmSetup, isTwoFactorRequired, removeTwoFactor, renewRecoveryCodes, twoFactorState, verifySecondFactor } from '../../auth/two-factor.js';
import { presentAdminFields } from '../../resources/system/admin.js';
import { checkUnique, validateInput } from '../../resources/write-checks.js';
import { ADMIN_PROFILE_FIELDS, adminAccount, setAdminAvatar, updateAdminProfile } from '../../services/admin-profile.js';

/**
 * `routine.AdminInfo`: the logged-in admin's own profile (docs/wire-contract.md#own-profile). Unlike BuildAdmin, the row is
 * always the current admin's: a posted `id` is ignored, so nobody edits another admin's profile here.
 */

/** a relative URL (as uploads return) or an http(s) one; nothing that could run as script */
const AVATAR_PATTERN = /^(?:\/(?!\/)|https?:\/\/)[^\s"'<>\\]*$/i;

function currentAdmin(ctx: RequestContext) {
  const identity = ctx.identity;
  if (!identity || identity.area !== 'admin') throw errors.needLogin();
  return identity;
}

async function index(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  const account = await adminAccount(ctx.app, identity.id);
  if (!account) throw errors.recordNotFound();
  const zone = await ctx.app.config.timeZone();
  const shaped = presentAdminFields(account, zone);
  return {
    info: {
      id: identity.id,
      username: shaped.username,
      nickname: shaped.nickname,
      avatar: shaped.avatar,
      email: shaped.email ?? '',
      mobile: shaped.mobile ?? '',
      motto: shaped.motto ?? '',
      last_login_time: shaped.last_login_time,
      token: '',
      refresh_token: '',
    },
  };
}

function checkAvatar(value: unknown): string {
  if (typeof value !== 'string' || value.length > 255 || !AVATAR_PATTERN.test(value)) throw errors.fieldFormat('Avatar');
  return value;
}

async function edit(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (ctx.method !== 'POST') return index(ctx);
  const body = ctx.body;

  // The avatar uploader posts `{id, avatar}` alone.
  if (body.avatar !== undefined && body.nickname === undefined) {
    await setAdminAvatar(ctx.app, identity.id, checkAvatar(body.avatar));
    return new Success(null, 'Avatar modified successfully!');
  }

  const input: Row = {};
  for (const name of ADMIN_PROFILE_FIELDS) if (body[name] !== undefined) input[name] = body[name];
  if (typeof input.nickname !== 'string' || input.nickname.trim() === '') throw errors.fieldEmpty('Nickname');
  if (input.avatar === '' || input.avatar === null) delete input.avatar;
  else if (input.avatar !== undefined) checkAvatar(input.avatar);
  const definition = resourceByTable(ctx.app, 'admin');
  const values = validateInput(definition, input, 'edit');
  await checkUnique(ctx.app.db, definition, values, identity.id);
  // BuildAdmin's client posts its whole stored info, refresh token included: the session it belongs to stays
  const session = [ctx.token, typeof body.refresh_token === 'string' ? body.refresh_token : ''];
  await updateAdminProfile(ctx.app, identity.id, values, body.oldPassword, session);
  return new Success(null, 'Update successful!');
}

/**
 * The admin's own two-factor sign-in (docs/two-factor.md), open to every signed-in admin (a group may require
 * it of them): its state; a set-up (a new secret, on once `twoFactorConfirm` accepts a code of it, which
 * answers the recovery codes); new recovery codes and turning it off, each asking a current code first.
 */
async function twoFactor(ctx: RequestContext) {
  return twoFactorState(ctx.app.db, currentAdmin(ctx).id);
}

async function twoFactorSetup(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (ctx.method !== 'POST') throw errors.parameterError();
  const setup = await beginSetup(ctx.app, identity.id, identity.username);
  if (!setup) throw errors.twoFactorAlreadyOn();
  return setup;
}

async function twoFactorConfirm(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (ctx.method !== 'POST') throw errors.parameterError();
  const recoveryCodes = await confirmSetup(ctx.app, identity.id, codeOf(ctx));
  if (!recoveryCodes) throw errors.twoFactorCodeWrong();
  return new Success({ recoveryCodes }, 'Two-factor sign-in is on');
}

async function twoFactorRecovery(ctx: RequestContext) {
  const identity = await withCurrentCode(ctx);
  return new Success({ recoveryCodes: await renewRecoveryCodes(ctx.app, identity.id) }, 'New recovery codes made: the old ones no longer work');
}

async function twoFactorOff(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (await isTwoFactorRequired(ctx.app.db, identity.id)) throw errors.twoFactorRequired();
  await withCurrentCode(ctx);
  await removeTwoFactor(ctx.app.db, identity.id);
  return new Success(null, 'Two-factor sign-in is off');
}

function codeOf(ctx: RequestContext): string {
  const code = ctx.body.code;
  if (typeof code !== 'string' || code.trim() === '' || code.length > 40) throw errors.twoFactorCodeWrong();
  return code.trim();
}

/** The signed-in admin, once a current code (or a recovery code) of their two-factor sign-in was given. */
async function withCurrentCode(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (ctx.method !== 'POST') throw errors.parameterError();
  if (!(await twoFactorState(ctx.app.db, identity.id)).enabled) throw errors.twoFactorNotOn();
  if (!(await verifySecondFactor(ctx.app, identity.id, codeOf(ctx)))) throw errors.twoFactorCodeWrong();
  return identity;
}

export const adminInfoController: Controller = {
  name: 'routine.AdminInfo',
  path: 'routine/adminInfo',
  area: 'admin',
  actions: { index, edit, twoFactor, twoFactorSetup, twoFactorConfirm, twoFactorRecovery, twoFactorOff },
  noNeedLogin: [],
  noNeedPermission: ['twoFactor', 'twoFactorSetup', 'twoFactorConfirm', 'twoFactorRecovery', 'twoFactorOff'],
};
