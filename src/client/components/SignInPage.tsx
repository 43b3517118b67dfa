import { useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import type { Language } from '../../contract/headers.js';
import type { Translate } from '../i18n/translate.js';
import { ClickCaptcha, type CaptchaClient, type CaptchaResult } from './ClickCaptcha.js';
import { useDocumentTitle } from './document-title.js';
import { servedSiteName } from './site-identity.js';
import { checkPassword } from './credential-rules.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { EyeIcon, LockIcon, LoginArt, LogoMark, UserIcon } from './login-art.js';
import { LoginAlert, LoginField, LoginSubmit } from './login-form-parts.js';
import './login-page.css';

interface SignInCredentials {
  username: string;
  password: string;
  keep: boolean;
  captchaId?: string;
  captchaInfo?: string;
}

export interface SignInApi {
  client: CaptchaClient;
  loginState(): Promise<{ captcha: boolean }>;
  /** `'second-step'`: the password was right and the page shows a second step (`alternative`), not signed in yet */
  login(credentials: SignInCredentials): Promise<void | 'second-step'>;
}

interface SignInPageProps {
  variant: 'admin' | 'member';
  api: SignInApi;
  /** the page's message pack (`useMessages`); until it is `ready` the page shows its background only */
  messages: { translate: Translate; language: Language; ready: boolean };
  /** the account rule of the area (the password rule is the same for both): a message key below `login.` */
  checkAccount(value: string): string | undefined;
  /** after a successful login */
  onSignedIn(): void;
  /** shown below the login form (the member page's "register" and "forgot password" links) */
  links?: ReactNode;
  /** shown in the card instead of the login form (the member page's register and retrieve forms) */
  alternative?: { title: string; subtitle: string; body: ReactNode };
}

interface Errors {
  username?: string;
  password?: string;
}

/**
 * The sign-in page shared by the back office and the member area (plain React and CSS: it must stay
 * light). Field rules are checked before anything is sent; the click captcha is asked for when the
 * server wants it; "remember me" asks for a refresh token (`keep`).
 */
export function SignInPage({ variant, api, messages: { translate: t, language, ready }, checkAccount, onSignedIn, links, alternative }: SignInPageProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [keep, setKeep] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [touched, setTouched] = useState(false);
  const [captchaNeeded, setCaptchaNeeded] = useState(true);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useDocumentTitle(ready ? (alternative?.title ?? t('login.title')) : '');

  useEffect(() => {
    let alive = true;
    api.loginState().then(
      (state) => alive && setCaptchaNeeded(state.captcha),
      () => undefined,
    );
    usernameRef.current?.focus();
    return () => {
      alive = false;
    };
  }, [api]);

  const validate = (): Errors => ({ username: checkAccount(username), password: checkPassword(password) });

  const submit = async (captcha?: CaptchaResult) => {
    setBusy(true);
    setFailure('');
    try {
      const next = await api.login({ username: username.trim(), password, keep, ...(captcha ?? {}) });
      if (next === 'second-step') setBusy(false);
      else onSignedIn();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : t('login.failed'));
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    setTouched(true);
    if (found.username) return usernameRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (captchaNeeded) setCaptchaOpen(true);
    else void submit();
  };

  const recheck = (field: keyof Errors, value: string) => {
    if (!touched) return;
    setErrors((current) => ({ ...current, [field]: field === 'username' ? checkAccount(value) : checkPassword(value) }));
  };

  /** What a `LoginField` needs to show and edit the username or the password. */
  const bind = (field: keyof Errors, value: string, set: (value: string) => void, inputRef: RefObject<HTMLInputElement | null>) => ({
    name: field,
    label: t(`login.${field}`),
    inputRef,
    error: errors[field] ? t(errors[field]) : undefined,
    errorId: `sign-in-${field}-error`,
    value,
    onChange: (next: string) => {
      set(next);
      recheck(field, next);
    },
  });

  if (!ready) return <div className={`ba-login ba-login--${variant}`} />;
  return (
    <div className={`ba-login ba-login--${variant}`}>
      <header className="ba-login__top">
        <span />
        <LanguageSwitch current={language} />
      </header>
      <main className="ba-login__panel">
        <section className="ba-login__aside">
          <div>
            <span className="ba-login__logo">
              <LogoMark />
            </span>
            <h2>{servedSiteName() || t('login.brand')}</h2>
            <p>{t('login.tagline')}</p>
          </div>
          <LoginArt />
        </section>
        <section className="ba-login__card">
          <h1>{alternative?.title ?? t('login.title')}</h1>
          <p className="ba-login__subtitle">{alternative?.subtitle ?? t('login.subtitle')}</p>
          {alternative?.body}
          <form hidden={alternative !== undefined} noValidate onSubmit={onSubmit} aria-label={t('login.title')}>
            <LoginField {...bind('username', username, setUsername, usernameRef)} icon={<UserIcon />} autoComplete="username" />
            <LoginField
              {...bind('password', password, setPassword, passwordRef)}
              icon={<LockIcon />}
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              action={
                <button
                  type="button"
                  className="ba-field__toggle"
                  onClick={() => setShowPassword((shown) => !shown)}
                  aria-label={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                  title={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                >
                  <EyeIcon open={showPassword} />
                </button>
              }
            />
            <div className="ba-login__row">
              <label className="ba-check">
                <input type="checkbox" name="keep" checked={keep} onChange={(event) => setKeep(event.target.checked)} />
                {t('login.remember')}
              </label>
            </div>
            <LoginSubmit busy={busy}>{t('login.submit')}</LoginSubmit>
            {failure && <LoginAlert>{failure}</LoginAlert>}
            {links}
          </form>
        </section>
      </main>
      <footer className="ba-login__footer">{t('login.footer')}</footer>
      {captchaOpen && (
        <ClickCaptcha
          client={api.client}
          translate={t}
          onClose={() => setCaptchaOpen(false)}
          onSuccess={(result) => {
            setCaptchaOpen(false);
            void submit(result);
          }}
        />
      )}
    </div>
  );
}
