import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { formatDateTime } from '../../format/datetime.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { messageOf, surveyApi, type SurveyApi, type SurveyRecord } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

const MESSAGE_FILES = ['common/survey'] as const;
const PAGE_SIZE = 15;

/** `/tracking` (title Task Tracking): the member's attempts, newest first, with status and reward. */
export function TrackingPage({ api = surveyApi }: { api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
  const { pathname } = useLocation();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: SurveyRecord[]; total: number } | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const loggedIn = isUserLoggedIn();
  useDocumentTitle(ready ? t('survey.tracking.title') : '');

  useEffect(() => {
    if (!loggedIn) return;
    let alive = true;
    api.records(page, PAGE_SIZE).then(
      (loaded) => alive && setData(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [api, page, loggedIn]);

  if (!loggedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname)}`} replace />;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <SurveyPageFrame t={t} language={language}>
      <h1>{ready ? t('survey.tracking.title') : ''}</h1>
      {failure && <p role="alert">{failure}</p>}
      {data && data.list.length === 0 && <p className="ba-survey__muted">{t('survey.tracking.empty')}</p>}
      {data && data.list.length > 0 && (
        <table className="ba-survey__table">
          <thead>
            <tr>
              <th>{t('survey.tracking.survey')}</th>
              <th>{t('survey.tracking.status')}</th>
              <th>{t('survey.tracking.credited')}</th>
              <th>{t('survey.tracking.started')}</th>
              <th>{t('survey.tracking.finished')}</th>
            </tr>
          </thead>
          <tbody>
            {data.list.map((record) => (
              <tr key={record.id}>
                <td>{record.title}</td>
                <td>
                  <span className={`ba-survey__tag ba-survey__tag--${record.status}`}>{t(`survey.status.${record.status}`)}</span>
                  {record.credit_state === 'held' && <span className="ba-survey__muted"> {t('survey.tracking.held')}</span>}
                </td>
                <td>{record.credited_money !== '0.00' || record.credited_score ? t('survey.tracking.amount', { money: record.credited_money, score: record.credited_score }) : '-'}</td>
                <td>{formatDateTime(record.enter_time)}</td>
                <td>{record.finish_time ? formatDateTime(record.finish_time) : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && pages > 1 && (
        <div className="ba-survey__pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('survey.tracking.previous')}</button>
          <span>{t('survey.tracking.page', { page, pages })}</span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t('survey.tracking.next')}</button>
        </div>
      )}
    </SurveyPageFrame>
  );
}
