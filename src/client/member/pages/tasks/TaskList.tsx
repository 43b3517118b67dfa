import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../format/datetime.js';
import type { Translate } from '../../../i18n/translate.js';
import type { SurveyTask } from '../../../pages/survey/survey-api.js';
import { taskRewardText } from '../../../pages/survey/reward-text.js';
import '../../../pages/survey/survey-pages.css';

/**
 * The surveys this member may take now (active, in dates, quota left, visible to them, not taken, under
 * the daily cap: the server decides), with reward, points and length. "Start" goes to `/interface`.
 * Messages come from `common/survey`.
 */
export function TaskList({ t, tasks }: { t: Translate; tasks: readonly SurveyTask[] }) {
  return (
    <section className="ba-tasks" aria-label={t('survey.tasks.title')}>
      <ul className="ba-tasks__list">
        {tasks.map((task) => (
          <li key={task.id} className="ba-tasks__item">
            <div className="ba-tasks__main">
              <strong>{task.title}</strong>
              {task.description && <p className="ba-survey__muted">{task.description}</p>}
              <p className="ba-tasks__meta">
                <span>{taskRewardText(t, task.reward_money, task.reward_score)}</span>
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
