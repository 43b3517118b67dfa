import type { Row } from '../../../schema/definition.js';
import { findAccount, isTruthy, loginWithPassword, revokeSession, type AccountKey } from '../../auth/login.js';
import { throttleAddress } from '../../auth/attempts.js';
import { ClickCaptchaService } from '../../captcha/captcha-service.js';
import { rowFromStorage } from '../../db/values.js';
import { errors, Success } from '../../errors.js';
import { presentMemberFields } from '../../resources/system/user.js';
import { resourceByTable, type AppContext, type Controller, type RequestContext } from '../../app-context.js';
import { accountVerificationTypes, memberFieldIssue, register, registrationWithoutCode } from '../../services/member-accounts.js';
import { checkCredentialsShape, MOBILE_PATTERN } from '../../auth/credentials.js';
import { EMAIL_PATTERN } from '../../../contract/credentials.js';

/** The member object of the wire (docs/wire-contract.md#member-object); balance and points as the user schema shows them. */
export function memberInfo(app: AppContext, account: Row, token: string, refreshToken = ''): Row {
  const row = presentMemberFields(account);
  const { money, score } = rowFromStorage(resourceByTable(app, 'user'), { money: account.money, score: account.score });
  return {
    id: Number(row.id),
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    mobile: row.mobile,
    avatar: row.avatar,
    gender: Number(row.gender ?? 0),
    birthday: row.birthday || null,
    money,
    score: score ?? 0,
    join_time: Number(row.join_time ?? 0),
    motto: row.motto,
    last_login_time: Number(row.last_login_time ?? 0),
    last_login_ip: row.last_login_ip,
    token,
    refresh_token: refreshToken,
  };
}

async function captchaRequired(app: AppContext): Promise<boolean> {
  return app.settings.userLoginCaptcha ?? app.config.flag('user_login_captcha', true);
}

/** Which column a login name addresses: mobile number, email address or username. */
function accountColumn(app: AppContext, name: string): Exclude<AccountKey, 'id'> | undefined {
  if (MOBILE_PATTERN.test(name)) return 'mobile';
  if (EMAIL_PATTERN.test(name)) return 'email';
  if (!memberFieldIssue(app, { username: name })) return 'username';
  return undefined;
}

async function checkIn(ctx: RequestContext) {
  if (ctx.identity) throw errors.loggedIn();
  if (!(await ctx.app.config.flag('open_member_center', true))) throw errors.memberCenterDisabled();
  if (ctx.method !== 'POST') {
    return {
      userLoginCaptchaSwitch: await captchaRequired(ctx.app),
      accountVerificationType: await accountVerificationTypes(ctx.app),
      // our addition: a username and password (and the click captcha) are enough to register
      registerWithoutCode: await registrationWithoutCode(ctx.app),
    };
  }
  const tab = ctx.body.tab ?? 'login';
  if (tab === 'register') return registerMember(ctx);
  if (tab !== 'login') throw errors.unknownOperation();
  await throttleAddress(ctx.app, 'login:user', ctx.ip, ctx.app.settings.authRateLimit);
  const { username, password } = checkCredentialsShape(ctx.body, 'user');
  if (await captchaRequired(ctx.app)) {
    const ok = await new ClickCaptchaService(ctx.app.db).check(ctx.body.captchaId, ctx.body.captchaInfo, true);
    if (!ok) throw errors.captchaError();
  }
  const column = accountColumn(ctx.app, username);
  // a name no account could have answers as any unknown one does
  const account = column ? await findAccount(ctx.app, 'user', column, username) : undefined;
  // the member's language is written with the login, in its transaction
  const result = await loginWithPassword(ctx.app, 'user', account, username, password, isTruthy(ctx.body.keep), ctx.ip, { lang: ctx.lang });
  return new Success({ userInfo: memberInfo(ctx.app, result.account, result.token, result.refreshToken), routePath: '/user' }, 'Login succeeded!');
}

/** Register scene (docs/wire-contract.md#login-and-registration): a new member, logged in with an access token and no refresh token. */
async function registerMember(ctx: RequestContext) {
  const id = await register({ app: ctx.app, ip: ctx.ip, t: ctx.t, lang: ctx.lang }, ctx.body);
  const account = await findAccount(ctx.app, 'user', 'id', String(id));
  if (!account) throw errors.accountNotExist();
  const token = await ctx.app.tokens.issue('user', id);
  return new Success({ userInfo: memberInfo(ctx.app, account, token), routePath: '/user' }, 'Login succeeded!');
}

async function logout(ctx: RequestContext) {
  if (ctx.method !== 'POST') return null;
  await revokeSession(ctx.app, 'user', ctx.token, ctx.body.refreshToken);
  return null;
}

export const userController: Controller = {
  name: 'user',
  path: 'user',
  area: 'user',
  actions: { checkIn, logout },
  noNeedLogin: ['checkIn', 'logout'],
  noNeedPermission: ['*'],
};
