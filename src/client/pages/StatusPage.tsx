import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../components/document-title.js';
import { readSession } from '../http/session.js';
import { PAGE_MESSAGES } from '../i18n/page-messages.js';
import { useMessages } from '../i18n/use-messages.js';
import { ADMIN_BASE } from '../admin/admin-base.js';
import './status-page.css';

/** The standalone 404 and 401 pages (docs/client.md#routes): big code, title, explanation, a way back. */
function StatusPage({ code, messages }: { code: 404 | 401; messages: 'notFound' | 'noPermission' }) {
  const { translate: t, ready } = useMessages(PAGE_MESSAGES.status);
  useDocumentTitle(ready ? t(`pages.${messages}.title`) : '');
  // An administrator goes back to the back office, anyone else to the member area.
  const home = readSession('admin').token ? ADMIN_BASE : '/';
  return (
    <main className={`ba-status ba-status--${code}`}>
      <div className="ba-status__card">
        <p className="ba-status__code" aria-hidden="true">
          {code}
        </p>
        <div className="ba-status__text">
          <h1>{ready ? t(`pages.${messages}.title`) : ''}</h1>
          <p>{ready ? t(`pages.${messages}.description`) : ''}</p>
          <div className="ba-status__actions">
            <button type="button" onClick={() => window.history.back()}>
              {t('pages.back')}
            </button>
            <Link className="is-primary" to={home}>
              {t('pages.home')}
            </Link>
          </div>
        </div>
      </div>
    </main>
  );
}

export function NotFoundPage() {
  return <StatusPage code={404} messages="notFound" />;
}

export function NoPermissionPage() {
  return <StatusPage code={401} messages="noPermission" />;
}
