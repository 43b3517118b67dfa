import { useEffect, useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import HistoryIcon from '@mui/icons-material/History';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { useMessages } from '../../i18n/use-messages.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { messageOf } from '../../http/error-body.js';
import { surveyApi, type OutcomePage as Page, type OutcomeReport, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame, type SurveyTone } from './SurveyPageFrame.js';
import { useSiteTimeZone } from './use-site-time-zone.js';
import { rewardText } from './reward-text.js';
import { formatDateTime } from '../../format/datetime.js';
import { isFinalStatus, type FinalStatus } from '../../../contract/outcomes.js';

/**
 * What the page reports, from what the server recorded (never from the page the provider chose): a
 * return signed wrongly on `/success` is a security result, a reload is "already recorded", and a
 * complete reversed since then says so.
 */
export type OutcomeKind = FinalStatus | 'reversed' | 'already';

export function outcomeKind(report: Pick<OutcomeReport, 'status' | 'already_recorded' | 'credit_state'>): OutcomeKind {
  if (report.status === 'reversed' || report.credit_state === 'reversed') return 'reversed';
  if (report.already_recorded) return 'already';
  return isFinalStatus(report.status) ? report.status : 'already';
}

const LOOK: Record<OutcomeKind | 'checking' | 'failed', { tone: SurveyTone; Icon: typeof CheckCircleOutlineIcon }> = {
  complete: { tone: 'success', Icon: CheckCircleOutlineIcon },
  terminate: { tone: 'warning', Icon: ReportProblemOutlinedIcon },
  overquota: { tone: 'warning', Icon: ReportProblemOutlinedIcon },
  timeout: { tone: 'warning', Icon: HourglassBottomIcon },
  security: { tone: 'error', Icon: ErrorOutlineIcon },
  reversed: { tone: 'error', Icon: UndoIcon },
  already: { tone: 'info', Icon: HistoryIcon },
  checking: { tone: 'info', Icon: HistoryIcon },
  failed: { tone: 'error', Icon: ErrorOutlineIcon },
};

type State = { kind: 'loading' } | { kind: 'done'; report: OutcomeReport } | { kind: 'failed'; message: string };

/**
 * `/success`, `/terminate`, `/security`, `/overquota`: the provider sends the browser here with its
 * query; the page reports the page and the raw query and shows what the server recorded. No login
 * is needed: the signature, not the browser, proves the return.
 */
export function OutcomePage({ page, api = surveyApi, pending }: { page: Page; api?: SurveyApi; pending?: Promise<OutcomeReport> }) {
  const { translate: t, language, ready } = useMessages(PAGE_MESSAGES.survey);
  const { search } = useLocation();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let alive = true;
    (pending ?? api.outcome(page, search.replace(/^\?/, ''))).then(
      (report) => alive && setState({ kind: 'done', report }),
      (error: unknown) => alive && setState({ kind: 'failed', message: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [api, page, search, pending]);

  const report = state.kind === 'done' ? state.report : undefined;
  const credited = report && rewardText(t, report.credited.money, report.credited.score);
  const zoneKnown = useSiteTimeZone(api, report?.available_at !== undefined);
  const kind = report ? outcomeKind(report) : state.kind === 'failed' ? 'failed' : 'checking';
  const { tone, Icon } = LOOK[kind];
  const headline = ready ? t(`survey.outcome.headline.${kind}`) : '';
  // Until the result is known the tab reads the page's own title, then what was recorded.
  useDocumentTitle(ready ? (report || state.kind === 'failed' ? headline : t(`survey.outcome.${page}.title`)) : '');

  return (
    <SurveyPageFrame t={t} language={language} ready={ready} tone={tone}>
      <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }} data-outcome={kind}>
        {state.kind === 'loading' ? (
          <CircularProgress size={48} aria-hidden="true" />
        ) : (
          <Icon sx={{ fontSize: 56, color: `${tone}.main` }} aria-hidden="true" />
        )}
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {headline}
        </Typography>
        {state.kind === 'loading' && (
          <Typography color="text.secondary" role="status" aria-busy="true">
            {ready ? t('survey.outcome.checking') : ''}
          </Typography>
        )}
        {state.kind === 'failed' && (
          <Typography role="alert" color="error">
            {state.message}
          </Typography>
        )}
        {report && (
          <>
            <Typography sx={{ fontWeight: 600 }}>{report.survey.title}</Typography>
            {kind === 'already' && <Typography>{t('survey.outcome.recordedAs', { status: t(`survey.status.${report.status}`) })}</Typography>}
            {kind === 'reversed' && <Typography>{t('survey.outcome.reversedText')}</Typography>}
            {report.credit_state === 'credited' && !report.already_recorded && credited && (
              <Typography variant="h6" component="p" color="success.main" data-testid="reward">
                {t('survey.outcome.credited', { amount: credited })}
              </Typography>
            )}
            {/* Held for the provider's hold period: when it reaches the balance, on the site's clock. */}
            {report.available_at !== undefined && !report.already_recorded && zoneKnown && (
              <Typography data-testid="available-at">{t('survey.outcome.availableFrom', { date: formatDateTime(report.available_at, 'yyyy-mm-dd hh:MM') })}</Typography>
            )}
            {/* A reload's reason ("already recorded") is what the headline says. */}
            {report.reason && !report.already_recorded && <Typography>{report.reason}</Typography>}
            {report.balance && (
              <Typography color="text.secondary" data-testid="balance">
                {t('survey.outcome.balance', { money: report.balance.money, score: report.balance.score })}
              </Typography>
            )}
          </>
        )}
      </Stack>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, justifyContent: 'center', gap: 1.5, mt: 3 }}>
        <Button variant="contained" component={RouterLink} to="/user">
          {ready ? t('survey.outcome.moreTasks') : ''}
        </Button>
        <Button variant="outlined" component={RouterLink} to="/tracking">
          {ready ? t('survey.tracking.title') : ''}
        </Button>
      </Box>
    </SurveyPageFrame>
  );
}
