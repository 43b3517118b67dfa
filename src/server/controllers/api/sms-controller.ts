import { throttleAddress } from '../../auth/attempts.js';
import { errors, Success } from '../../errors.js';
import { sendSmsCode } from '../../services/code-delivery.js';
import type { Controller, RequestContext } from '../../http/controller.js';

/** `POST /api/Sms/send {mobile, template_code, event}`: a verification code by SMS, through `SMS_DRIVER`. */
async function send(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  await throttleAddress(ctx.app, 'code', ctx.ip, ctx.app.settings.authRateLimit);
  await sendSmsCode({ app: ctx.app, ip: ctx.ip, t: ctx.t, lang: ctx.lang, memberId: ctx.identity?.id }, ctx.body);
  return new Success(null, 'SMS sent successfully');
}

export const smsController: Controller = {
  name: 'Sms',
  path: 'sms',
  area: 'user',
  actions: { send },
  noNeedLogin: ['send'],
  noNeedPermission: ['*'],
};
