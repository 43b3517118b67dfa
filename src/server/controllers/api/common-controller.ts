import type { Controller, RequestContext } from '../../app-context.js';
import { AREA_AUTH, type Area } from '../../auth/identity.js';
import { isTruthy } from '../../auth/login.js';
import { ClickCaptchaService } from '../../captcha/captcha-service.js';
import { errors, Success } from '../../errors.js';
import { tokenOf } from '../../http/dispatch.js';

/** `/api/common/*`: click captcha and token refresh (docs/wire-contract.md#token-refresh, #click-captcha). */

async function clickCaptcha(ctx: RequestContext) {
  const id = ctx.query.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) throw errors.parameterEmpty('id');
  const challenge = await new ClickCaptchaService(ctx.app.db).create(id);
  return {
    id: challenge.id,
    text: challenge.shapes.map((key) => `<${ctx.t(key)}>`),
    base64: challenge.base64,
    width: challenge.width,
    height: challenge.height,
  };
}

async function checkClickCaptcha(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const consume = isTruthy(ctx.body.unset);
  const ok = await new ClickCaptchaService(ctx.app.db).check(ctx.body.id, ctx.body.info, consume);
  if (!ok) throw errors.captchaFailed();
  return new Success(null, 'Verification is successful!');
}

/**
 * A new access token for a refresh token (docs/wire-contract.md#token-refresh). The stale access token
 * must come along in the area's header, be of that area and of the refresh token's account; it is revoked.
 * The refresh token is used up and a new one, ending when it would have, comes back beside the access
 * token, so a copied refresh token works once at most: whoever uses it second is logged out.
 */
async function refreshToken(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const token = ctx.body.refreshToken;
  if (typeof token !== 'string' || token === '') throw errors.loginExpired();
  const record = await ctx.app.tokens.find(token);
  if (!record || record.expired) throw errors.loginExpired();
  const area: Area | undefined = record.type === 'admin-refresh' ? 'admin' : record.type === 'user-refresh' ? 'user' : undefined;
  if (!area) throw errors.invalidToken();
  const auth = AREA_AUTH[area];
  const stale = tokenOf(ctx.request, area, {});
  const staleRecord = stale ? await ctx.app.tokens.find(stale) : undefined;
  if (!staleRecord || staleRecord.type !== auth.tokenType || staleRecord.userId !== record.userId) throw errors.invalidToken();
  return ctx.app.db.transaction().execute(async (trx) => {
    if (!(await ctx.app.tokens.consume(token, trx))) throw errors.loginExpired();
    await ctx.app.tokens.revoke(stale, trx);
    const fresh = await ctx.app.tokens.issue(auth.tokenType, record.userId, trx);
    const refreshed = await ctx.app.tokens.issue(auth.refreshType, record.userId, trx, record.expireTime);
    return { type: record.type, token: fresh, refresh_token: refreshed };
  });
}

export const commonController: Controller = {
  name: 'common',
  path: 'common',
  area: 'user',
  actions: { clickCaptcha, checkClickCaptcha, refreshToken },
  noNeedLogin: ['*'],
  noNeedPermission: ['*'],
};
