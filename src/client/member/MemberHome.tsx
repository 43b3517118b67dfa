import { useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useDocumentTitle } from '../components/document-title.js';
import { LanguageSwitch } from '../components/LanguageSwitch.js';
import { LogoMark } from '../components/login-art.js';
import { formatDateTime } from '../format/datetime.js';
import { isUserLoggedIn, readUserInfo } from '../http/session.js';
import { useMessages } from '../i18n/use-messages.js';
import { memberApi, type MemberApi } from './login/member-api.js';
import { TaskList } from './pages/tasks/TaskList.js';
import { Wallet } from './pages/wallet/Wallet.js';
import { walletApi, type WalletApi } from './pages/wallet/wallet-api.js';
import { loadMemberFigures, OverviewFigures, type MemberFigures } from './pages/overview/OverviewFigures.js';
import { surveyApi, type SurveyApi } from '../pages/survey/survey-api.js';
import './member-home.css';

const MESSAGE_FILES = ['member/home', 'common/survey'] as const;

/**
 * The member landing at `/user`: who is signed in, balance and points, the surveys open to them, links
 * to their records and quick tasks, and logout. Without a member session it sends to `/user/login`.
 */
export function MemberHome({ api = memberApi, surveys = surveyApi, figures = loadMemberFigures, wallet = walletApi, reload = () => window.location.reload() }: { api?: MemberApi; surveys?: SurveyApi; figures?: () => Promise<MemberFigures>; wallet?: WalletApi; reload?: () => void }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
  const [leaving, setLeaving] = useState(false);
  useDocumentTitle(ready ? t('memberHome.title') : '');
  if (!isUserLoggedIn()) return <Navigate to="/user/login" replace />;
  const info = readUserInfo() ?? {};
  const name = info.nickname || info.username || '';

  const logout = async () => {
    setLeaving(true);
    try {
      await api.logout();
      // Spec §4: on code 1 the member info is cleared and the page reloads.
      reload();
    } catch {
      setLeaving(false);
    }
  };

  return (
    <div className="ba-member">
      <header className="ba-member__bar">
        <span className="ba-member__brand">
          <LogoMark size={22} /> {ready ? t('memberHome.title') : ''}
        </span>
        <div className="ba-member__bar-right">
          <LanguageSwitch current={language} />
          <button type="button" className="ba-member__logout" onClick={() => void logout()} disabled={leaving}>
            {t(leaving ? 'memberHome.loggingOut' : 'memberHome.logout')}
          </button>
        </div>
      </header>
      {ready && (
        <main className="ba-member__main">
          <section className="ba-member__card">
            <img className="ba-member__avatar" src={info.avatar || '/static/images/avatar.png'} alt="" width={72} height={72} />
            <div>
              <h1>{t('memberHome.welcome', { name })}</h1>
              <p>
                {t('memberHome.signedIn')} {info.username && <span className="ba-member__muted">@{info.username}</span>}
              </p>
            </div>
          </section>
          <section className="ba-member__stats">
            <div className="ba-member__stat">
              <span>{t('memberHome.balance')}</span>
              <strong>{String(info.money ?? '0.00')}</strong>
            </div>
            <div className="ba-member__stat">
              <span>{t('memberHome.points')}</span>
              <strong>{String(info.score ?? 0)}</strong>
            </div>
            <div className="ba-member__stat">
              <span>{t('memberHome.lastLogin')}</span>
              <strong className="ba-member__time">{formatDateTime(info.last_login_time) || '-'}</strong>
            </div>
          </section>
          <OverviewFigures t={t} load={figures} />
          <nav className="ba-member__links">
            <Link to="/tracking">{t('survey.tracking.title')}</Link>
            <Link to="/quicktask">{t('survey.quickTask.title')}</Link>
          </nav>
          <TaskList t={t} api={surveys} />
          <Wallet t={t} api={wallet} />
        </main>
      )}
    </div>
  );
}
