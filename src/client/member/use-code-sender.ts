import { useEffect, useState } from 'react';
import type { CaptchaResult } from '../components/ClickCaptcha.js';
import type { AccountApi, CodeRequest } from './account-api.js';

/** Seconds before another code may be asked for the same address (the server refuses sooner ones). */
const RESEND_SECONDS = 60;

interface CodeSender {
  /** seconds until "send" is offered again; 0 when it is */
  wait: number;
  sending: boolean;
  /** set while the click captcha must be solved first (mail codes, docs/wire-contract.md#sending-codes) */
  pending?: CodeRequest;
  send(request: CodeRequest): void;
  /** the captcha was solved: the pending request goes out with it */
  solved(result: CaptchaResult): void;
  cancel(): void;
}

/**
 * Asking for a verification code, without any UI: a mail code needs the click captcha first, an SMS
 * code goes at once; after a send the button waits `RESEND_SECONDS`. The outcome goes to `onSent`
 * (the server's message) or `onFailed` (the refusal).
 */
export function useCodeSender(api: Pick<AccountApi, 'sendCode'>, onSent: (message: string) => void, onFailed: (error: unknown) => void): CodeSender {
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState<CodeRequest | undefined>(undefined);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setWait((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [wait]);

  async function deliver(request: CodeRequest) {
    setSending(true);
    try {
      const message = await api.sendCode(request);
      setWait(RESEND_SECONDS);
      onSent(message);
    } catch (error) {
      onFailed(error);
    } finally {
      setSending(false);
    }
  }

  return {
    wait,
    sending,
    pending,
    send(request) {
      if (sending || wait > 0) return;
      if (request.type === 'email') setPending(request);
      else void deliver(request);
    },
    solved(result) {
      if (!pending) return;
      setPending(undefined);
      void deliver({ ...pending, ...result });
    },
    cancel: () => setPending(undefined),
  };
}
