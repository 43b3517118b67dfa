import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ClickCaptcha } from '../../components/ClickCaptcha.js';
import { CodeIcon, LockIcon, MailIcon, PhoneIcon, UserIcon } from '../../components/login-art.js';
import { LoginAlert, LoginField, LoginSubmit } from '../../components/login-form-parts.js';
import type { Translate } from '../../i18n/translate.js';
import { fieldOf, messageOf } from '../../http/error-body.js';
import { accountApi, type AccountApi, type CodeEvent, type VerificationType } from '../account-api.js';
import { useCodeSender } from '../use-code-sender.js';
import { memberApi, type CodeOptions, type MemberApi } from './member-api.js';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, MOBILE_PATTERN, PASSWORD_PATTERN, USERNAME_PATTERN } from '../../../contract/credentials.js';

/**
 * The member login page's other two cards (plain React: the page must stay light): registering with
 * a code sent to an email address or mobile number, and setting a new password with such a code.
 */

type Values = Record<string, string>;
type Errors = Record<string, string | undefined>;
/** A field's rule: the message key of what is wrong with its value, or undefined when nothing is. */
type Rule = (value: string) => string | undefined;

/**
 * The account rules of src/contract/credentials.ts, each field's whole rule (the server checks them
 * again): a form checks every field at once, and shows each field's rule under it before anything is typed.
 */
const usernameRule: Rule = (value) => (value.trim() === '' ? 'usernameRequired' : USERNAME_PATTERN.test(value.trim()) ? undefined : 'username');
const passwordRule: Rule = (value) => (value === '' ? 'passwordRequired' : PASSWORD_PATTERN.test(value) ? undefined : 'password');
const codeRule: Rule = (value) => (value.trim() === '' ? 'codeRequired' : undefined);
function addressRule(type: VerificationType): Rule {
  return (raw) => {
    const value = raw.trim();
    if (value === '') return `${type}Required`;
    const valid = type === 'email' ? EMAIL_PATTERN.test(value) && value.length <= EMAIL_MAX_LENGTH : MOBILE_PATTERN.test(value);
    return valid ? undefined : type;
  };
}

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
   * Submits the form: every field breaking its rule gets its message, all at once; only when none
   * does `work` run.
   */
  const submit = (event: FormEvent, rules: Record<string, Rule>, work: () => Promise<void>) => {
    event.preventDefault();
    const broken: Errors = {};
    for (const [name, rule] of Object.entries(rules)) {
      const key = rule(values[name] ?? '');
      if (key) broken[name] = t(`account.rules.${key}`);
    }
    if (Object.keys(broken).length > 0) {
      setFailure('');
      setNotice('');
      return setErrors(broken);
    }
    void run(work);
  };
  /** What a `LoginField` needs to show and edit one of the form's values; `hint` is the field's rule, shown until it is broken. */
  const bind = (name: string, hint?: string) => ({
    name,
    value: values[name] ?? '',
    onChange: (value: string) => onChange(name, value),
    error: errors[name],
    hint,
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
  const sendButton = (address: () => string, type: VerificationType, event: CodeEvent, addressField: string) => {
    const wait = sender.waitFor({ type, address: address(), event });
    return (
      <button
        type="button"
        className="ba-field__send"
        disabled={sender.sending || wait > 0}
        onClick={() => {
          const value = address().trim();
          // a code goes only to an address that can be one: its rule is checked first
          const broken = addressRule(type)(value);
          if (broken) return setErrors((current) => ({ ...current, [addressField]: t(`account.rules.${broken}`) }));
          sender.send({ type, address: value, event });
        }}
      >
        {wait > 0 ? t('account.resend', { seconds: wait }) : t('account.send')}
      </button>
    );
  };
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
  return { values, bind, submit, run, sendButton, footer };
}

/** Each address type's field icon. */
const ADDRESS_ICONS: Record<VerificationType, ReactNode> = { email: <MailIcon />, mobile: <PhoneIcon /> };

/**
 * The address types whose codes the site can deliver now (`GET /api/user/checkIn` →
 * `accountVerificationType`: the server offers a channel only once a message through it has arrived), the
 * first one chosen, and whether registering without a code is allowed. Undefined until the answer arrives, so
 * no form starts on a type the site cannot serve.
 */
function useCodeOptions(api: MemberApi): [CodeOptions | undefined, VerificationType | undefined, (type: VerificationType) => void] {
  const [options, setOptions] = useState<CodeOptions | undefined>(undefined);
  const [type, setType] = useState<VerificationType | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    api.codeOptions().then(
      (found) => {
        if (!alive) return;
        setOptions(found);
        setType(found.types[0]);
      },
      () => alive && setOptions({ types: [], registerWithoutCode: false }),
    );
    return () => {
      alive = false;
    };
  }, [api]);
  return [options, type, setType];
}

/** Said instead of a form when the site can deliver no code at all (or could not be asked). */
function NoMethod({ t }: { t: Translate }) {
  return <LoginAlert>{t('account.noMethod')}</LoginAlert>;
}

