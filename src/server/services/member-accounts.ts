import type { Row } from '../../schema/definition.js';
import { inputValidatorOf, type ValidationIssue } from '../../schema/validate-input.js';
import { resourceByTable, type AppContext } from '../app-context.js';
import { findAccount, type AccountKey } from '../auth/login.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { setAccountPassword } from '../auth/sessions.js';
import { throttleAddress } from '../auth/attempts.js';
import { ClickCaptchaService } from '../captcha/captcha-service.js';
import { nowSeconds } from '../clock.js';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, PASSWORD_PATTERN } from '../../contract/credentials.js';
import { MOBILE_PATTERN } from '../auth/credentials.js';
import { errors } from '../errors.js';
import { channelEverDelivered, channelHealth } from './code-channels.js';
import type { Translate } from '../i18n.js';
import { isLanguage, type Language } from '../../contract/headers.js';
import { VerificationCodes } from './verification-codes.js';

/**
 * Member self-service (docs/wire-contract.md#member-endpoints, #login-and-registration): registration,
 * password retrieval and change, proving and binding an email or mobile, and the helpers the code delivery
 * and profile services share. Everything is checked before the code is used up and before anything is
 * written, so a refusal leaves the member's row untouched.
 */

export type VerificationType = 'email' | 'mobile';

/** The setting that lets members register without a code (`registrationWithoutCode`). */
const REGISTER_WITHOUT_CODE = 'register_without_code';

/**
 * The first problem the member schema (`system/user`: pattern, length, format) finds with the fields
 * given, if any: members' own input follows the very rules the back office edits them by.
 */
export function memberFieldIssue(app: AppContext, values: Row): ValidationIssue | undefined {
  const result = inputValidatorOf(resourceByTable(app, 'user'))(values, 'edit');
  return result.ok ? undefined : result.issues[0];
}

/** Member fields checked by the member schema; its first problem becomes the field's error. */
export function checkMemberFields(app: AppContext, values: Row): void {
  const issue = memberFieldIssue(app, values);
  if (issue) throw errors.validation(issue);
}

export interface Requester {
  app: AppContext;
  ip: string;
  t: Translate;
  /** the request's language */
  lang: Language;
  /** the logged-in member's id, when there is one */
  memberId?: number;
}

/**
 * A member's language is the one they last chose: the member centre's language switch sends it
 * (`POST /api/account/language`), and a login or registration keeps the language it was made in, so texts and
 * mails sent to them later speak it. Anything but a language the site speaks is refused and changes nothing.
 */
export async function chooseLanguage(app: AppContext, memberId: number, value: unknown): Promise<Language> {
  const lang = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isLanguage(lang)) throw errors.unknownLanguage();
  await app.db.updateTable('user').set({ lang }).where('id', '=', memberId).execute();
  return lang;
}

/** The language to write to `address` in: its member's, or the request's when no member holds it yet. */
export async function recipientLanguage(requester: Requester, type: VerificationType, address: string): Promise<Language> {
  const owner = await memberBy(requester.app, type, address);
  return isLanguage(owner?.lang) ? owner.lang : requester.lang;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

export function checkPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value === '') throw errors.fieldEmpty('Password', field);
  if (!PASSWORD_PATTERN.test(value)) throw errors.fieldInvalid('Please input correct password', field);
  return value;
}

export function addressOf(type: VerificationType, value: unknown): string {
  const address = text(value);
  if (type === 'email' ? !EMAIL_PATTERN.test(address) || address.length > EMAIL_MAX_LENGTH : !MOBILE_PATTERN.test(address)) {
    throw type === 'email' ? errors.emailFormat() : errors.mobileFormat();
  }
  return address;
}

export async function memberBy(app: AppContext, column: AccountKey, value: string): Promise<Row | undefined> {
  return value === '' ? undefined : findAccount(app, 'user', column, value);
}

export async function currentMember(requester: Requester): Promise<Row> {
  if (requester.memberId === undefined) throw errors.needLogin();
  const member = await memberBy(requester.app, 'id', String(requester.memberId));
  if (!member) throw errors.needLogin();
  return member;
}

/**
 * The verification types members can use now, as `accountVerificationType` reports them: those turned
 * on (`ACCOUNT_VERIFICATION`) whose channel has delivered through its current settings
 * (services/code-channels.ts), so forms offer only what will arrive.
 */
export async function accountVerificationTypes(app: AppContext): Promise<VerificationType[]> {
  const types: VerificationType[] = [];
  for (const type of app.settings.accountVerification) if ((await channelHealth(app, type)).state === 'working') types.push(type);
  return types;
}

/**
 * The verification type asked for, refused when it is off or its channel has not delivered: before any
 * captcha or code is used, with what a member can understand (no settings, the outbox, not working).
 */
export async function requireType(app: AppContext, value: unknown): Promise<VerificationType> {
  if (value !== 'email' && value !== 'mobile') throw errors.parameterError();
  if (!app.settings.accountVerification.includes(value)) throw errors.verificationTypeOff();
  const { state } = await channelHealth(app, value);
  if (state === 'outbox') throw errors.smsOutboxOnly();
  if (state !== 'working') throw value === 'mobile' ? errors.smsUnavailable() : errors.mailUnavailable();
  return value;
}

/**
 * Whether a member may register with a username and password alone (`register_without_code`): `always`,
 * `never`, or by default (`auto`) while no verification type turned on has ever delivered through its
 * current settings, so a fresh install, whose mail and SMS are not set up yet, can still take members; a
 * channel that worked and now fails closes code registration until it is mended, and opens nothing.
 */
