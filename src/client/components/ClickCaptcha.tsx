import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import type { Translate } from '../i18n/translate.js';
import { clickAnswer, offsetIn, type ClickPoint } from './click-answer.js';
import { newUuid } from './uuid.js';
import './ClickCaptcha.css';

/** What the real request (login, check-in, mail) sends along. */
export interface CaptchaResult {
  captchaId: string;
  captchaInfo: string;
}

interface Puzzle {
  id: string;
  /** targets in click order, e.g. `<圆形>` */
  text: string[];
  base64: string;
  width: number;
  height: number;
}

/** The part of the http client the captcha uses (resolves on code 1, rejects with the server message). */
export interface CaptchaClient {
  request<T>(path: string, options?: { method?: 'GET' | 'POST'; params?: Record<string, unknown>; data?: unknown; showErrorMessage?: boolean }): Promise<{ data: T; msg: string }>;
}

interface ClickCaptchaProps {
  client: CaptchaClient;
  translate: Translate;
  onSuccess(result: CaptchaResult): void;
  onClose(): void;
  /** pause between "Verification is successful!" and handing over, ms */
  successDelay?: number;
}

type Status = 'loading' | 'ready' | 'checking' | 'success' | 'failed' | 'broken';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : '';
}

/**
 * The click captcha (docs/wire-contract.md#click-captcha) as a modal panel: the puzzle image and the targets to
 * click in order; each click drops a numbered marker; the last one sends `"x1,y1-x2,y2;W;H"` to
 * `checkClickCaptcha` (`unset: false`, so the real request can verify it again). A miss shows the
 * server's message and brings a fresh puzzle.
 */
export function ClickCaptcha({ client, translate, onSuccess, onClose, successDelay = 600 }: ClickCaptchaProps) {
  const [puzzle, setPuzzle] = useState<Puzzle>();
  const [points, setPoints] = useState<ClickPoint[]>([]);
  const [status, setStatus] = useState<Status>('loading');
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string }>();
  const alive = useRef(true);
  // The pages pass a translate that changes once their messages arrive; that must not reload the puzzle.
  const translateRef = useRef(translate);
  translateRef.current = translate;

  const load = useCallback(
    async (keepMessage = false) => {
      setStatus('loading');
      setPoints([]);
      if (!keepMessage) setNotice(undefined);
      try {
        const response = await client.request<Puzzle>('/api/common/clickCaptcha', { params: { id: newUuid() }, showErrorMessage: false });
        if (!alive.current) return;
        setPuzzle(response.data);
        setStatus('ready');
      } catch (error) {
        if (!alive.current) return;
        setStatus('broken');
        setNotice({ kind: 'error', text: messageOf(error) || translateRef.current('captcha.loadFailed') });
      }
    },
    [client],
  );

  useEffect(() => {
    alive.current = true;
    void load();
    return () => {
      alive.current = false;
    };
  }, [load]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const check = async (clicks: ClickPoint[], width: number, height: number) => {
    if (!puzzle) return;
    const info = clickAnswer(clicks, width, height);
    setStatus('checking');
    try {
      const response = await client.request<null>('/api/common/checkClickCaptcha', {
        method: 'POST',
        data: { id: puzzle.id, info, unset: false },
        showErrorMessage: false,
      });
      if (!alive.current) return;
      setStatus('success');
      setNotice({ kind: 'success', text: response.msg || translate('captcha.success') });
      window.setTimeout(() => alive.current && onSuccess({ captchaId: puzzle.id, captchaInfo: info }), successDelay);
    } catch (error) {
      if (!alive.current) return;
      setStatus('failed');
      setNotice({ kind: 'error', text: messageOf(error) || translate('captcha.failed') });
      void load(true);
    }
  };

  const onImageClick = (event: MouseEvent<HTMLImageElement>) => {
    if (status !== 'ready' || !puzzle) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const next = [...points, offsetIn(rect, event.clientX, event.clientY)];
    setPoints(next);
    if (next.length >= puzzle.text.length) void check(next, rect.width, rect.height);
  };

  const title = translate('captcha.title');
  return (
    <div className="ba-captcha-mask" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="ba-captcha" role="dialog" aria-modal="true" aria-label={title}>
        <div className="ba-captcha__head">
          <span className="ba-captcha__title">{title}</span>
          <button type="button" className="ba-captcha__icon" onClick={onClose} aria-label={translate('captcha.close')} title={translate('captcha.close')}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
          </button>
        </div>
        <div className="ba-captcha__stage">
          {puzzle ? (
            <img
              className="ba-captcha__image"
              src={puzzle.base64}
              width={puzzle.width}
              height={puzzle.height}
              alt={translate('captcha.imageAlt')}
              draggable={false}
              onClick={onImageClick}
            />
          ) : (
            <div className="ba-captcha__placeholder" />
          )}
          {points.map((point, index) => (
            <span key={index} className="ba-captcha__marker" style={{ left: point.x, top: point.y }}>
              {index + 1}
            </span>
          ))}
          {(status === 'loading' || status === 'checking') && <div className="ba-captcha__busy" aria-hidden="true"><span className="ba-spinner" /></div>}
        </div>
        <div className={`ba-captcha__notice ba-captcha__notice--${notice?.kind ?? 'none'}`} role="status" aria-live="polite">
          {notice?.text}
        </div>
        <div className="ba-captcha__foot">
          <div className="ba-captcha__prompt">
            {puzzle && status !== 'broken' ? (
              <>
                {translate('captcha.prompt')} <strong className="ba-captcha__targets">{puzzle.text.join(' ')}</strong>
              </>
            ) : status === 'broken' ? null : (
              translate('captcha.loading')
            )}
          </div>
          <button type="button" className="ba-captcha__icon" onClick={() => void load()} disabled={status === 'checking'} aria-label={translate('captcha.refresh')} title={translate('captcha.refresh')}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M20 11a8 8 0 1 0-2.3 5.7M20 5v6h-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" /></svg>
          </button>
        </div>
      </div>
    </div>
  );
}
