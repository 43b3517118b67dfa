import type { Language } from '../../../contract/headers.js';
import type { Paged, QuickTask, QuickTaskRecord, SurveyRecord, SurveyTask } from '../../../contract/member-api.js';
import { resourceOf, type AppContext } from '../../app-context.js';
import type { Identity } from '../../auth/identity.js';
import { pageRows, type PageRequest } from '../../db/pages.js';
import { wireColumns } from '../../db/values.js';
import { reasonText } from './reversal-reasons.js';
import { textIn } from '../../text-in.js';
import { availableSurveys } from './tasks.js';

/**
 * What the member centre lists of surveys and quick tasks, in wire form: money in yuan and the other
 * columns as their schemas present them (`db/values.ts`). Titles and descriptions are in the member's
 * language (`lang`): the English ones (`title_en`) for English, the Chinese ones when those are empty
 * (`textIn`).
 */

/** The surveys this member may start now, best first. */
export async function surveyTasksFor(app: AppContext, member: Identity, lang: Language): Promise<SurveyTask[]> {
  const definition = resourceOf(app, 'survey/survey');
  return (await availableSurveys(app, member)).map((survey) => {
    const shown = wireColumns(definition, survey);
    return {
      id: shown.id,
      title: textIn(survey, 'title', lang),
      description: textIn(survey, 'description', lang),
      reward_money: shown.reward_money,
      reward_score: shown.reward_score,
      loi_minutes: shown.loi_minutes,
      end_time: shown.end_time,
    };
  });
}

/** The member's survey attempts, newest first, with the survey's title and why reconciliation last changed each, in `lang`. */
export async function surveyRecordsOf(app: AppContext, userId: number, page: PageRequest, lang: Language): Promise<Paged<SurveyRecord>> {
  const definition = resourceOf(app, 'survey/participation');
  const { rows, total } = await pageRows(page, app.db.selectFrom('survey_participation as p').where('p.user_id', '=', userId), (base) =>
    base
      .leftJoin('survey as s', 's.id', 'p.survey_id')
      .select(['p.id', 'p.survey_id', 's.title', 's.title_en', 'p.status', 'p.credit_state', 'p.reward_money', 'p.reward_score', 'p.credited_money', 'p.credited_score', 'p.enter_time', 'p.finish_time'])
      .orderBy('p.id', 'desc'),
  );
  const reasons = await reconcileReasons(app, rows.map((row) => Number(row.id)), lang);
  return { list: rows.map((row) => ({ ...wireColumns(definition, row), title: textIn(row, 'title', lang), reason: reasons.get(Number(row.id)) ?? '' })), total };
}

/**
 * Why reconciliation last changed each of these attempts (docs/survey-domain.md#reconciliation), in `lang`:
 * the administrator's words, or a provider's reversal reason with the provider's own words beside it.
 */
async function reconcileReasons(app: AppContext, ids: number[], lang: Language): Promise<Map<number, string>> {
  const reasons = new Map<number, string>();
  if (ids.length === 0) return reasons;
  const events = await app.db
    .selectFrom('survey_participation_event')
    .select(['participation_id', 'payload'])
    .where('participation_id', 'in', ids)
    .where('source', '=', 'reconcile')
    .orderBy('id')
    .execute();
  for (const event of events) {
    let payload: { reason?: unknown; provider_reason?: unknown } = {};
    try {
      payload = JSON.parse(event.payload || '{}') as { reason?: unknown; provider_reason?: unknown };
    } catch {
      // A payload cut at its length limit names no reason.
    }
    if (typeof payload.reason !== 'string') continue;
    const providerWords = typeof payload.provider_reason === 'string' ? payload.provider_reason : '';
    reasons.set(Number(event.participation_id), reasonText(payload.reason, providerWords, lang, app.messages));
  }
  return reasons;
}

/** The open quick tasks, best first, each with the member's latest submission (status and reason), titled in `lang`. */
export async function quickTasksFor(app: AppContext, userId: number, lang: Language): Promise<QuickTask[]> {
  const definition = resourceOf(app, 'survey/quick_task');
  const tasks = await app.db
    .selectFrom('quick_task')
    .select(['id', 'title', 'title_en', 'description', 'description_en', 'form', 'reward_money', 'reward_score', 'review'])
    .where('status', '=', 'active')
    .orderBy('weigh', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  const ids = tasks.map((task) => Number(task.id));
  const mine = ids.length
    ? await app.db.selectFrom('quick_task_submission').select(['task_id', 'status', 'reason']).where('user_id', '=', userId).where('task_id', 'in', ids).orderBy('id', 'asc').execute()
    : [];
  // The latest submission of each task decides what the member sees.
  const latest = new Map(mine.map((row) => [Number(row.task_id), row]));
  return tasks.map((task) => {
    const own = latest.get(Number(task.id));
    const { title_en: _title, description_en: _description, ...shown } = wireColumns(definition, task);
    // The form is stored as the text the administrator wrote (checked on save).
    return { ...shown, title: textIn(task, 'title', lang), description: textIn(task, 'description', lang), form: JSON.parse(task.form) as QuickTask['form'], my_status: own?.status ?? null, my_reason: own?.reason ?? '' };
  });
}

/** The member's quick-task submissions, newest first, with the task's title in `lang`. */
export async function quickTaskRecordsOf(app: AppContext, userId: number, page: PageRequest, lang: Language): Promise<Paged<QuickTaskRecord>> {
  const definition = resourceOf(app, 'survey/quick_task_submission');
  const { rows, total } = await pageRows(page, app.db.selectFrom('quick_task_submission as s').where('s.user_id', '=', userId), (base) =>
    base
      .leftJoin('quick_task as t', 't.id', 's.task_id')
      .select(['s.id', 's.task_id', 't.title', 't.title_en', 's.status', 's.reason', 's.reward_money', 's.reward_score', 's.create_time', 's.review_time'])
      .orderBy('s.id', 'desc'),
  );
  return { list: rows.map((row) => ({ ...wireColumns(definition, row), title: textIn(row, 'title', lang) })), total };
}
