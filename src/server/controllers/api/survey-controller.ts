import type { OutcomeReport, QuickTask, QuickTaskRecord, SurveyRecord, SurveyStartAnswer, SurveyTask, TaggedPage } from '../../../contract/member-api.js';
import { centsToYuan } from '../../db/values.js';
import { ApiError, errors, Success } from '../../errors.js';
import type { FinishResult } from '../../services/survey/participations.js';
import { CallbackRefused, recordCallback, recordRedirect } from '../../services/survey/returns.js';
import { submitQuickTask } from '../../services/survey/quick-tasks.js';
import { availableSurveys, startSurvey } from '../../services/survey/tasks.js';
import type { Controller, RequestContext } from '../../http/controller.js';
import { pageOf } from '../paging.js';
import { ledgerNotes } from '../../services/ledger.js';
import { valueTagsOf } from '../value-tags.js';

/**
 * `/api/survey/*`: the member's task list, starting a survey, the outcome pages' report, the member's
 * records, the providers' server-to-server callback (docs/survey-domain.md#returns-and-callbacks), and quick tasks.
 */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}


/** `path` and query string exactly as received (the signed text). */
function receivedUrl(ctx: RequestContext): { path: string; query: string } {
  const url = ctx.request.url;
  const mark = url.indexOf('?');
  return mark < 0 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

async function tasks(ctx: RequestContext): Promise<{ list: SurveyTask[] }> {
  const surveys = await availableSurveys(ctx.app, member(ctx));
  return {
    list: surveys.map((survey) => ({
      id: Number(survey.id),
      title: survey.title,
      description: survey.description,
      reward_money: centsToYuan(survey.reward_money),
      reward_score: Number(survey.reward_score),
      loi_minutes: Number(survey.loi_minutes),
      end_time: survey.end_time === null ? null : Number(survey.end_time),
    })),
  };
}

async function start(ctx: RequestContext): Promise<SurveyStartAnswer> {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const { url } = await startSurvey(ctx.app, member(ctx), ctx.body.id, ctx.ip);
  return { url };
}

/** Why nothing (or only a consolation) was credited, in the member's language. */
function explanation(ctx: RequestContext, result: FinishResult): string {
  const { participation } = result;
  if (!result.changed) return ctx.t('This survey return was already recorded');
  switch (participation.status) {
    case 'complete':
      return participation.credit_state === 'held' ? ctx.t('Your answers were faster than expected: the reward is held for review') : '';
    case 'terminate':
      return ctx.t('You did not qualify for this survey');
    case 'overquota':
      return ctx.t('This survey was already full');
    default:
      return ctx.t('The survey reported a quality problem, so no reward was credited');
  }
}

async function outcome(ctx: RequestContext): Promise<OutcomeReport> {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const page = ctx.body.outcome;
  const query = typeof ctx.body.query === 'string' ? ctx.body.query.replace(/^\?/, '') : '';
  const result = await recordRedirect(ctx.app, page, { path: `/${String(page)}`, query, ip: ctx.ip, memo: ledgerNotes.surveyReward });
  const { participation, survey } = result;
  // Balances only go back to the member who owns the attempt, logged in in this browser.
  const own = ctx.identity?.id === Number(participation.user_id);
  let balance: { money: string; score: number } | undefined;
  if (own) {
    const row = await ctx.app.db.selectFrom('user').select(['money', 'score']).where('id', '=', participation.user_id).executeTakeFirstOrThrow();
    balance = { money: centsToYuan(row.money), score: row.score };
  }
  return {
    status: participation.status,
    already_recorded: !result.changed,
    survey: { id: Number(survey.id), title: survey.title },
    credit_state: participation.credit_state,
    credited: { money: centsToYuan(result.credited.money), score: result.credited.score },
    reason: explanation(ctx, result),
    ...(balance ? { balance } : {}),
  };
}

async function records(ctx: RequestContext): Promise<TaggedPage<SurveyRecord>> {
  const identity = member(ctx);
  const { rows, total } = await pageOf(ctx.query, ctx.app.db.selectFrom('survey_participation as p').where('p.user_id', '=', identity.id), (base) =>
    base
      .leftJoin('survey as s', 's.id', 'p.survey_id')
      .select(['p.id', 'p.survey_id', 's.title', 'p.status', 'p.credit_state', 'p.reward_money', 'p.reward_score', 'p.credited_money', 'p.credited_score', 'p.enter_time', 'p.finish_time'])
      .orderBy('p.id', 'desc'),
  );
  return {
    list: rows.map((row) => ({
      ...row,
      id: Number(row.id),
      survey_id: Number(row.survey_id),
      title: row.title ?? '',
      reward_money: centsToYuan(row.reward_money),
      reward_score: Number(row.reward_score),
      credited_money: centsToYuan(row.credited_money),
      credited_score: Number(row.credited_score),
      enter_time: Number(row.enter_time),
      finish_time: row.finish_time === null ? null : Number(row.finish_time),
    })),
    total,
    tags: valueTagsOf(ctx, 'survey/participation', ['status', 'credit_state']),
  };
}

async function quickTasks(ctx: RequestContext): Promise<{ list: QuickTask[] }> {
  const identity = member(ctx);
  const tasks = await ctx.app.db
    .selectFrom('quick_task')
    .select(['id', 'title', 'description', 'form', 'reward_money', 'reward_score', 'review'])
    .where('status', '=', 'active')
    .orderBy('weigh', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  const ids = tasks.map((task) => Number(task.id));
  const mine = ids.length
    ? await ctx.app.db.selectFrom('quick_task_submission').select(['task_id', 'status', 'reason']).where('user_id', '=', identity.id).where('task_id', 'in', ids).orderBy('id', 'asc').execute()
    : [];
  // The latest submission of each task decides what the member sees.
  const latest = new Map(mine.map((row) => [Number(row.task_id), row]));
  return {
    list: tasks.map((task) => ({
      id: Number(task.id),
      title: task.title,
      description: task.description,
      form: JSON.parse(task.form) as QuickTask['form'],
      reward_money: centsToYuan(task.reward_money),
      reward_score: Number(task.reward_score),
      review: task.review,
      my_status: latest.get(Number(task.id))?.status ?? null,
      my_reason: latest.get(Number(task.id))?.reason ?? '',
    })),
  };
}

async function quickTaskSubmit(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const result = await submitQuickTask(ctx.app, member(ctx), ctx.body.id, ctx.body.answers, { t: ctx.t, memo: ledgerNotes.quickTaskReward });
  return new Success(result, result.status === 'approved' ? 'Submitted and credited' : 'Submitted, waiting for review');
}

async function quickTaskRecords(ctx: RequestContext): Promise<TaggedPage<QuickTaskRecord>> {
  const identity = member(ctx);
  const { rows, total } = await pageOf(ctx.query, ctx.app.db.selectFrom('quick_task_submission as s').where('s.user_id', '=', identity.id), (base) =>
    base
      .leftJoin('quick_task as t', 't.id', 's.task_id')
      .select(['s.id', 's.task_id', 't.title', 's.status', 's.reason', 's.reward_money', 's.reward_score', 's.create_time', 's.review_time'])
      .orderBy('s.id', 'desc'),
  );
  return {
    list: rows.map((row) => ({
      id: Number(row.id), task_id: Number(row.task_id), title: row.title ?? '', status: row.status, reason: row.reason,
      reward_money: centsToYuan(row.reward_money), reward_score: Number(row.reward_score),
      create_time: Number(row.create_time), review_time: row.review_time === null ? null : Number(row.review_time),
    })),
    total,
    tags: valueTagsOf(ctx, 'survey/quick_task_submission', ['status']),
  };
}

/** Answers a bare `{code, msg}` (what providers read), with the HTTP status of a refusal. */
async function callback(ctx: RequestContext) {
  const { path, query } = receivedUrl(ctx);
  const reply = (status: number, code: number, msg: string) => ctx.reply.code(status).send({ code, msg });
  try {
    const result = await recordCallback(ctx.app, ctx.argument, new URLSearchParams(query), { path, query, ip: ctx.ip, memo: ledgerNotes.surveyReward });
    return reply(200, 1, result.changed ? ctx.t('Recorded') : ctx.t('This survey return was already recorded'));
  } catch (error) {
    if (error instanceof CallbackRefused) return reply(error.status, 0, ctx.t(error.error.msg, error.error.params));
    if (error instanceof ApiError) return reply(200, 0, ctx.t(error.msg, error.params));
    throw error;
  }
}

export const surveyController: Controller = {
  name: 'survey',
  path: 'survey',
  area: 'user',
  actions: { tasks, start, outcome, records, callback, quickTasks, quickTaskSubmit, quickTaskRecords },
  noNeedLogin: ['outcome', 'callback'],
  // Taking surveys is what every member is for: login is the only requirement.
  noNeedPermission: ['*'],
};
