import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { isUserLoggedIn } from '../../http/session.js';
import { useMessages } from '../../i18n/use-messages.js';
import { QuickTaskForm } from './QuickTaskForm.js';
import { messageOf, surveyApi, type QuickTask, type SurveyApi } from './survey-api.js';
import { SurveyPageFrame } from './SurveyPageFrame.js';

const MESSAGE_FILES = ['common/survey'] as const;

/**
 * `/quicktask` (title Task Form): the quick tasks open to the member; `?id=` opens one task's form.
 * A submitted task shows its review state (and the reason of a rejection, which may be answered again).
 */
export function QuickTaskPage({ api = surveyApi }: { api?: SurveyApi }) {
  const { translate: t, language, ready } = useMessages(MESSAGE_FILES);
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
    <SurveyPageFrame t={t} language={language}>
      <h1>{ready ? (task ? task.title : t('survey.quickTask.title')) : ''}</h1>
      {failure && <p role="alert">{failure}</p>}
      {done && (
        <>
          <p className="ba-survey__reward" role="status">{done}</p>
          <div className="ba-survey__actions">
            <Link className="is-primary" to="/tracking">{t('survey.tracking.title')}</Link>
            <Link to="/quicktask" onClick={() => setDone(undefined)}>{t('survey.quickTask.more')}</Link>
          </div>
        </>
      )}
      {!done && task && (
        <>
          {task.description && <p className="ba-survey__muted">{task.description}</p>}
          <p>{t('survey.tasks.reward', { money: task.reward_money, score: task.reward_score })}</p>
          {task.my_status === 'rejected' && <p className="ba-survey__error">{t('survey.quickTask.rejected', { reason: task.my_reason })}</p>}
          {canSubmit(task) ? (
            <QuickTaskForm task={task} api={api} t={t} language={language} onSubmitted={setDone} />
          ) : (
            <p>{t(`survey.quickTask.state.${task.my_status}`)}</p>
          )}
        </>
      )}
      {!done && tasks && !task && id > 0 && <p role="alert">{t('survey.quickTask.unknown')}</p>}
      {!done && tasks && !task && (
        <ul className="ba-tasks__list">
          {tasks.length === 0 && <li className="ba-survey__muted">{t('survey.quickTask.empty')}</li>}
          {tasks.map((item) => (
            <li key={item.id} className="ba-tasks__item">
              <div className="ba-tasks__main">
                <strong>{item.title}</strong>
                <p className="ba-tasks__meta">
                  <span>{t('survey.tasks.reward', { money: item.reward_money, score: item.reward_score })}</span>
                  {item.my_status && <span>{t(`survey.quickTask.state.${item.my_status}`)}</span>}
                </p>
              </div>
              {canSubmit(item) && (
                <Link className="ba-tasks__start" to={`/quicktask?id=${item.id}`}>
                  {t('survey.quickTask.open')}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </SurveyPageFrame>
  );
}
