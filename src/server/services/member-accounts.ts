import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { findAccount } from '../auth/login.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { ClickCaptchaService } from '../captcha/captcha-service.js';
import { nowSeconds } from '../clock.js';
import { centsToYuan } from '../db/values.js';
import { EMAIL_PATTERN, MOBILE_PATTERN, PASSWORD_PATTERN } from '../controllers/credentials.js';
import { ApiError, errors } from '../errors.js';
import type { Translate } from '../i18n.js';
import { sendMail, type SmtpSettings } from '../mail/smtp.js';
import { smsDriver } from '../sms/sms-driver.js';
import { EMAIL_EVENTS, MOBILE_EVENTS, VerificationCodes } from './verification-codes.js';

/**
 * Member self-service (contract §7.2, §7.4, §7.5): codes by mail and SMS, registration, password
 * retrieval and change, binding a new email or mobile, the profile. Everything is checked before the
 * code is used up and before anything is written, so a refusal leaves the member's row untouched.
 */

export type VerificationType = 'email' | 'mobile';

/** The member's username rule (schema `system/user`). */
export const MEMBER_USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{2,14}$/;
/** ThinkPHP's `chsDash`: CJK, letters, digits, `_` and `-`. */
const CHS_DASH = /^[\p{Script=Han}A-Za-z0-9_-]+$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Requester {
  app: AppContext;
  ip: string;
  t: Translate;
  /** the logged-in member's id, when there is one */
  memberId?: number;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

export function checkPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value === '') throw new ApiError('%s cannot be empty', ['Password'], undefined, { field });
  if (!PASSWORD_PATTERN.test(value)) throw errors.fieldInvalid('Please input correct password', field);
  return value;
}

function addressOf(type: VerificationType, value: unknown): string {
  const address = text(value);
  if (type === 'email' ? !EMAIL_PATTERN.test(address) || address.length > 50 : !MOBILE_PATTERN.test(address)) {
    throw type === 'email' ? errors.emailFormat() : errors.mobileFormat();
  }
  return address;
}

async function memberBy(app: AppContext, column: string, value: string): Promise<Row | undefined> {
  return value === '' ? undefined : findAccount(app, 'user', column, value);
}

async function currentMember(requester: Requester): Promise<Row> {
  if (requester.memberId === undefined) throw errors.needLogin();
  const member = await memberBy(requester.app, 'id', String(requester.memberId));
  if (!member) throw errors.needLogin();
  return member;
}

/** Which verification types are on (`ACCOUNT_VERIFICATION`), as `accountVerificationType` reports them. */
export function accountVerificationTypes(app: AppContext): VerificationType[] {
  return [...app.settings.accountVerification];
}

function requireType(app: AppContext, value: unknown): VerificationType {
  if (value !== 'email' && value !== 'mobile') throw errors.parameterError();
  if (!app.settings.accountVerification.includes(value)) throw errors.verificationTypeOff();
  return value;
}

/** Per-event rules of contract §7.5 about whether the address may receive a code. */
async function checkEvent(requester: Requester, type: VerificationType, address: string, event: string, password: unknown): Promise<void> {
  const existing = await memberBy(requester.app, type, address);
  const isEmail = type === 'email';
  if (event === 'user_register' && existing) throw isEmail ? errors.emailRegistered() : errors.mobileRegistered();
  if ((event === 'user_change_email' || event === 'user_change_mobile') && existing) throw isEmail ? errors.emailOccupied() : errors.mobileOccupied();
  if ((event === 'user_retrieve_pwd' || event.endsWith('_verify')) && !existing) throw isEmail ? errors.emailNotRegistered() : errors.mobileNotRegistered();
  if (event.endsWith('_verify')) {
    const member = await currentMember(requester);
    if (String(member[type] ?? '') !== address) throw errors.notYourAddress();
    // mail verification also proves the password (contract §7.5)
    if (isEmail) {
      const check = await verifyPassword(checkPassword(password), String(member.password ?? ''), String(member.salt ?? ''));
      if (!check.ok) throw errors.passwordError();
    }
  }
  if (event === 'user_change_email' || event === 'user_change_mobile') await currentMember(requester);
}

