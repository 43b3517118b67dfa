import type { Row } from '../../schema/definition.js';
import { verifyPassword } from '../auth/passwords.js';
import { errors } from '../errors.js';
import { configuredSmtp } from '../mail/mail-settings.js';
import { sendMail } from '../mail/smtp.js';
import { addressOf, checkPassword, currentMember, memberBy, recipientLanguage, requireType, solvedCaptcha, text, type Requester, type VerificationType } from './member-accounts.js';
import { reasonOf, recordChannelCheck, recordCodeSent, smsRoute } from './code-channels.js';
import type { Language } from '../../contract/headers.js';
import { textIn } from '../text-in.js';
import type { AppContext } from '../app-context.js';
import { MOBILE_PATTERN } from '../auth/credentials.js';
import { EMAIL_EVENTS, MOBILE_EVENTS, VerificationCodes } from './verification-codes.js';
import { isOneOf } from '../../contract/checks.js';

/**
 * Verification codes on their way to the member (docs/wire-contract.md#sending-codes): by mail through the configured SMTP
 * server, by SMS through `SMS_DRIVER`, with texts from the templates of the back office. A send that
 * fails leaves no code behind, so it does not count against the hourly limits.
 */



/**
 * The per-event rules (docs/wire-contract.md#sending-codes) about whether the address may receive a code;
 * false when the code is to be made but not sent: a password retrieval for an address no member holds is
 * answered as one for a member's, so the answer does not tell whether the address is registered (the code,
 * kept, counts against the same limits; it can reset nothing).
 */
async function checkEvent(requester: Requester, type: VerificationType, address: string, event: string, password: unknown): Promise<boolean> {
  const existing = await memberBy(requester.app, type, address);
  const isEmail = type === 'email';
  if (event === 'user_register' && existing) throw isEmail ? errors.emailRegistered() : errors.mobileRegistered();
  if ((event === 'user_change_email' || event === 'user_change_mobile') && existing) throw isEmail ? errors.emailOccupied() : errors.mobileOccupied();
  if (event.endsWith('_verify')) {
    // only one's own address, whether or not another member holds the one given
    const member = await currentMember(requester);
    if (String(member[type] ?? '') !== address) throw errors.notYourAddress();
    // mail verification also proves the password (docs/wire-contract.md#sending-codes)
    if (isEmail) {
      const check = await verifyPassword(checkPassword(password), String(member.password ?? ''), String(member.salt ?? ''));
      if (!check.ok) throw errors.passwordError();
    }
  }
  if (event === 'user_change_email' || event === 'user_change_mobile') await currentMember(requester);
  return event !== 'user_retrieve_pwd' || existing !== undefined;
}

/**
 * A template's text for a reader of `lang`: the default language's in `column`, another language's in
 * `column_<lang>` (`content_en`), which an administrator may leave empty to send the default one.
 */
