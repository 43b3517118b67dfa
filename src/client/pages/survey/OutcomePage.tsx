import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { useMessages } from '../../i18n/use-messages.js';
import { messageOf, surveyApi, type OutcomePage as Page, type OutcomeReport, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

const MESSAGE_FILES = ['common/survey'] as const;

const TONE = { success: 'success', terminate: 'warning', overquota: 'warning', security: 'danger' } as const;

type State = { kind: 'loading' } | { kind: 'done'; report: OutcomeReport } | { kind: 'failed'; message: string };

/**
 * `/success`, `/terminate`, `/security`, `/overquota` (spec §2): the provider sends the browser here with
 * its query; the page reports the page and the raw query and shows what the server recorded. No login
 * is needed: the signature, not the browser, proves the return.
 */
export function OutcomePage({ page, api = surveyApi }: { page: Page; api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
  const { search } = useLocation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  useDocumentTitle(ready ? t(`survey.outcome.${page}.title`) : '');

  useEffect(() => {
    let alive = true;
    api.outcome(page, search.replace(/^\?/, '')).then(
      (report) => alive && setState({ kind: 'done', report }),
      (error: unknown) => alive && setState({ kind: 'failed', message: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [api, page, search]);

  const recorded = state.kind === 'done' ? state.report.status : undefined;
  return (
    <SurveyPageFrame t={t} language={language} tone={state.kind === 'failed' ? 'danger' : TONE[page]}>
      <h1>{ready ? t(`survey.outcome.${page}.title`) : ''}</h1>
      {state.kind === 'loading' && <p className="ba-survey__muted" aria-busy="true">{t('survey.outcome.checking')}</p>}
      {state.kind === 'failed' && <p role="alert">{state.message}</p>}
      {state.kind === 'done' && (
        <div className="ba-survey__report">
          <p className="ba-survey__survey">{state.report.survey.title}</p>
          {recorded && recorded !== 'complete' && page === 'success' && <p>{t('survey.outcome.recordedAs', { status: t(`survey.status.${recorded}`) })}</p>}
          {state.report.credit_state === 'credited' && !state.report.already_recorded && (
            <p className="ba-survey__reward" data-testid="reward">
              {t('survey.outcome.credited', { money: state.report.credited.money, score: state.report.credited.score })}
            </p>
          )}
          {state.report.reason && <p>{state.report.reason}</p>}
          {state.report.balance && (
            <p className="ba-survey__balance" data-testid="balance">
              {t('survey.outcome.balance', { money: state.report.balance.money, score: state.report.balance.score })}
            </p>
          )}
        </div>
      )}
      <div className="ba-survey__actions">
        <Link className="is-primary" to="/user">{t('survey.outcome.moreTasks')}</Link>
        <Link to="/tracking">{t('survey.tracking.title')}</Link>
      </div>
    </SurveyPageFrame>
  );
}
