import { throttleAddress } from '../../auth/attempts.js';
import { errors, Success } from '../../errors.js';
import { sendEmailCode } from '../../services/code-delivery.js';
import type { Controller, RequestContext } from '../../http/controller.js';

/** `POST /api/Ems/send` (docs/wire-contract.md#sending-codes): a verification code by mail. */
async function send(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  await throttleAddress(ctx.app, 'code', ctx.ip, ctx.app.settings.authRateLimit);
  await sendEmailCode({ app: ctx.app, ip: ctx.ip, t: ctx.t, lang: ctx.lang, memberId: ctx.identity?.id }, ctx.body);
  return new Success(null, 'Mail sent successfully~');
}

export const emsController: Controller = {
  name: 'Ems',
  path: 'ems',
  area: 'user',
  actions: { send },
  noNeedLogin: ['send'],
  noNeedPermission: ['*'],
};
