import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ClickCaptcha } from '../../components/ClickCaptcha.js';
import { CodeIcon, LockIcon, MailIcon, PhoneIcon, UserIcon } from '../../components/login-art.js';
import { LoginAlert, LoginField, LoginSubmit } from '../../components/login-form-parts.js';
import type { Translate } from '../../i18n/translate.js';
import { fieldOf, messageOf } from '../../http/error-body.js';
import { accountApi, type AccountApi, type CodeEvent, type VerificationType } from '../account-api.js';
import { useCodeSender } from '../use-code-sender.js';
import { memberApi, type MemberApi } from './member-api.js';

/**
 * The member login page's other two cards (plain React: the page must stay light): registering with
 * a code sent to an email address or mobile number, and setting a new password with such a code.
 */

type Values = Record<string, string>;
type Errors = Record<string, string | undefined>;

/** The address type choice, shown when the site verifies both. */
function TypeChoice({ t, types, value, onChange }: { t: Translate; types: VerificationType[]; value: VerificationType; onChange(type: VerificationType): void }) {
  if (types.length < 2) return null;
  return (
    <div className="ba-login__row" role="radiogroup" aria-label={t('account.byType')}>
      {types.map((type) => (
        <label key={type} className="ba-check">
          <input type="radio" name="verification-type" checked={value === type} onChange={() => onChange(type)} />
          {t(`account.by.${type}`)}
        </label>
      ))}
    </div>
  );
}

/** One form of the two: values, errors (local or from the server), the code sender and the captcha. */
function useAccountForm(t: Translate, api: AccountApi, member: MemberApi, fieldNames: Record<string, string>) {
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const refused = (error: unknown) => {
    const field = fieldOf(error);
    if (field) setErrors({ [fieldNames[field] ?? field]: messageOf(error) });
    else setFailure(messageOf(error));
  };
  const sender = useCodeSender(
    api,
    (message) => {
      setErrors({});
      setFailure('');
      setNotice(message);
    },
    refused,
  );
  const onChange = (name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };
  /**
   * Submits the form: each empty field of `required` gets its "required" message (`ruleOf` names the
   * message when it is not the field's own); only when all are filled does `work` run.
   */
  const submit = (event: FormEvent, required: string[], work: () => Promise<void>, ruleOf = (name: string) => name) => {
    event.preventDefault();
    const missing: Errors = {};
    for (const name of required) if (!(values[name] ?? '').trim()) missing[name] = t(`account.rules.${ruleOf(name)}Required`);
    if (Object.keys(missing).length > 0) return setErrors(missing);
    void run(work);
  };
  /** What a `LoginField` needs to show and edit one of the form's values. */
  const bind = (name: string) => ({
    name,
    value: values[name] ?? '',
    onChange: (value: string) => onChange(name, value),
    error: errors[name],
    errorId: `account-${name}-error`,
  });
  async function run(work: () => Promise<void>) {
    setBusy(true);
    setFailure('');
    setNotice('');
    try {
      await work();
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  }
  const sendButton = (address: () => string, type: VerificationType, event: CodeEvent, addressField: string) => (
    <button
      type="button"
      className="ba-field__send"
      disabled={sender.sending || sender.wait > 0}
      onClick={() => {
        const value = address().trim();
        if (!value) return setErrors({ [addressField]: t(`account.rules.${type}Required`) });
        sender.send({ type, address: value, event });
      }}
    >
      {sender.wait > 0 ? t('account.resend', { seconds: sender.wait }) : t('account.send')}
    </button>
  );
  const footer = (submitLabel: string) => (
    <>
      <LoginSubmit busy={busy}>{submitLabel}</LoginSubmit>
      {notice && (
        <p className="ba-login__notice" role="status">
          {notice}
        </p>
      )}
      {failure && <LoginAlert>{failure}</LoginAlert>}
      {sender.pending && <ClickCaptcha client={member.client} translate={t} onClose={sender.cancel} onSuccess={sender.solved} />}
    </>
  );
  return { values, bind, submit, sendButton, footer };
}

/** Each address type's field icon. */
const ADDRESS_ICONS: Record<VerificationType, ReactNode> = { email: <MailIcon />, mobile: <PhoneIcon /> };

/**
 * The address types whose codes the site can deliver now (`GET /api/user/checkIn` →
 * `accountVerificationType`: the server leaves out mail without mail settings, SMS without an SMS driver), the first one
 * chosen. Undefined until the answer arrives, so no form starts on a type the site cannot serve.
 */
function useVerificationTypes(api: MemberApi): [VerificationType[] | undefined, VerificationType | undefined, (type: VerificationType) => void] {
  const [types, setTypes] = useState<VerificationType[] | undefined>(undefined);
  const [type, setType] = useState<VerificationType | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    api.verificationTypes().then(
      (found) => {
        if (!alive) return;
        setTypes(found);
        setType(found[0]);
      },
      () => alive && setTypes([]),
    );
    return () => {
      alive = false;
    };
  }, [api]);
  return [types, type, setType];
}