async function smtpSettings(app: AppContext): Promise<SmtpSettings> {
  const names = ['smtp_server', 'smtp_port', 'smtp_user', 'smtp_pass', 'smtp_verification', 'smtp_sender_mail'] as const;
  const values = await Promise.all(names.map((name) => app.config.get(name)));
  if (values.some((value) => value.trim() === '')) throw errors.mailUnavailable();
  const [server, port, user, pass, verification, sender] = values;
  return { server, port: Number(port), user, pass, verification: verification === 'SSL' ? 'SSL' : 'TLS', sender };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** `POST /api/Ems/send` (contract §7.5). */
export async function sendEmailCode(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  requireType(app, 'email');
  const smtp = await smtpSettings(app);
  const email = addressOf('email', body.email);
  const event = text(body.event);
  if (!(EMAIL_EVENTS as readonly string[]).includes(event)) throw errors.parameterError();
  if (typeof body.captchaId !== 'string' || body.captchaId === '' || typeof body.captchaInfo !== 'string' || body.captchaInfo === '') throw errors.captchaError();
  if (!(await new ClickCaptchaService(app.db).check(body.captchaId, body.captchaInfo, true))) throw errors.captchaError();
  const codes = new VerificationCodes(app);
  await codes.checkLimits(email, event, requester.ip);
  await checkEvent(requester, 'email', email, event, body.password);
  const template = (await app.db.selectFrom('mail_template').selectAll().where('event', '=', event).where('status', '=', '1').executeTakeFirst()) as Row | undefined;
  const code = await codes.issue(email, event, requester.ip);
  const siteName = (await app.config.get('site_name')) || 'Chidao';
  const values = { code, site_name: siteName, event: requester.t(`event.${event}`) };
  const subject = fill(String(template?.subject ?? '{event}-{site_name}'), values);
  const content = template ? fill(String(template.content), values) : requester.t('Your verification code is: %s', [code]);
  try {
    await sendMail(smtp, { to: email, subject, text: content }, app.settings.smtpTrustedCa);
  } catch {
    // the code never reached the member: it must not count against their hourly allowance
    await app.db.deleteFrom('verification_code').where('address', '=', email).where('event', '=', event).where('used_time', 'is', null).execute();
    throw errors.mailSendFailed();
  }
}

/** `POST /api/Sms/send {mobile, template_code, event}`: the code goes through the configured SMS driver. */
export async function sendSmsCode(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  requireType(app, 'mobile');
  const mobile = addressOf('mobile', body.mobile);
  const event = text(body.event);
  if (!(MOBILE_EVENTS as readonly string[]).includes(event)) throw errors.parameterError();
  const templateCode = text(body.template_code) || event;
  const template = (await app.db
    .selectFrom('sms_template')
    .selectAll()
    .where('template_code', '=', templateCode)
    .where('event', '=', event)
    .where('status', '=', '1')
    .executeTakeFirst()) as Row | undefined;
  if (!template) throw errors.smsTemplateMissing();
  const codes = new VerificationCodes(app);
  await codes.checkLimits(mobile, event, requester.ip);
  await checkEvent(requester, 'mobile', mobile, event, body.password);
  const code = await codes.issue(mobile, event, requester.ip);
  const siteName = (await app.config.get('site_name')) || 'Chidao';
  const params = { code };
  try {
    await smsDriver(app).send({
      mobile,
      templateCode,
      providerTemplate: String(template.provider_template ?? ''),
      params,
      content: fill(String(template.content), { code, site_name: siteName }),
    });
  } catch {
    await app.db.deleteFrom('verification_code').where('address', '=', mobile).where('event', '=', event).where('used_time', 'is', null).execute();
    throw errors.smsSendFailed();
  }
}

function maskedMobile(mobile: string): string {
  return `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;
}

/** Register scene of `POST /api/user/checkIn` (contract §7.4); returns the new member's id. */
export async function register(requester: Requester, body: Row): Promise<number> {
  const { app } = requester;
  const username = text(body.username);
  if (username === '') throw new ApiError('%s cannot be empty', ['Username'], undefined, { field: 'username' });
  if (!MEMBER_USERNAME_PATTERN.test(username)) throw errors.fieldInvalid('Please input correct username', 'username');
  const password = checkPassword(body.password);
  const type = body.registerType;
  if (type !== 'email' && type !== 'mobile') throw errors.registrationParameterError();
  requireType(app, type);
  const address = addressOf(type, body[type]);
  if (await memberBy(app, 'username', username)) throw errors.alreadyExists('Username', 'username');
  if (await memberBy(app, type, address)) throw type === 'email' ? errors.emailRegistered() : errors.mobileRegistered();
  if (!(await new VerificationCodes(app).consume(address, 'user_register', body.captcha))) throw errors.wrongCode();
  const now = nowSeconds();
  const ip = requester.ip.slice(0, 50);
  const row: Row = {
    group_id: 1,
    username,
    nickname: MOBILE_PATTERN.test(username) ? maskedMobile(username) : username,
    email: type === 'email' ? address : '',
    mobile: type === 'mobile' ? address : '',
    password: await hashPassword(password),
    salt: '',
    status: 'enable',
    join_ip: ip,
    join_time: now,
    last_login_ip: ip,
    last_login_time: now,
    create_time: now,
    update_time: now,
  };
  try {
    const inserted = (await app.db.insertInto('user').values(row).returning('id').executeTakeFirstOrThrow()) as { id: number };
    return Number(inserted.id);
  } catch (error) {
    // a concurrent registration took the name or address between the check and the insert
    if (await memberBy(app, 'username', username)) throw errors.alreadyExists('Username', 'username');
    if (await memberBy(app, type, address)) throw type === 'email' ? errors.emailRegistered() : errors.mobileRegistered();
    throw error;
  }
}

/** `POST /api/account/retrievePassword {type, account, captcha, password}`. */
export async function retrievePassword(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const type = requireType(app, body.type);
  const password = checkPassword(body.password);
  const account = text(body.account);
  if (account === '') throw new ApiError('%s cannot be empty', ['Account'], undefined, { field: 'account' });
  const member = await memberBy(app, type, account);
  if (!member) throw errors.accountMissing();
  if (!(await new VerificationCodes(app).consume(account, 'user_retrieve_pwd', body.captcha))) throw errors.wrongCode();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password: await hashPassword(password), salt: '', login_failure: 0, update_time: nowSeconds() }).where('id', '=', member.id).execute();
    // whoever knew the old password is logged out
    await trx.deleteFrom('token').where('type', 'in', ['user', 'user-refresh']).where('user_id', '=', Number(member.id)).execute();
  });
}

/** `POST /api/account/changePassword {oldPassword, newPassword}`: every session of the member ends. */
export async function changePassword(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const member = await currentMember(requester);
  if (typeof body.oldPassword !== 'string' || body.oldPassword === '') throw new ApiError('%s cannot be empty', ['Old password'], undefined, { field: 'oldPassword' });
  const newPassword = checkPassword(body.newPassword, 'newPassword');
  const check = await verifyPassword(body.oldPassword, String(member.password ?? ''), String(member.salt ?? ''));
  if (!check.ok) throw errors.oldPasswordError();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password: await hashPassword(newPassword), salt: '', update_time: nowSeconds() }).where('id', '=', member.id).execute();
    await trx.deleteFrom('token').where('type', 'in', ['user', 'user-refresh', 'email-pass', 'mobile-pass']).where('user_id', '=', Number(member.id)).execute();
  });
}

/** `POST /api/account/verification {type, captcha}`: proves the current address; answers a 600 s pass token. */
export async function verifyAccount(requester: Requester, body: Row): Promise<{ type: VerificationType; accountVerificationToken: string }> {
  const { app } = requester;
  const type = requireType(app, body.type);
  const member = await currentMember(requester);
  const address = String(member[type] ?? '');
  if (!(await new VerificationCodes(app).consume(address, `user_${type}_verify`, body.captcha))) throw errors.wrongCode();
  const token = await app.tokens.issue(type === 'email' ? 'email-pass' : 'mobile-pass', Number(member.id));
  return { type, accountVerificationToken: token };
}

/** `POST /api/account/changeBind {type, captcha, email|mobile, accountVerificationToken, password}`. */
export async function changeBind(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const type = requireType(app, body.type);
  const member = await currentMember(requester);
  const passType = type === 'email' ? 'email-pass' : 'mobile-pass';
  const passToken = text(body.accountVerificationToken);
  if (String(member[type] ?? '') !== '') {
    // an address is bound: the member proves it first (verification), and brings the pass token
    const pass = await app.tokens.find(passToken);
    if (!pass || pass.expired || pass.type !== passType || pass.userId !== Number(member.id)) throw errors.verifyAccountFirst();
  } else {
    const check = await verifyPassword(checkPassword(body.password), String(member.password ?? ''), String(member.salt ?? ''));
    if (!check.ok) throw errors.passwordError();
  }
  const address = addressOf(type, body[type]);
  const holder = await memberBy(app, type, address);
  if (holder) throw type === 'email' ? errors.emailOccupied() : errors.mobileOccupied();
  if (!(await new VerificationCodes(app).consume(address, `user_change_${type}`, body.captcha))) throw errors.wrongCode();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ [type]: address, update_time: nowSeconds() }).where('id', '=', member.id).execute();
    await trx.deleteFrom('token').where('type', '=', passType).where('user_id', '=', Number(member.id)).execute();
  });
}

function checkAvatar(value: unknown): string {
  const avatar = text(value);
  // a path of this site (an upload's `url`) or an http(s) address; nothing that could run script
  if (avatar.length > 255 || !(/^\/[^\s"'<>\\]*$/.test(avatar) || /^https?:\/\/[^\s"'<>\\]+$/.test(avatar))) throw errors.fieldInvalid('Please upload a valid avatar', 'avatar');
  return avatar;
}

function validDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** `POST /api/account/profile`: only avatar, username, nickname, gender, birthday and motto are read (contract §7.2). */
export async function updateProfile(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const member = await currentMember(requester);
  const changes: Row = {};
  const username = text(body.username);
  if (username === '') throw new ApiError('%s cannot be empty', ['Username'], undefined, { field: 'username' });
  if (!MEMBER_USERNAME_PATTERN.test(username)) throw errors.fieldInvalid('Please input correct username', 'username');
  if (username !== member.username) {
    const holder = await memberBy(app, 'username', username);
    if (holder && Number(holder.id) !== Number(member.id)) throw errors.alreadyExists('Username', 'username');
    changes.username = username;
  }
  const nickname = text(body.nickname);
  if (nickname === '') throw new ApiError('%s cannot be empty', ['Nickname'], undefined, { field: 'nickname' });
  if (nickname.length > 50 || !CHS_DASH.test(nickname)) throw errors.fieldInvalid('Nickname may only hold Chinese characters, letters, digits, _ and -', 'nickname');
  changes.nickname = nickname;
  if (body.avatar !== undefined) changes.avatar = body.avatar === '' || body.avatar === null ? '' : checkAvatar(body.avatar);
  if (body.gender !== undefined) {
    const gender = Number(body.gender);
    if (![0, 1, 2].includes(gender) || body.gender === '') throw errors.fieldInvalid('Please select a gender', 'gender');
    changes.gender = gender;
  }
  const birthday = text(body.birthday);
  if (birthday !== '' && !validDate(birthday)) throw errors.fieldInvalid('Please enter a valid date', 'birthday');
  changes.birthday = birthday === '' ? null : birthday;
  if (body.motto !== undefined) {
    const motto = typeof body.motto === 'string' ? body.motto : '';
    if (motto.length > 255) throw errors.fieldInvalid('The motto is too long', 'motto');
    changes.motto = motto;
  }
  changes.update_time = nowSeconds();
  await app.db.updateTable('user').set(changes).where('id', '=', member.id).execute();
}

const DAY = 86_400;

/** `YYYY-MM-DD` of a Unix time in `timeZone`. */
function dayIn(timeZone: string, seconds: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(seconds * 1000));
}

/** `GET /api/account/overview` (contract §7.2): score and money changes of the last seven days, oldest first. */
export async function overview(requester: Requester): Promise<{ days: string[]; score: number[]; money: string[] }> {
  const { app } = requester;
  const member = await currentMember(requester);
  const timeZone = await app.config.timeZone();
  const today = dayIn(timeZone, nowSeconds());
  const todayUtc = Date.parse(`${today}T00:00:00Z`) / 1000;
  const days = Array.from({ length: 7 }, (_, index) => new Date((todayUtc - (6 - index) * DAY) * 1000).toISOString().slice(0, 10));
  // a day more than the window, so any time zone's first day is covered; the day strings do the exact cut
  const since = nowSeconds() - 8 * DAY;
  const sums = async (table: string, column: string): Promise<Map<string, number>> => {
    const rows = (await app.db.selectFrom(table).select([column, 'create_time']).where('user_id', '=', member.id).where('create_time', '>=', since).execute()) as Row[];
    const totals = new Map<string, number>();
    for (const row of rows) {
      const day = dayIn(timeZone, Number(row.create_time));
      totals.set(day, (totals.get(day) ?? 0) + Number(row[column]));
    }
    return totals;
  };
  const score = await sums('user_score_log', 'score');
  const money = await sums('user_money_log', 'money');
  return {
    days,
    score: days.map((day) => score.get(day) ?? 0),
    money: days.map((day) => centsToYuan(money.get(day) ?? 0)),
  };
}
