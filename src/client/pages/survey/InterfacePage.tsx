import { useEffect, useRef, useState } from 'react';
import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { messageOf } from '../../http/error-body.js';
import { surveyApi, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

function goToSurvey(url: string): void {
  window.location.assign(url);
}

/**
 * `/interface?id=<survey id>` (title Task Interface): a logged-in member starts the survey and the
 * browser goes on to the provider; without a session, member login first and back here after.
 */
export function InterfacePage({ api = surveyApi, go = goToSurvey }: { api?: SurveyApi; go?: (url: string) => void }) {
  const { translate: t, language, ready } = useMessages(PAGE_MESSAGES.survey);
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
    <SurveyPageFrame t={t} language={language} ready={ready} tone={failure ? 'error' : 'info'}>
      <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
        {!failure && <CircularProgress size={40} aria-hidden="true" />}
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {ready ? t('survey.interface.title') : ''}
        </Typography>
        {failure ? (
          <Typography role="alert" color="error">{failure}</Typography>
        ) : (
          <Typography color="text.secondary" role="status" aria-busy="true">{ready ? t('survey.interface.redirecting') : ''}</Typography>
        )}
        {failure && (
          <Button variant="contained" component={RouterLink} to="/user">
            {t('survey.outcome.moreTasks')}
          </Button>
        )}
      </Stack>
    </SurveyPageFrame>
  );
}
