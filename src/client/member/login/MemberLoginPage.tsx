import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { SignInPage } from '../../components/SignInPage.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { useMessages } from '../../i18n/use-messages.js';
import { RegisterForm, RetrieveForm } from './AccountForms.js';
import { clearLoginNotice, readLoginNotice } from './login-notice.js';
import { memberApi, type MemberApi } from './member-api.js';
import type { AccountApi } from '../account-api.js';
import { isOneOf } from '../../../contract/checks.js';

const TABS = ['register', 'retrieve'] as const;
type Tab = (typeof TABS)[number];

/** Members sign in with a username, an email address or a mobile number: only "required" is checked here. */
function checkMemberAccount(value: string): string | undefined {
  return value.trim() === '' ? 'login.rules.accountRequired' : undefined;
}

/** Where to go after login: a path of this site from `?redirect=` (e.g. `/interface?id=3`), else `/user`. */
export function redirectTarget(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/user';
}

/**
 * Member login (docs/client.md#routes), title "Member Login": `POST /api/user/checkIn {tab: 'login', ...}`. The same
 * page registers (`?tab=register`) and sets a forgotten password (`?tab=retrieve`), keeping `?redirect=`.
 */
export function MemberLoginPage({ api = memberApi, account }: { api?: MemberApi; account?: AccountApi }) {
  const messages = useMessages(PAGE_MESSAGES.memberLogin);
  const t = messages.translate;
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // what the page that sent the member here left to say (a changed password), read once
  const [notice, setNotice] = useState(readLoginNotice);
  useEffect(clearLoginNotice, []);
  const asked = search.get('tab');
  const tab = isOneOf(TABS, asked) ? asked : undefined;
  const redirect = search.get('redirect');
  const linkTo = (next?: Tab) => {
    const query = new URLSearchParams();
    if (next) query.set('tab', next);
    if (redirect) query.set('redirect', redirect);
    const text = query.toString();
    return text ? `?${text}` : '?';
  };
  const signedIn = () => navigate(redirectTarget(redirect), { replace: true });

  const back = (
    <p className="ba-login__links">
      <Link to={linkTo()}>{t('account.backToLogin')}</Link>
    </p>
  );
  const alternative =
    tab === 'register'
      ? { title: t('account.register.title'), subtitle: t('account.register.subtitle'), body: <><RegisterForm t={t} api={account} member={api} onRegistered={signedIn} />{back}</> }
      : tab === 'retrieve'
        ? {
            title: t('account.retrieve.title'),
            subtitle: t('account.retrieve.subtitle'),
            body: (
              <>
                <RetrieveForm
                  t={t}
                  api={account}
                  member={api}
                  onDone={(message) => {
                    setNotice(message);
                    navigate(linkTo(), { replace: true });
                  }}
                />
                {back}
              </>
            ),
          }
        : undefined;

  return (
    <SignInPage
      variant="member"
      api={api}
      messages={messages}
      checkAccount={checkMemberAccount}
      onSignedIn={signedIn}
      alternative={alternative}
      links={
        <>
          {notice && (
            <p className="ba-login__notice" role="status">
              {notice}
            </p>
          )}
          <p className="ba-login__links">
            <Link to={linkTo('register')}>{t('account.register.link')}</Link>
            <Link to={linkTo('retrieve')}>{t('account.retrieve.link')}</Link>
          </p>
        </>
      }
    />
  );
}
