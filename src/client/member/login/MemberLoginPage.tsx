import { useNavigate, useSearchParams } from 'react-router-dom';
import { SignInPage } from '../../components/SignInPage.js';
import { checkPassword } from '../../admin/login/credential-rules.js';
import { useMessages } from '../../i18n/use-messages.js';
import { memberApi, type MemberApi } from './member-api.js';

const MESSAGE_FILES = ['member/login', 'common/captcha'] as const;

/** Members sign in with a username, an email address or a mobile number: only "required" is checked here. */
function checkMemberAccount(value: string): string | undefined {
  return value.trim() === '' ? 'login.rules.accountRequired' : undefined;
}

/** Where to go after login: a path of this site from `?redirect=` (e.g. `/interface?id=3`), else `/user`. */
export function redirectTarget(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/user';
}

/** Member login (spec §2), title "Member Login": `POST /api/user/checkIn {tab: 'login', ...}`. */
export function MemberLoginPage({ api = memberApi }: { api?: MemberApi }) {
  const { translate, language, ready } = useMessages(MESSAGE_FILES);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (
    <SignInPage
      variant="member"
      api={api}
      translate={translate}
      language={language}
      ready={ready}
      checkAccount={checkMemberAccount}
      checkPassword={checkPassword}
      onSignedIn={() => navigate(redirectTarget(search.get('redirect')), { replace: true })}
    />
  );
}
