import type { Controller, RequestContext } from '../../app-context.js';
import { throttleAddress } from '../../auth/attempts.js';
import { errors, Success } from '../../errors.js';
import type { sendEmailCode } from '../../services/code-delivery.js';

interface CodeSender {
  /** the controller's name in `/api/<name>/send` */
  name: 'Ems' | 'Sms';
  /** checks the body and sends the code */
  deliver: typeof sendEmailCode;
  /** the message of the answer once sent */
  sent: string;
}

/**
 * `POST /api/<name>/send` (docs/wire-contract.md#sending-codes): one verification code, by mail or by
 * SMS. Open without a login, and throttled per client address like a login attempt.
 */
export function codeSenderController({ name, deliver, sent }: CodeSender): Controller {
  async function send(ctx: RequestContext) {
    if (ctx.method !== 'POST') throw errors.parameterError();
    await throttleAddress(ctx.app, 'code', ctx.ip, ctx.app.settings.authRateLimit);
    await deliver({ app: ctx.app, ip: ctx.ip, t: ctx.t, lang: ctx.lang, memberId: ctx.identity?.id }, ctx.body);
    return new Success(null, sent);
  }
  return { name, path: name.toLowerCase(), area: 'user', actions: { send }, noNeedLogin: ['send'], noNeedPermission: ['*'] };
}
