import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery } from '@mui/material';
import { Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { formatDateTime } from '../../format/datetime.js';
import { isUserLoggedIn } from '../../http/session.js';
import type { Translate } from '../../i18n/translate.js';
import { useMessages } from '../../i18n/use-messages.js';
import { currentLanguage } from '../../i18n/store-config.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { ValueChip } from '../../components/ValueChip.js';
import type { ValueTags } from '../../../contract/value-tags.js';
import { messageOf } from '../../http/error-body.js';
import { surveyApi, type QuickTaskRecord, type TaggedPage, type SurveyApi, type SurveyRecord, type WallRecord } from './survey-api.js';
import { rewardText } from './reward-text.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';
import { CELL_WORDS_SX } from '../../components/cell-words.js';
import { useSiteTimeZone } from './use-site-time-zone.js';

const PAGE_SIZE = 15;

type Load<T> = (page: number, limit: number) => Promise<TaggedPage<T>>;

/** One column of a record list: its heading and its cell (enum values drawn with the page's tags). */
export interface RecordColumn<T> {
  label: string;
  cell: (record: T, tags: ValueTags) => ReactNode;
}

/**
 * One paged list of the member's records: a table where there is room, and on a phone one card per
 * record whose lines keep the column headings, so nothing scrolls sideways.
 */
function PagedRecords<T extends { id: number }>({ load, t, columns, label, empty }: { load: Load<T>; t: Translate; columns: RecordColumn<T>[]; label: string; empty: string }) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TaggedPage<T> | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const narrow = useMediaQuery('(max-width: 599.95px)', { noSsr: true });
  // the titles and labels come in the reader's language: another language loads them again
  const language = currentLanguage();
  useEffect(() => {
    let alive = true;
    load(page, PAGE_SIZE).then(
      (loaded) => alive && setData(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [load, page, language]);
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const [first, ...rest] = columns;
  return (
    <>
      {failure && <Typography role="alert" color="error">{failure}</Typography>}
      {data && data.list.length === 0 && <Typography color="text.secondary">{empty}</Typography>}
      {data && data.list.length > 0 && !narrow && (
        // The frame lets text break anywhere (for the phone's cards); in the table that squeezes headings and
        // short cells mid-word ("Reas/on"), so here words stay whole unless a word alone is wider than its
        // column; the transaction id column still breaks anywhere.
        <Table size="small" aria-label={label} sx={{ '& th, & td': CELL_WORDS_SX }}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.label} sx={{ color: 'text.secondary' }}>{column.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.list.map((record) => (
              <TableRow key={record.id}>
                {columns.map((column) => (
                  <TableCell key={column.label}>{column.cell(record, data.tags)}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {data && data.list.length > 0 && narrow && (
        <Stack component="ul" aria-label={label} spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {data.list.map((record) => (
            <Box component="li" key={record.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{first.cell(record, data.tags)}</Typography>
              <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.5, m: 0 }}>
                {rest.map((column) => (
                  <Fragment key={column.label}>
                    <Typography component="dt" variant="body2" color="text.secondary">{column.label}</Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }}>{column.cell(record, data.tags)}</Typography>
                  </Fragment>
                ))}
              </Box>
            </Box>
          ))}
        </Stack>
      )}
      {data && pages > 1 && (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1.5, mt: 2 }}>
          <Button variant="outlined" size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('survey.tracking.previous')}</Button>
          <Typography variant="body2">{t('survey.tracking.page', { page, pages })}</Typography>
          <Button variant="outlined" size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t('survey.tracking.next')}</Button>
        </Box>
      )}
    </>
  );
}

/** What was credited, "-" when nothing was (an attempt screened out, a complete still held). */
function amount(t: Translate, money: string, score: number): string {
  return rewardText(t, money, score) ?? '-';
}

/** A wall transaction's amount: yuan on a balance wall, points on a points wall. */
function wallAmount(t: Translate, record: WallRecord): string {
  return record.unit === 'money' ? amount(t, record.money, 0) : amount(t, '0', record.score);
}

/** The member's survey attempts, quick task submissions and survey wall transactions, newest first (messages: `common/survey`). */
export function TrackingRecords({ t, api = surveyApi }: { t: Translate; api?: SurveyApi }) {
  return (
    <>
      <PagedRecords<SurveyRecord>
        load={api.records}
        t={t}
        label={t('survey.tracking.title')}
        empty={t('survey.tracking.empty')}
        columns={[
          { label: t('survey.tracking.survey'), cell: (record) => record.title },
          {
            label: t('survey.tracking.status'),
            cell: (record, tags) => (
              <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }}>
                <ValueChip tags={tags} field="status" value={record.status} />
                {/* A complete whose reward waits for a review says so beside it. */}
                {record.credit_state === 'held' && <ValueChip tags={tags} field="credit_state" value={record.credit_state} />}
              </Box>
            ),
          },
          { label: t('survey.tracking.credited'), cell: (record) => amount(t, record.credited_money, record.credited_score) },
          // Why reconciliation last changed the attempt (a reversal, an approval): the administrator's words, or a provider's reversal reason, in the reader's language.
          { label: t('survey.tracking.reason'), cell: (record) => record.reason || '-' },
          { label: t('survey.tracking.started'), cell: (record) => formatDateTime(record.enter_time) },
          { label: t('survey.tracking.finished'), cell: (record) => (record.finish_time ? formatDateTime(record.finish_time) : '-') },
        ]}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>{t('survey.tracking.quickTasks')}</Typography>
      <PagedRecords<QuickTaskRecord>
        load={api.quickTaskRecords}
        t={t}
        label={t('survey.tracking.quickTasks')}
        empty={t('survey.tracking.quickTasksEmpty')}
        columns={[
          { label: t('survey.tracking.task'), cell: (record) => record.title },
          { label: t('survey.tracking.status'), cell: (record, tags) => <ValueChip tags={tags} field="status" value={record.status} /> },
          { label: t('survey.tracking.reason'), cell: (record) => record.reason || '-' },
          { label: t('survey.tracking.credited'), cell: (record) => (record.status === 'approved' ? amount(t, record.reward_money, record.reward_score) : '-') },
          { label: t('survey.tracking.submitted'), cell: (record) => formatDateTime(record.create_time) },
        ]}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>{t('survey.tracking.walls')}</Typography>
      <PagedRecords<WallRecord>
        load={api.wallRecords}
        t={t}
        label={t('survey.tracking.walls')}
        empty={t('survey.tracking.wallsEmpty')}
        columns={[
          { label: t('survey.tracking.wall'), cell: (record) => record.provider },
          { label: t('survey.tracking.status'), cell: (record, tags) => <ValueChip tags={tags} field="state" value={record.state} /> },
          { label: t('survey.tracking.amountColumn'), cell: (record) => wallAmount(t, record) },
          // Why it was reversed or refused, in the reader's language, with the provider's own words when it sent some.
          { label: t('survey.tracking.reason'), cell: (record) => record.reason || '-' },
          { label: t('survey.tracking.transaction'), cell: (record) => <Box component="span" sx={{ overflowWrap: 'anywhere' }}>{record.transaction_id}</Box> },
          // when it last changed: reversed, else credited, else received
          { label: t('survey.tracking.date'), cell: (record) => formatDateTime(record.reverse_time ?? record.credit_time ?? record.create_time) },
        ]}
      />
    </>
  );
}

/** `/tracking` (titled as its member menu entry, "Task tracking"): the member's survey attempts and quick task submissions, newest first. */
export function TrackingPage({ api = surveyApi }: { api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(PAGE_MESSAGES.survey);
  const { pathname } = useLocation();
  const signedIn = isUserLoggedIn();
  const zoneKnown = useSiteTimeZone(api, signedIn);
  useDocumentTitle(ready ? t('survey.tracking.title') : '');
  if (!signedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname)}`} replace />;
  return (
    <SurveyPageFrame t={t} language={language} ready={ready}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {ready ? t('survey.tracking.title') : ''}
      </Typography>
      {zoneKnown && <TrackingRecords t={t} api={api} />}
    </SurveyPageFrame>
  );
}