/** Register (docs/wire-contract.md#login-and-registration, register scene): username, password, the address and the code sent to it. */
export function RegisterForm({ t, onRegistered, api = accountApi, member = memberApi }: { t: Translate; onRegistered(): void; api?: AccountApi; member?: MemberApi }) {
  const form = useAccountForm(t, api, member, { captcha: 'code' });
  const [options, type, setType] = useCodeOptions(member);
  const { values } = form;
  if (!options) return null;
  if (!type) return options.registerWithoutCode ? <RegisterWithoutCodeForm t={t} onRegistered={onRegistered} api={api} member={member} /> : <NoMethod t={t} />;
  const { types } = options;
  const onSubmit = (event: FormEvent) =>
    form.submit(event, { username: usernameRule, password: passwordRule, [type]: addressRule(type), code: codeRule }, async () => {
      const info = await api.register({ registerType: type, username: values.username.trim(), password: values.password, [type]: values[type].trim(), captcha: values.code.trim() });
      member.remember(info);
      onRegistered();
    });
  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('account.register.title')}>
      <TypeChoice t={t} types={types} value={type} onChange={setType} />
      <LoginField {...form.bind('username', t('account.hints.username'))} label={t('account.username')} autoComplete="username" icon={<UserIcon />} />
      <LoginField {...form.bind('password', t('account.hints.password'))} label={t('account.password')} type="password" autoComplete="new-password" icon={<LockIcon />} />
      <LoginField {...form.bind(type)} label={t(`account.by.${type}`)} type={type === 'email' ? 'email' : 'tel'} autoComplete={type === 'email' ? 'email' : 'tel'} icon={ADDRESS_ICONS[type]} />
      <LoginField {...form.bind('code')} label={t('account.code')} autoComplete="one-time-code" icon={<CodeIcon />} action={form.sendButton(() => values[type] ?? '', type, 'user_register', type)} />
      {form.footer(t('account.register.submit'))}
    </form>
  );
}

/**
 * Register with a username and password alone, where the site allows it (`registerWithoutCode`, while no
 * code can be sent on a fresh install): the click captcha is the human check, solved on submit. An
 * address is bound later, from the profile, with a code.
 */
function RegisterWithoutCodeForm({ t, onRegistered, api, member }: { t: Translate; onRegistered(): void; api: AccountApi; member: MemberApi }) {
  const form = useAccountForm(t, api, member, {});
  const [captcha, setCaptcha] = useState(false);
  const { values } = form;
  const onSubmit = (event: FormEvent) => form.submit(event, { username: usernameRule, password: passwordRule }, async () => setCaptcha(true));
  const solved = ({ captchaId, captchaInfo }: { captchaId: string; captchaInfo: string }) => {
    setCaptcha(false);
    void form.run(async () => {
      const info = await api.register({ username: values.username.trim(), password: values.password, captchaId, captchaInfo });
      member.remember(info);
      onRegistered();
    });
  };
  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('account.register.title')} aria-describedby="register-without-code">
      <p className="ba-login__hint" id="register-without-code">
        {t('account.register.withoutCode')}
      </p>
      <LoginField {...form.bind('username', t('account.hints.username'))} label={t('account.username')} autoComplete="username" icon={<UserIcon />} />
      <LoginField {...form.bind('password', t('account.hints.password'))} label={t('account.password')} type="password" autoComplete="new-password" icon={<LockIcon />} />
      {form.footer(t('account.register.submit'))}
      {captcha && <ClickCaptcha client={member.client} translate={t} onClose={() => setCaptcha(false)} onSuccess={solved} />}
    </form>
  );
}

/** Forgot password (`POST /api/account/retrievePassword`): the address, its code and a new password. */
export function RetrieveForm({ t, onDone, api = accountApi, member = memberApi }: { t: Translate; onDone(message: string): void; api?: AccountApi; member?: MemberApi }) {
  // The address is typed in `account`; refusals about it name `email` or `mobile`.
  const form = useAccountForm(t, api, member, { captcha: 'code', email: 'account', mobile: 'account' });
  const [options, type, setType] = useCodeOptions(member);
  const { values } = form;
  if (!options) return null;
  if (!type) return <NoMethod t={t} />;
  const { types } = options;
  const onSubmit = (event: FormEvent) =>
    form.submit(event, { account: addressRule(type), code: codeRule, password: passwordRule }, async () =>
      onDone(await api.retrievePassword({ type, account: values.account.trim(), captcha: values.code.trim(), password: values.password })),
    );
  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('account.retrieve.title')}>
      <TypeChoice t={t} types={types} value={type} onChange={setType} />
      <LoginField {...form.bind('account')} label={t(`account.by.${type}`)} type={type === 'email' ? 'email' : 'tel'} autoComplete={type === 'email' ? 'email' : 'tel'} icon={ADDRESS_ICONS[type]} />
      <LoginField {...form.bind('code')} label={t('account.code')} autoComplete="one-time-code" icon={<CodeIcon />} action={form.sendButton(() => values.account ?? '', type, 'user_retrieve_pwd', 'account')} />
      <LoginField {...form.bind('password', t('account.hints.password'))} label={t('account.newPassword')} type="password" autoComplete="new-password" icon={<LockIcon />} />
      {form.footer(t('account.retrieve.submit'))}
    </form>
  );
}
