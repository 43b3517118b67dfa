import { useEffect, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { QuickTaskForm } from './QuickTaskForm.js';
import { messageOf } from '../../http/error-body.js';
import { surveyApi, type QuickTask, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

/**
 * `/quicktask` (title Task Form): the quick tasks open to the member; `?id=` opens one task's form.
 * A submitted task shows its review state (and the reason of a rejection, which may be answered again).
 */
export function QuickTaskPage({ api = surveyApi }: { api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(PAGE_MESSAGES.quickTask);
  const { pathname, search } = useLocation();
  const [tasks, setTasks] = useState<QuickTask[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const loggedIn = isUserLoggedIn();
  const id = Number(new URLSearchParams(search).get('id'));
  useDocumentTitle(ready ? t('survey.quickTask.title') : '');

  useEffect(() => {
    if (!loggedIn) return;
    let alive = true;
    api.quickTasks().then(
      (loaded) => alive && setTasks(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [api, loggedIn]);

  if (!loggedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname + search)}`} replace />;
  const task = tasks?.find((item) => item.id === id);
  const canSubmit = (item: QuickTask) => item.my_status === null || item.my_status === 'rejected';
  return (
    <SurveyPageFrame t={t} language={language} ready={ready}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {ready ? (task ? task.title : t('survey.quickTask.title')) : ''}
      </Typography>
      {failure && <Typography role="alert" color="error">{failure}</Typography>}
      {done && (
        <>
          <Typography variant="h6" component="p" color="success.main" role="status">{done}</Typography>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1.5, mt: 3 }}>
            <Button variant="contained" component={RouterLink} to="/tracking">{t('survey.tracking.title')}</Button>
            <Button variant="outlined" component={RouterLink} to="/quicktask" onClick={() => setDone(undefined)}>{t('survey.quickTask.more')}</Button>
          </Box>
        </>
      )}
      {!done && task && (
        <>
          {task.description && <Typography color="text.secondary">{task.description}</Typography>}
          <Typography sx={{ my: 1 }}>{t('survey.tasks.reward', { money: task.reward_money, score: task.reward_score })}</Typography>
          {task.my_status === 'rejected' && <Typography color="error">{t('survey.quickTask.rejected', { reason: task.my_reason })}</Typography>}
          {canSubmit(task) ? (
            <QuickTaskForm task={task} api={api} t={t} language={language} onSubmitted={setDone} />
          ) : (
            <Typography>{t(`survey.quickTask.state.${task.my_status}`)}</Typography>
          )}
        </>
      )}
      {!done && tasks && !task && id > 0 && <Typography role="alert" color="error" sx={{ mb: 2 }}>{t('survey.quickTask.unknown')}</Typography>}
      {!done && tasks && !task && (
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {tasks.length === 0 && <Typography component="li" color="text.secondary">{t('survey.quickTask.empty')}</Typography>}
          {tasks.map((item) => (
            <Box
              component="li"
              key={item.id}
              sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'stretch', sm: 'center' }, gap: 1.5, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{item.title}</Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, color: 'text.secondary' }}>
                  <Typography variant="body2" component="span">{t('survey.tasks.reward', { money: item.reward_money, score: item.reward_score })}</Typography>
                  {item.my_status && <Typography variant="body2" component="span">{t(`survey.quickTask.state.${item.my_status}`)}</Typography>}
                </Box>
              </Box>
              {canSubmit(item) && (
                <Button variant="contained" component={RouterLink} to={`/quicktask?id=${item.id}`} sx={{ flexShrink: 0 }}>
                  {t('survey.quickTask.open')}
                </Button>
              )}
            </Box>
          ))}
        </Stack>
      )}
    </SurveyPageFrame>
  );
}