function templateText(template: Row, column: string, lang: Language): string {
  return textIn(template, column, lang, 'default');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** `POST /api/Ems/send` (docs/wire-contract.md#sending-codes). */
export async function sendEmailCode(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  // Before the captcha is looked at: an address that cannot be mailed must not use up a solved puzzle.
  await requireType(app, 'email');
  const smtp = await configuredSmtp(app);
  if (!smtp) throw errors.mailUnavailable();
  const email = addressOf('email', body.email);
  const event = text(body.event);
  if (!isOneOf(EMAIL_EVENTS, event)) throw errors.parameterError();
  if (!(await solvedCaptcha(app, body))) throw errors.captchaError();
  const codes = new VerificationCodes(app);
  await codes.checkLimits(email, event, requester.ip);
  const deliver = await checkEvent(requester, 'email', email, event, body.password);
  const template = await app.db.selectFrom('mail_template').selectAll().where('event', '=', event).where('status', '=', '1').executeTakeFirst();
  const lang = await recipientLanguage(requester, 'email', email);
  const t = app.messages.translator(lang);
  const code = await codes.issue(email, event, requester.ip);
  const siteName = (await app.config.get('site_name')) || 'Chidao';
  const values = { code, site_name: siteName, event: t(`event.${event}`) };
  const subject = fill(template ? templateText(template, 'subject', lang) : '{event}-{site_name}', values);
  const content = template ? fill(templateText(template, 'content', lang), values) : t('Your verification code is: %s', [code]);
  if (!deliver) return;
  try {
    await sendMail(smtp, { to: email, subject, text: content }, app.settings.smtpTrustedCa);
  } catch (error) {
    // the code never reached the member: it must not count against their hourly allowance, and mail is
    // no longer offered until a message gets through again
    await app.db.deleteFrom('verification_code').where('address', '=', email).where('event', '=', event).where('used_time', 'is', null).execute();
    await recordCodeSent(app, 'email', false, reasonOf(error));
    throw errors.mailSendFailed();
  }
  await recordCodeSent(app, 'email', true);
}

/**
 * `POST /api/Sms/send`: the code goes through the configured SMS driver. Two bodies are read:
 * ours, `{mobile, event, template_code?}`, which may pick one of the event's templates by its code; and
 * BuildAdmin's, `{mobile, template_code, captchaId, captchaInfo}`, where the template code is the event's
 * name (`user_register`) and the event's enabled template is used, whatever its provider code.
 */
export async function sendSmsCode(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const sms = app.sms;
  await requireType(app, 'mobile');
  if (!sms?.sends) throw errors.smsUnavailable();
  const mobile = addressOf('mobile', body.mobile);
  const named = text(body.event);
  const event = named || text(body.template_code);
  if (!isOneOf(MOBILE_EVENTS, event)) throw errors.parameterError();
  const templateCode = named ? text(body.template_code) || event : '';
  let query = app.db.selectFrom('sms_template').selectAll().where('event', '=', event).where('status', '=', '1');
  if (templateCode) query = query.where('template_code', '=', templateCode);
  const template = await query.orderBy('id', 'asc').executeTakeFirst();
  if (!template) throw errors.smsTemplateMissing();
  // the same human check as a mail code (BuildAdmin's client solves the click captcha before an SMS too)
  if (!(await solvedCaptcha(app, body))) throw errors.captchaError();
  const codes = new VerificationCodes(app);
  await codes.checkLimits(mobile, event, requester.ip);
  const deliver = await checkEvent(requester, 'mobile', mobile, event, body.password);
  const lang = await recipientLanguage(requester, 'mobile', mobile);
  const code = await codes.issue(mobile, event, requester.ip);
  const siteName = (await app.config.get('site_name')) || 'Chidao';
  const params = { code };
  if (!deliver) return;
  try {
    await sms.send({
      mobile,
      templateCode: String(template.template_code ?? event),
      providerTemplate: templateText(template, 'provider_template', lang),
      params,
      content: fill(templateText(template, 'content', lang), { code, site_name: siteName }),
    });
  } catch (error) {
    await app.db.deleteFrom('verification_code').where('address', '=', mobile).where('event', '=', event).where('used_time', 'is', null).execute();
    await recordCodeSent(app, 'mobile', false, reasonOf(error));
    throw errors.smsSendFailed();
  }
  await recordCodeSent(app, 'mobile', true);
}

/**
 * `routine.Config/sendTestSms {mobile}`: the registration text with a sample code, through the SMS driver,
 * to a number the administrator gives; its outcome is kept as the SMS channel's (services/code-channels.ts).
 * The outbox keeps the text and answers that nothing was sent.
 */
export async function sendTestSms(app: AppContext, values: Row, lang: Language): Promise<void> {
  const sms = app.sms;
  if (!sms) throw errors.smsUnavailable();
  const mobile = text(values.mobile);
  if (!MOBILE_PATTERN.test(mobile)) throw errors.mobileFormat();
  const template = await app.db.selectFrom('sms_template').selectAll().where('event', '=', 'user_register').where('status', '=', '1').orderBy('id', 'asc').executeTakeFirst();
  if (!template) throw errors.smsTemplateMissing();
  const code = '2468';
  const siteName = (await app.config.get('site_name')) || 'Chidao';
  const message = {
    mobile,
    templateCode: String(template.template_code ?? 'user_register'),
    providerTemplate: templateText(template, 'provider_template', lang),
    params: { code },
    content: fill(templateText(template, 'content', lang), { code, site_name: siteName }),
  };
  try {
    await sms.send(message);
  } catch (error) {
    await recordChannelCheck(app, 'mobile', smsRoute(app, sms), { delivered: false, by: 'test', detail: reasonOf(error) });
    throw errors.testSmsFailed(reasonOf(error));
  }
  if (!sms.sends) throw errors.testSmsKeptInOutbox();
  await recordChannelCheck(app, 'mobile', smsRoute(app, sms), { delivered: true, by: 'test' });
}
