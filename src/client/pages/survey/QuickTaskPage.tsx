import { useEffect, useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { PAGE_MESSAGES } from '../../i18n/page-messages.js';
import { QuickTaskForm } from './QuickTaskForm.js';
import { canSubmit, QuickTaskList } from './QuickTaskList.js';
import { messageOf } from '../../http/error-body.js';
import { surveyApi, type QuickTask, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';
import { taskRewardText } from './reward-text.js';

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
    // the titles come in the reader's language: another language loads them again
  }, [api, loggedIn, language]);

  if (!loggedIn) return <Navigate to={`/user/login?redirect=${encodeURIComponent(pathname + search)}`} replace />;
  const task = tasks?.find((item) => item.id === id);
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
          <Typography sx={{ my: 1 }}>{taskRewardText(t, task.reward_money, task.reward_score)}</Typography>
          {task.my_status === 'rejected' && <Typography color="error">{t('survey.quickTask.rejected', { reason: task.my_reason })}</Typography>}
          {canSubmit(task) ? (
            <QuickTaskForm task={task} api={api} t={t} language={language} onSubmitted={setDone} />
          ) : (
            <Typography>{t(`survey.quickTask.state.${task.my_status}`)}</Typography>
          )}
        </>
      )}
      {!done && tasks && !task && id > 0 && <Typography role="alert" color="error" sx={{ mb: 2 }}>{t('survey.quickTask.unknown')}</Typography>}
      {!done && tasks && !task && (tasks.length === 0 ? <Typography color="text.secondary">{t('survey.quickTask.empty')}</Typography> : <QuickTaskList t={t} tasks={tasks} />)}
    </SurveyPageFrame>
  );
}
