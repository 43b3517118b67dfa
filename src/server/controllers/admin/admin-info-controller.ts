import type { Row } from '../../../schema/definition.js';
import { resourceByTable } from '../../app-context.js';
import { hashPassword } from '../../auth/passwords.js';
import { nowSeconds } from '../../clock.js';
import { ApiError, errors, Success } from '../../errors.js';
import { presentAdminFields } from '../../resources/system/admin.js';
import { checkUnique, validateInput } from '../../resources/write-checks.js';
import type { Controller, RequestContext } from '../../http/controller.js';

/**
 * `routine.AdminInfo`: the logged-in admin's own profile (docs/wire-contract.md#own-profile). Unlike BuildAdmin, the row is
 * always the current admin's: a posted `id` is ignored, so nobody edits another admin's profile here.
 */

/** Profile fields an admin may change on themselves; username, status, groups and the rest are not. */
const PROFILE_FIELDS = ['nickname', 'email', 'mobile', 'motto', 'password', 'avatar'] as const;
/** a relative URL (as uploads return) or an http(s) one; nothing that could run as script */
const AVATAR_PATTERN = /^(?:\/(?!\/)|https?:\/\/)[^\s"'<>\\]*$/i;

function currentAdmin(ctx: RequestContext) {
  const identity = ctx.identity;
  if (!identity || identity.area !== 'admin') throw errors.needLogin();
  return identity;
}

async function index(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  const account = (await ctx.app.db.selectFrom('admin').selectAll().where('id', '=', identity.id).executeTakeFirst()) as Row | undefined;
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
  if (typeof value !== 'string' || value.length > 255 || !AVATAR_PATTERN.test(value)) throw new ApiError('%s has an invalid format', ['Avatar']);
  return value;
}

async function edit(ctx: RequestContext) {
  const identity = currentAdmin(ctx);
  if (ctx.method !== 'POST') return index(ctx);
  const body = ctx.body;

  // The avatar uploader posts `{id, avatar}` alone.
  if (body.avatar !== undefined && body.nickname === undefined) {
    await ctx.app.db.updateTable('admin').set({ avatar: checkAvatar(body.avatar), update_time: nowSeconds() }).where('id', '=', identity.id).execute();
    return new Success(null, 'Avatar modified successfully!');
  }

  const input: Row = {};
  for (const name of PROFILE_FIELDS) if (body[name] !== undefined) input[name] = body[name];
  if (typeof input.nickname !== 'string' || input.nickname.trim() === '') throw new ApiError('%s cannot be empty', ['Nickname']);
  if (input.avatar === '' || input.avatar === null) delete input.avatar;
  else if (input.avatar !== undefined) checkAvatar(input.avatar);
  const definition = resourceByTable(ctx.app, 'admin');
  const values = validateInput(definition, input, 'edit');
  await checkUnique(ctx.app.db, definition, values, identity.id);

  const changes: Row = {};
  for (const name of PROFILE_FIELDS) if (name in values && name !== 'password') changes[name] = values[name];
  if (typeof values.password === 'string' && values.password !== '') {
    changes.password = await hashPassword(values.password);
    changes.salt = '';
  }
  changes.update_time = nowSeconds();
  await ctx.app.db.updateTable('admin').set(changes).where('id', '=', identity.id).execute();
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
