import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { formatDateTime, setSiteTimeZone, siteTimeZoneKnown } from '../../format/datetime.js';
import { isUserLoggedIn } from '../../http/session.js';
import type { Translate } from '../../i18n/translate.js';
import { useMessages } from '../../i18n/use-messages.js';
import { messageOf, surveyApi, type QuickTaskRecord, type SurveyApi, type SurveyRecord } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

const MESSAGE_FILES = ['common/survey'] as const;
const PAGE_SIZE = 15;

type Load<T> = (page: number, limit: number) => Promise<{ list: T[]; total: number }>;

/** One paged list of the member's records: a table and its pager. */
function PagedRecords<T extends { id: number }>({ load, t, head, row, label }: { load: Load<T>; t: Translate; head: ReactNode; row: (record: T) => ReactNode; label: string }) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: T[]; total: number } | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    load(page, PAGE_SIZE).then(
      (loaded) => alive && setData(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [load, page]);
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <>
      {failure && <p role="alert">{failure}</p>}
      {data && data.list.length === 0 && <p className="ba-survey__muted">{t('survey.tracking.empty')}</p>}
      {data && data.list.length > 0 && (
        <table className="ba-survey__table" aria-label={label}>
          <thead>{head}</thead>
          <tbody>{data.list.map((record) => <tr key={record.id}>{row(record)}</tr>)}</tbody>
        </table>
      )}
      {data && pages > 1 && (
        <div className="ba-survey__pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('survey.tracking.previous')}</button>
          <span>{t('survey.tracking.page', { page, pages })}</span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t('survey.tracking.next')}</button>
        </div>
      )}
    </>
  );
}

function amount(t: Translate, money: string, score: number): string {
  return money !== '0.00' || score ? t('survey.tracking.amount', { money, score }) : '-';
}

/** The member's survey attempts and quick task submissions, newest first (messages: `common/survey`). */
export function TrackingRecords({ t, api = surveyApi }: { t: Translate; api?: SurveyApi }) {
  return (
    <>
      <PagedRecords<SurveyRecord>
        load={api.records}
        t={t}
        label={t('survey.tracking.title')}
        head={
          <tr>
            <th>{t('survey.tracking.survey')}</th>
            <th>{t('survey.tracking.status')}</th>
            <th>{t('survey.tracking.credited')}</th>
            <th>{t('survey.tracking.started')}</th>
            <th>{t('survey.tracking.finished')}</th>
          </tr>
        }
        row={(record) => (
          <>
            <td>{record.title}</td>
            <td>
              <span className={`ba-survey__tag ba-survey__tag--${record.status}`}>{t(`survey.status.${record.status}`)}</span>
              {record.credit_state === 'held' && <span className="ba-survey__muted"> {t('survey.tracking.held')}</span>}
            </td>
            <td>{amount(t, record.credited_money, record.credited_score)}</td>
            <td>{formatDateTime(record.enter_time)}</td>
            <td>{record.finish_time ? formatDateTime(record.finish_time) : '-'}</td>
          </>
        )}
      />
      <h2>{t('survey.tracking.quickTasks')}</h2>
      <PagedRecords<QuickTaskRecord>
        load={api.quickTaskRecords}
        t={t}
        label={t('survey.tracking.quickTasks')}
        head={
          <tr>
            <th>{t('survey.tracking.survey')}</th>
            <th>{t('survey.tracking.status')}</th>
            <th>{t('survey.tracking.reason')}</th>
            <th>{t('survey.tracking.credited')}</th>
            <th>{t('survey.tracking.started')}</th>
          </tr>
        }
        row={(record) => (
          <>
            <td>{record.title}</td>
            <td>
              <span className={`ba-survey__tag ba-survey__tag--${record.status}`}>{t(`survey.quickTask.state.${record.status}`)}</span>
            </td>
            <td>{record.reason || '-'}</td>
            <td>{record.status === 'approved' ? amount(t, record.reward_money, record.reward_score) : '-'}</td>
            <td>{formatDateTime(record.create_time)}</td>
          </>
        )}
      />
    </>
  );
}

/**
 * Dates read on the site's clock outside the member centre too: the zone comes from the member
 * bootstrap when no page has set it yet. Until it is known (or could not be had) nothing is dated.
 */
function useSiteTimeZone(api: SurveyApi, enabled: boolean): boolean {
  const [known, setKnown] = useState(siteTimeZoneKnown);
  useEffect(() => {
    if (known || !enabled) return;
    let alive = true;
    api.siteTimeZone().then(
      (zone) => {
        setSiteTimeZone(zone);
        if (alive) setKnown(true);
      },
      () => alive && setKnown(true),
    );
    return () => {
      alive = false;
    };
  }, [api, known, enabled]);
  return known;
}

/** `/tracking` (titled as its member menu entry, "Task tracking"): the member's survey attempts and quick task submissions, newest first. */
export function TrackingPage({ api = surveyApi }: { api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
  const { pathname } = useLocation();
  const signedIn = isUserLoggedIn();
  const zoneKnown = useSiteTimeZone(api, signedIn);
  useDocumentTitle(ready ? t('survey.tracking.title') : '');
  if (!signedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname)}`} replace />;
  return (
    <SurveyPageFrame t={t} language={language}>
      <h1>{ready ? t('survey.tracking.title') : ''}</h1>
      {zoneKnown && <TrackingRecords t={t} api={api} />}
    </SurveyPageFrame>
  );
}
