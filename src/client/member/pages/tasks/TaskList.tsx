import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../format/datetime.js';
import type { Translate } from '../../../i18n/translate.js';
import { messageOf } from '../../../http/error-body.js';
import { surveyApi, type SurveyApi, type SurveyTask } from '../../../pages/survey/survey-api.js';
import '../../../pages/survey/survey-pages.css';

/**
 * The surveys this member may take now (active, in dates, quota left, visible to them, not taken, under
 * the daily cap: the server decides), with reward, points and length. "Start" goes to `/interface`.
 * Messages come from `common/survey`.
 */
export function TaskList({ t, api = surveyApi }: { t: Translate; api?: SurveyApi }) {
  const [tasks, setTasks] = useState<SurveyTask[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);

  useEffect(() => {
    let alive = true;
    api.tasks().then(
      (loaded) => alive && setTasks(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [api]);

  return (
    <section className="ba-tasks" aria-label={t('survey.tasks.title')}>
      {failure && <p role="alert">{failure}</p>}
      {tasks && tasks.length === 0 && <p className="ba-survey__muted">{t('survey.tasks.empty')}</p>}
      <ul className="ba-tasks__list">
        {tasks?.map((task) => (
          <li key={task.id} className="ba-tasks__item">
            <div className="ba-tasks__main">
              <strong>{task.title}</strong>
              {task.description && <p className="ba-survey__muted">{task.description}</p>}
              <p className="ba-tasks__meta">
                <span>{t('survey.tasks.reward', { money: task.reward_money, score: task.reward_score })}</span>
                <span>{t('survey.tasks.length', { minutes: task.loi_minutes })}</span>
                {task.end_time && <span>{t('survey.tasks.until', { time: formatDateTime(task.end_time) })}</span>}
              </p>
            </div>
            <Link className="ba-tasks__start" to={`/interface?id=${task.id}`}>
              {t('survey.tasks.start')}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
