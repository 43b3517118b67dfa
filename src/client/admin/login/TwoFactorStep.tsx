import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Translate } from '../../i18n/translate.js';
import { groupedSecret, qrImageSource } from '../../components/two-factor-format.js';
import { LockIcon } from '../../components/login-art.js';
import { LoginAlert, LoginField, LoginSubmit } from '../../components/login-form-parts.js';
import type { TwoFactorStep as Step } from '../../providers/auth-provider.js';

function AuthenticatorQr({ uri, label }: { uri: string; label: string }) {
  return <img className="ba-two-factor__qr" src={qrImageSource(uri)} alt={label} width={180} height={180} />;
}

/** Recovery codes, one per line, shown once after two-factor sign-in is turned on or renewed. */
function RecoveryCodes({ codes, label }: { codes: readonly string[]; label: string }) {
  return (
    <ul className="ba-two-factor__codes" aria-label={label}>
      {codes.map((code) => (
        <li key={code}>
          <code>{code}</code>
        </li>
      ))}
    </ul>
  );
}

interface TwoFactorStepProps {
  step: Step;
  translate: Translate;
  verify(code: string): Promise<string[] | undefined>;
  /** signed in; `codes`: the recovery codes this step made, to show before going on */
  onSignedIn(codes?: string[]): void;
  onBack(): void;
}

/**
 * The second step of an admin's sign-in (docs/two-factor.md): the set-up when their group requires it and
 * they have none (QR code and key), then the code field.
 */
export function TwoFactorStepForm({ step, translate: t, verify, onSignedIn, onBack }: TwoFactorStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (code.trim() === '') {
      setError(t('login.twoFactor.codeRequired'));
      inputRef.current?.focus();
      return;
    }
    setError(undefined);
    setFailure('');
    setBusy(true);
    try {
      onSignedIn(await verify(code.trim()));
    } catch (caught) {
      setFailure(caught instanceof Error && caught.message ? caught.message : t('login.failed'));
      setBusy(false);
      inputRef.current?.select();
    }
  };

  return (
    <form
      className="ba-two-factor"
      noValidate
      onSubmit={onSubmit}
      aria-label={t(step.setup ? 'login.twoFactor.setupTitle' : 'login.twoFactor.title')}
    >
      {step.setup && (
        <div className="ba-two-factor__setup">
          <AuthenticatorQr uri={step.setup.uri} label={t('login.twoFactor.qr')} />
          <p className="ba-two-factor__secret">
            <span>{t('login.twoFactor.secret')}</span>
            <code>{groupedSecret(step.setup.secret)}</code>
          </p>
        </div>
      )}
      <LoginField
        name="code"
        label={t('login.twoFactor.code')}
        icon={<LockIcon />}
        value={code}
        onChange={setCode}
        error={error}
        hint={t('login.twoFactor.codeHint')}
        errorId="two-factor-code-error"
        autoComplete="one-time-code"
        inputMode="numeric"
        inputRef={inputRef}
      />
      <LoginSubmit busy={busy}>{t('login.twoFactor.verify')}</LoginSubmit>
      {failure && <LoginAlert>{failure}</LoginAlert>}
      <button type="button" className="ba-link-button" onClick={onBack}>
        {t('login.twoFactor.back')}
      </button>
    </form>
  );
}

/** After a sign-in that turned two-factor sign-in on: its recovery codes, once, and the way on. */
export function RecoveryCodesStep({
  codes,
  translate: t,
  onContinue,
}: {
  codes: readonly string[];
  translate: Translate;
  onContinue(): void;
}) {
  const continueRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    continueRef.current?.focus();
  }, []);
  return (
    <div className="ba-two-factor">
      <RecoveryCodes codes={codes} label={t('login.twoFactor.codesList')} />
      <button ref={continueRef} type="button" className="ba-button ba-button--primary" onClick={onContinue}>
        {t('login.twoFactor.continue')}
      </button>
    </div>
  );
}
