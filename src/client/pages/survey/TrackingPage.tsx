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

/** One column of a records table: its heading, also the label its cells carry on a phone. */
interface Column<T> {
  label: string;
  cell(record: T): ReactNode;
}

/**
 * One paged list of the member's records: a table and its pager. Each cell carries its column's label
 * (`data-label`), which a phone shows in front of it when the rows stack (survey-pages.css).
 */
function PagedRecords<T extends { id: number }>({ load, t, columns, label }: { load: Load<T>; t: Translate; columns: Column<T>[]; label: string }) {
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
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label}>{column.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.list.map((record) => (
              <tr key={record.id}>
                {columns.map((column) => (
                  <td key={column.label} data-label={column.label}>
                    {column.cell(record)}
                  </td>
                ))}
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
    </>
  );
}

function amount(t: Translate, money: string, score: number): string {
  return money !== '0.00' || score ? t('survey.tracking.amount', { money, score }) : '-';
}

/** The member's survey attempts and quick task submissions, newest first (messages: `common/survey`). */
export function TrackingRecords({ t, api = surveyApi }: { t: Translate; api?: SurveyApi }) {
  const surveyColumns: Column<SurveyRecord>[] = [
    { label: t('survey.tracking.survey'), cell: (record) => record.title },
    {
      label: t('survey.tracking.status'),
      cell: (record) => (
        <>
          <span className={`ba-survey__tag ba-survey__tag--${record.status}`}>{t(`survey.status.${record.status}`)}</span>
          {record.credit_state === 'held' && <span className="ba-survey__muted"> {t('survey.tracking.held')}</span>}
        </>
      ),
    },
    { label: t('survey.tracking.credited'), cell: (record) => amount(t, record.credited_money, record.credited_score) },
    { label: t('survey.tracking.started'), cell: (record) => formatDateTime(record.enter_time) },
    { label: t('survey.tracking.finished'), cell: (record) => (record.finish_time ? formatDateTime(record.finish_time) : '-') },
  ];
  const quickTaskColumns: Column<QuickTaskRecord>[] = [
    { label: t('survey.tracking.survey'), cell: (record) => record.title },
    { label: t('survey.tracking.status'), cell: (record) => <span className={`ba-survey__tag ba-survey__tag--${record.status}`}>{t(`survey.quickTask.state.${record.status}`)}</span> },
    { label: t('survey.tracking.reason'), cell: (record) => record.reason || '-' },
    { label: t('survey.tracking.credited'), cell: (record) => (record.status === 'approved' ? amount(t, record.reward_money, record.reward_score) : '-') },
    { label: t('survey.tracking.started'), cell: (record) => formatDateTime(record.create_time) },
  ];
  return (
    <>
      <PagedRecords<SurveyRecord> load={api.records} t={t} label={t('survey.tracking.title')} columns={surveyColumns} />
      <h2>{t('survey.tracking.quickTasks')}</h2>
      <PagedRecords<QuickTaskRecord> load={api.quickTaskRecords} t={t} label={t('survey.tracking.quickTasks')} columns={quickTaskColumns} />
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

/** `/tracking` (title Task Tracking): the member's survey attempts and quick task submissions, newest first. */
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
