import type { Row } from '../../../schema/definition.js';
import { resourceByTable, type Controller, type RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
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

export const adminInfoController: Controller = {
  name: 'routine.AdminInfo',
  path: 'routine/adminInfo',
  area: 'admin',
  actions: { index, edit },
  noNeedLogin: [],
  noNeedPermission: [],
};
