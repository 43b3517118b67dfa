import type { ReactNode, Ref } from 'react';
import { AlertIcon } from './login-art.js';

/** The pieces the sign-in, register and forgot-password cards are built of (plain React: these pages stay light). */

interface LoginFieldProps {
  name: string;
  /** the placeholder and the accessible name */
  label: string;
  icon: ReactNode;
  value: string;
  onChange(value: string): void;
  /** the message shown under the field, already translated; the field is marked invalid while there is one */
  error?: string;
  /** the field's rule, shown under it (and describing it) while there is no error */
  hint?: string;
  /** id of the message line, which the input is described by */
  errorId: string;
  type?: string;
  autoComplete?: string;
  /** the keyboard a phone offers (`numeric` for codes) */
  inputMode?: 'numeric' | 'text';
  inputRef?: Ref<HTMLInputElement>;
  /** a button inside the field, after the input (show password, send code) */
  action?: ReactNode;
}

/** One text field of a login card: its icon, the input, an optional button and the line for its error (or its rule). */
export function LoginField({ name, label, icon, value, onChange, error, hint, errorId, type, autoComplete, inputMode, inputRef, action }: LoginFieldProps) {
  return (
    <>
      <label className={`ba-field${error ? ' is-invalid' : ''}`}>
        <span className="ba-field__icon">{icon}</span>
        <input
          ref={inputRef}
          name={name}
          type={type}
          autoComplete={autoComplete}
          inputMode={inputMode}
          placeholder={label}
          aria-label={label}
          aria-invalid={Boolean(error)}
          aria-describedby={errorId}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
        {action}
      </label>
      <div className={`ba-field-error${!error && hint ? ' ba-field-error--hint' : ''}`} id={errorId}>
        {error ?? hint ?? ''}
      </div>
    </>
  );
}

/** A card's submit button, with a spinner while the request runs. */
export function LoginSubmit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="ba-button ba-button--primary" disabled={busy}>
      {busy && <span className="ba-button__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** Why a card's request failed (or cannot be made), announced at once. */
export function LoginAlert({ children }: { children: ReactNode }) {
  return (
    <div className="ba-login__alert" role="alert">
      <AlertIcon />
      <span>{children}</span>
    </div>
  );
}
