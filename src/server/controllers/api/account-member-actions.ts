import type { Action, RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { accountVerificationTypes, changeBind, changePassword, chooseLanguage, retrievePassword, verifyAccount, type Requester } from '../../services/member-accounts.js';
import { overview, updateProfile } from '../../services/member-profile.js';

/** The member's own account under `/api/account/*` (docs/wire-contract.md#member-endpoints); the rules live in the service. */

function requester(ctx: RequestContext): Requester {
  return { app: ctx.app, ip: ctx.ip, t: ctx.t, lang: ctx.lang, memberId: ctx.identity?.id };
}

function postOnly(ctx: RequestContext): void {
  if (ctx.method !== 'POST') throw errors.parameterError();
}

export const memberAccountActions: Record<string, Action> = {
  overview: async (ctx) => overview(requester(ctx)),
  profile: async (ctx) => {
    if (ctx.method !== 'POST') return { accountVerificationType: await accountVerificationTypes(ctx.app) };
    await updateProfile(requester(ctx), ctx.body);
    return new Success(null, 'Data updated successfully~');
  },
  verification: async (ctx) => {
    postOnly(ctx);
    return verifyAccount(requester(ctx), ctx.body);
  },
  changeBind: async (ctx) => {
    postOnly(ctx);
    await changeBind(requester(ctx), ctx.body);
    return new Success(null, 'Update successful!');
  },
  changePassword: async (ctx) => {
    postOnly(ctx);
    await changePassword(requester(ctx), ctx.body);
    return new Success(null, 'Password has been changed, please login again~');
  },
  /** The member centre's language switch: texts and mails to the member speak the language chosen. */
  language: async (ctx) => {
    postOnly(ctx);
    if (!ctx.identity) throw errors.needLogin();
    return { lang: await chooseLanguage(ctx.app, ctx.identity.id, ctx.body.lang) };
  },
  retrievePassword: async (ctx) => {
    postOnly(ctx);
    await retrievePassword(requester(ctx), ctx.body);
    return new Success(null, 'Password has been changed~');
  },
};
