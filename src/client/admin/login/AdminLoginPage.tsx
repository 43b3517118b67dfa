import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { SignInPage } from '../../components/SignInPage.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { preloadMessages, useMessages } from '../../i18n/use-messages.js';
import { ADMIN_BASE } from '../admin-base.js';
import { preloadRoute } from '../../router.js';
import { loadingPath, safeTarget, targetOf } from '../../shell/target.js';
import { checkAccount } from '../../components/credential-rules.js';
import { adminLoginApi, type AdminLoginApi } from './login-api.js';
import { RecoveryCodesStep, TwoFactorStepForm } from './TwoFactorStep.js';
import type { SignInApi } from '../../components/SignInPage.js';
import type { TwoFactorStep } from '../../providers/auth-provider.js';

/** Where to go after login: the place asked for before being sent here (react-admin's state, or `?to=`). */
export function wantedTarget(state: unknown, search: string): string | undefined {
  const fromState = state as { nextPathname?: unknown; nextSearch?: unknown } | null;
  if (fromState && typeof fromState.nextPathname === 'string') {
    return targetOf(
      fromState.nextPathname,
      typeof fromState.nextSearch === 'string' ? fromState.nextSearch : '',
      ADMIN_BASE,
    );
  }
  const to = new URLSearchParams(search).get('to');
  return to ? safeTarget(to) : undefined;
}

/**
 * Fetches the back office's code once the person starts on the form (a key or a click), not when the
 * page opens: the form paints without it, and the wait after the captcha is mostly gone.
 */
function useWarmBackOffice(load: () => Promise<unknown>): void {
  useEffect(() => {
    const warm = () => {
      stop();
      load().catch(() => undefined);
    };
    const stop = () => {
      window.removeEventListener('keydown', warm, true);
      window.removeEventListener('pointerdown', warm, true);
    };
    window.addEventListener('keydown', warm, true);
    window.addEventListener('pointerdown', warm, true);
    return stop;
  }, [load]);
}

/** The back office's code, fetched through its route so that the login opens it drawn at once, without the route's spinner. */
async function backOffice() {
  await preloadRoute({ pathname: `${ADMIN_BASE}/`, search: '' });
  return import('../AdminApp.js');
}

/**
 * The back office's code, and what its first page draws besides: the shell's words, the browser's
 * time-zone data for its dates, and when the person is headed for the dashboard (no other page asked
 * for: most logins) its code and words. A list's path fetches no dashboard. (The menus' icons are a
 * few kilobytes the server sends with the menus' first drawing.)
 */
function loadBackOffice(target: string | undefined): () => Promise<unknown> {
  const toDashboard = target === undefined || target === '/' || /^\/dashboard(?:[/?#]|$)/.test(target);
  return () =>
    backOffice().then((app) =>
      Promise.all([
        preloadMessages([...app.ADMIN_MESSAGE_FILES, ...(toDashboard ? app.DASHBOARD_MESSAGE_FILES : [])]),
        toDashboard ? app.preloadDashboard() : undefined,
        import('../../format/datetime.js').then((dates) => dates.prepareDateFormatting()),
      ]),
    );
}

/**
 * After the login: the back office's code, its menus (and the first list's rows when the target is
 * one), then the path to open. Rejects when the menus could not be fetched.
 */
function openBackOffice(target: string | undefined): Promise<string> {
  return backOffice().then((app) => app.openBackOffice(target));
}

/**
 * Admin login (docs/client.md#routes, #validation-before-sending), title "Login". On success the back
 * office's menus are fetched while the button stays busy, and the page the user wanted (by default
 * the first menu) opens directly with them. When they cannot be fetched, the loading route
 * (`/chidaoadminstator/loading/<target>`) shows why and offers to try again.
 */
export function AdminLoginPage({ api = adminLoginApi }: { api?: AdminLoginApi }) {
  const messages = useMessages(PAGE_MESSAGES.adminLogin);
  const navigate = useNavigate();
  const location = useLocation();
  const target = wantedTarget(location.state, location.search);
  const warm = useMemo(() => loadBackOffice(target), [target]);
  useWarmBackOffice(warm);
  const [step, setStep] = useState<TwoFactorStep>();
  const [codes, setCodes] = useState<string[]>();
  // The password step; when the account signs in with a one-time code, the card turns to the code's step.
  const signIn = useMemo<SignInApi>(
    () => ({
      client: api.client,
      loginState: () => api.loginState(),
      login: async (credentials) => {
        const next = await api.login(credentials);
        if (!next) return undefined;
        setStep(next);
        return 'second-step';
      },
    }),
    [api],
  );
  const onSignedIn = () => {
    // The back office's code, menus and first rows may take a moment to arrive: meanwhile the tab
    // reads "Loading", not "Login".
    document.title = messages.translate('pages.loading');
    openBackOffice(target).then(
      (path) => navigate(path, { replace: true }),
      () => navigate(loadingPath(target, ADMIN_BASE), { replace: true }),
    );
  };
  const t = messages.translate;
  return (
    <SignInPage
      variant="admin"
      api={signIn}
      messages={messages}
      checkAccount={checkAccount}
      onSignedIn={onSignedIn}
      alternative={
        codes
          ? {
              title: t('login.twoFactor.codesTitle'),
              subtitle: t('login.twoFactor.codesSubtitle'),
              body: <RecoveryCodesStep codes={codes} translate={t} onContinue={onSignedIn} />,
            }
          : step && {
              title: t(step.setup ? 'login.twoFactor.setupTitle' : 'login.twoFactor.title'),
              subtitle: t(step.setup ? 'login.twoFactor.setupSubtitle' : 'login.twoFactor.subtitle'),
              body: (
                <TwoFactorStepForm
                  key={step.challenge}
                  step={step}
                  translate={t}
                  verify={(code) => api.completeTwoFactor(step, code)}
                  onSignedIn={(made) => (made?.length ? setCodes(made) : onSignedIn())}
                  onBack={() => setStep(undefined)}
                />
              ),
            }
      }
    />
  );
}