export async function registrationWithoutCode(app: AppContext): Promise<boolean> {
  const setting = (await app.config.get(REGISTER_WITHOUT_CODE)).trim();
  if (setting === 'always') return true;
  if (setting === 'never') return false;
  for (const type of app.settings.accountVerification) if (await channelEverDelivered(app, type)) return false;
  return true;
}

/** Whether the body carries a solved click captcha (`captchaId`, `captchaInfo`), which it uses up. */
export async function solvedCaptcha(app: AppContext, body: Row): Promise<boolean> {
  const { captchaId, captchaInfo } = body;
  if (typeof captchaId !== 'string' || captchaId === '' || typeof captchaInfo !== 'string' || captchaInfo === '') return false;
  return new ClickCaptchaService(app.db).check(captchaId, captchaInfo, true);
}

function maskedMobile(mobile: string): string {
  return `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;
}

/**
 * Register scene of `POST /api/user/checkIn` (docs/wire-contract.md#login-and-registration); returns the new member's id.
 * With an address and its code as BuildAdmin registers; with neither, by username and password alone while
 * `registrationWithoutCode` allows it (the member binds an address later, with a code).
 */
export async function register(requester: Requester, body: Row): Promise<number> {
  const { app } = requester;
  const username = text(body.username);
  if (username === '') throw errors.fieldEmpty('Username', 'username');
  checkMemberFields(app, { username });
  const password = checkPassword(body.password);
  const bare = text(body.captcha) === '' && text(body.email) === '' && text(body.mobile) === '';
  let address: { type: VerificationType; value: string } | undefined;
  if (!bare || !(await registrationWithoutCode(app))) {
    if (bare && (await accountVerificationTypes(app)).length === 0) throw errors.registrationNeedsCode();
    const type = body.registerType;
    if (type !== 'email' && type !== 'mobile') throw errors.registrationParameterError();
    await requireType(app, type);
    address = { type, value: addressOf(type, body[type]) };
  }
  const taken = async () => {
    if (await memberBy(app, 'username', username)) throw errors.alreadyExists('Username', 'username');
    if (address && (await memberBy(app, address.type, address.value))) throw address.type === 'email' ? errors.emailRegistered() : errors.mobileRegistered();
  };
  await taken();
  if (address) {
    if (!(await new VerificationCodes(app).consume(address.value, 'user_register', body.captcha))) throw errors.wrongCode();
  } else {
    // without a code, the click captcha is the human check a code request would have had, and counts as one
    await throttleAddress(app, 'code', requester.ip, app.settings.authRateLimit);
    if (!(await solvedCaptcha(app, body))) throw errors.captchaError();
  }
  const now = nowSeconds();
  const ip = requester.ip.slice(0, 50);
  const row: Row = {
    group_id: 1,
    username,
    nickname: MOBILE_PATTERN.test(username) ? maskedMobile(username) : username,
    email: address?.type === 'email' ? address.value : '',
    mobile: address?.type === 'mobile' ? address.value : '',
    password: await hashPassword(password),
    salt: '',
    status: 'enable',
    join_ip: ip,
    join_time: now,
    lang: requester.lang,
    last_login_ip: ip,
    last_login_time: now,
    // registering signs the member in: their first password login names this one as the previous
    last_success_time: now,
    create_time: now,
    update_time: now,
  };
  try {
    const inserted = await app.db.insertInto('user').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  } catch (error) {
    // a concurrent registration took the name or address between the check and the insert
    await taken();
    throw error;
  }
}

/** `POST /api/account/retrievePassword {type, account, captcha, password}`. */
export async function retrievePassword(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const type = await requireType(app, body.type);
  const password = checkPassword(body.password);
  const account = text(body.account);
  if (account === '') throw errors.fieldEmpty('Account', 'account');
  // An address no member holds answers as a wrong code does: codes for it are made, never sent.
  const member = await memberBy(app, type, account);
  const used = await new VerificationCodes(app).consume(account, 'user_retrieve_pwd', body.captcha);
  if (!member || !used) throw errors.wrongCode();
  // whoever knew the old password is logged out
  await setAccountPassword(app, 'user', Number(member.id), password);
}

/** `POST /api/account/changePassword {oldPassword, newPassword}`: every session of the member ends. */
export async function changePassword(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const member = await currentMember(requester);
  if (typeof body.oldPassword !== 'string' || body.oldPassword === '') throw errors.oldPasswordMissing();
  const newPassword = checkPassword(body.newPassword, 'newPassword');
  const check = await verifyPassword(body.oldPassword, String(member.password ?? ''), String(member.salt ?? ''));
  if (!check.ok) throw errors.oldPasswordError();
  await setAccountPassword(app, 'user', Number(member.id), newPassword);
}

/** `POST /api/account/verification {type, captcha}`: proves the current address; answers a 600 s pass token. */
export async function verifyAccount(requester: Requester, body: Row): Promise<{ type: VerificationType; accountVerificationToken: string }> {
  const { app } = requester;
  const type = await requireType(app, body.type);
  const member = await currentMember(requester);
  const address = String(member[type] ?? '');
  if (!(await new VerificationCodes(app).consume(address, `user_${type}_verify`, body.captcha))) throw errors.wrongCode();
  const token = await app.tokens.issue(type === 'email' ? 'email-pass' : 'mobile-pass', Number(member.id));
  return { type, accountVerificationToken: token };
}

/** `POST /api/account/changeBind {type, captcha, email|mobile, accountVerificationToken, password}`. */
export async function changeBind(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const type = await requireType(app, body.type);
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
    await trx.updateTable('user').set({ [type]: address, update_time: nowSeconds() }).where('id', '=', Number(member.id)).execute();
    await trx.deleteFrom('token').where('type', '=', passType).where('user_id', '=', Number(member.id)).execute();
  });
}