/** Said instead of a form when the site can deliver no code at all (or could not be asked). */
function NoMethod({ t }: { t: Translate }) {
  return <LoginAlert>{t('account.noMethod')}</LoginAlert>;
}

/** Register (docs/wire-contract.md#login-and-registration, register scene): username, password, the address and the code sent to it. */
export function RegisterForm({ t, onRegistered, api = accountApi, member = memberApi }: { t: Translate; onRegistered(): void; api?: AccountApi; member?: MemberApi }) {
  const form = useAccountForm(t, api, member, { captcha: 'code' });
  const [types, type, setType] = useVerificationTypes(member);
  const { values } = form;
  if (!types) return null;
  if (!type) return <NoMethod t={t} />;
  const onSubmit = (event: FormEvent) =>
    form.submit(event, ['username', 'password', type, 'code'], async () => {
      const info = await api.register({ registerType: type, username: values.username.trim(), password: values.password, [type]: values[type].trim(), captcha: values.code.trim() });
      member.remember(info);
      onRegistered();
    });
  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('account.register.title')}>
      <TypeChoice t={t} types={types} value={type} onChange={setType} />
      <LoginField {...form.bind('username')} label={t('account.username')} autoComplete="username" icon={<UserIcon />} />
      <LoginField {...form.bind('password')} label={t('account.password')} type="password" autoComplete="new-password" icon={<LockIcon />} />
      <LoginField {...form.bind(type)} label={t(`account.by.${type}`)} type={type === 'email' ? 'email' : 'tel'} autoComplete={type === 'email' ? 'email' : 'tel'} icon={ADDRESS_ICONS[type]} />
      <LoginField {...form.bind('code')} label={t('account.code')} autoComplete="one-time-code" icon={<CodeIcon />} action={form.sendButton(() => values[type] ?? '', type, 'user_register', type)} />
      {form.footer(t('account.register.submit'))}
    </form>
  );
}

/** Forgot password (`POST /api/account/retrievePassword`): the address, its code and a new password. */
export function RetrieveForm({ t, onDone, api = accountApi, member = memberApi }: { t: Translate; onDone(message: string): void; api?: AccountApi; member?: MemberApi }) {
  // The address is typed in `account`; refusals about it name `email` or `mobile`.
  const form = useAccountForm(t, api, member, { captcha: 'code', email: 'account', mobile: 'account' });
  const [types, type, setType] = useVerificationTypes(member);
  const { values } = form;
  if (!types) return null;
  if (!type) return <NoMethod t={t} />;
  const onSubmit = (event: FormEvent) =>
    form.submit(
      event,
      ['account', 'code', 'password'],
      async () => onDone(await api.retrievePassword({ type, account: values.account.trim(), captcha: values.code.trim(), password: values.password })),
      (name) => (name === 'account' ? type : name),
    );
  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('account.retrieve.title')}>
      <TypeChoice t={t} types={types} value={type} onChange={setType} />
      <LoginField {...form.bind('account')} label={t(`account.by.${type}`)} type={type === 'email' ? 'email' : 'tel'} autoComplete={type === 'email' ? 'email' : 'tel'} icon={ADDRESS_ICONS[type]} />
      <LoginField {...form.bind('code')} label={t('account.code')} autoComplete="one-time-code" icon={<CodeIcon />} action={form.sendButton(() => values.account ?? '', type, 'user_retrieve_pwd', 'account')} />
      <LoginField {...form.bind('password')} label={t('account.newPassword')} type="password" autoComplete="new-password" icon={<LockIcon />} />
      {form.footer(t('account.retrieve.submit'))}
    </form>
  );
}
