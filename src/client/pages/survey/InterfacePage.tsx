import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { messageOf, surveyApi, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

const MESSAGE_FILES = ['common/survey'] as const;

function goToSurvey(url: string): void {
  window.location.assign(url);
}

/**
 * `/interface?id=<survey id>` (title Task Interface): a logged-in member starts the survey and the
 * browser goes on to the provider; without a session, member login first and back here after.
 */
export function InterfacePage({ api = surveyApi, go = goToSurvey }: { api?: SurveyApi; go?: (url: string) => void }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
  const { pathname, search } = useLocation();
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const loggedIn = isUserLoggedIn();
  const id = Number(new URLSearchParams(search).get('id'));
  // A start creates the attempt: it is sent once per survey shown, whatever re-renders happen.
  const startedFor = useRef<number | undefined>(undefined);
  useDocumentTitle(ready ? t('survey.interface.title') : '');

  useEffect(() => {
    if (!loggedIn || startedFor.current === id) return;
    startedFor.current = id;
    api.start(id).then(go, (error: unknown) => setFailure(messageOf(error)));
  }, [api, go, id, loggedIn]);

  if (!loggedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname + search)}`} replace />;
  return (
    <SurveyPageFrame t={t} language={language} tone={failure ? 'danger' : 'info'}>
      <h1>{ready ? t('survey.interface.title') : ''}</h1>
      {failure ? <p role="alert">{failure}</p> : <p className="ba-survey__muted" aria-busy="true">{t('survey.interface.redirecting')}</p>}
      {failure && (
        <div className="ba-survey__actions">
          <Link className="is-primary" to="/user">{t('survey.outcome.moreTasks')}</Link>
        </div>
      )}
    </SurveyPageFrame>
  );
}
