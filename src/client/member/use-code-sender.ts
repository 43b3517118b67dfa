import { useEffect, useState } from 'react';
import type { CaptchaResult } from '../components/ClickCaptcha.js';
import type { AccountApi, CodeRequest } from './account-api.js';

/** Seconds before another code may be asked for the same address (the server refuses sooner ones). */
const RESEND_SECONDS = 60;

/** What a code is for: its address and event (a code for another address or step has its own wait). */
type CodeTarget = Pick<CodeRequest, 'type' | 'address' | 'event'>;

function targetKey({ type, address, event }: CodeTarget): string {
  return `${type}\n${address.trim()}\n${event}`;
}

interface CodeSender {
  /** seconds until "send" is offered again for this address and event; 0 when it is (or no code went to it) */
  waitFor(target: CodeTarget): number;
  sending: boolean;
  /** set while the click captcha must be solved first (every code, docs/wire-contract.md#sending-codes) */
  pending?: CodeRequest;
  send(request: CodeRequest): void;
  /** the captcha was solved: the pending request goes out with it */
  solved(result: CaptchaResult): void;
  cancel(): void;
}

/**
 * Asking for a verification code, without any UI: a code by mail or by SMS needs the click captcha
 * first; after a send, asking again for the same address and event waits `RESEND_SECONDS` (another
 * address, or the next step's event, is not kept waiting by it). The outcome goes to `onSent`
 * (the server's message) or `onFailed` (the refusal).
 */
export function useCodeSender(api: Pick<AccountApi, 'sendCode'>, onSent: (message: string) => void, onFailed: (error: unknown) => void): CodeSender {
  const [wait, setWait] = useState(0);
  // the address and event the last code went to: only they wait
  const [sentTo, setSentTo] = useState('');
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
      setSentTo(targetKey(request));
      setWait(RESEND_SECONDS);
      onSent(message);
    } catch (error) {
      onFailed(error);
    } finally {
      setSending(false);
    }
  }

  const waitFor = (target: CodeTarget) => (targetKey(target) === sentTo ? wait : 0);
  return {
    waitFor,
    sending,
    pending,
    send(request) {
      if (sending || waitFor(request) > 0) return;
      setPending(request);
    },
    solved(result) {
      if (!pending) return;
      setPending(undefined);
      void deliver({ ...pending, ...result });
    },
    cancel: () => setPending(undefined),
  };
}
