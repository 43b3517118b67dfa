import type { Controller, RequestContext } from '../../app-context.js';
import { actorOf } from '../../resources/security-events.js';
import type { OutcomeReport, QuickTask, QuickTaskRecord, SurveyRecord, SurveyStartAnswer, SurveyTask, TaggedPage } from '../../../contract/member-api.js';
import { ApiError, errors, Success } from '../../errors.js';
import type { FinishResult } from '../../services/survey/participations.js';
import { CallbackRefused, recordCallback, recordRedirect } from '../../services/survey/returns.js';
import { submitQuickTask } from '../../services/survey/quick-tasks.js';
import { startSurvey } from '../../services/survey/tasks.js';
import { surveyWallActions } from './survey-wall-actions.js';
import { quickTaskRecordsOf, quickTasksFor, surveyRecordsOf, surveyTasksFor } from '../../services/survey/member-lists.js';
import { paging } from '../paging.js';
import { ledgerNotes, memberBalance } from '../../services/ledger.js';
import { valueTagsOf } from '../value-tags.js';
import { publicOriginOf } from '../../http/public-origin.js';
import { rawBodyOf } from '../../http/raw-body.js';
import type { SignedRequestInput } from '../../services/survey/signature-recipe.js';
import { textIn } from '../../text-in.js';

/**
 * `/api/survey/*`: the member's task list, starting a survey, the outcome pages' report, the member's
 * records, the providers' server-to-server callback (docs/survey-domain.md#returns-and-callbacks), and quick tasks.
 */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}


/** A provider's callback as the signature checks read it: this site's public origin, path, raw query, headers and body. */
function receivedCallback(ctx: RequestContext): SignedRequestInput {
  const url = ctx.request.url;
  const mark = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: ctx.method,
    origin: publicOriginOf(ctx.app, ctx.request),
    path: mark < 0 ? url : url.slice(0, mark),
    query: mark < 0 ? '' : url.slice(mark + 1),
    headers,
    body: rawBodyOf(ctx.request),
    contentType: headers['content-type'] ?? '',
  };
}

async function tasks(ctx: RequestContext): Promise<{ list: SurveyTask[] }> {
  return { list: await surveyTasksFor(ctx.app, member(ctx), ctx.lang) };
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
  // The page the browser landed on: this site's outcome page with the provider's query.
  const landing: SignedRequestInput = {
    method: 'GET', origin: publicOriginOf(ctx.app, ctx.request), path: `/${String(page)}`, query, headers: {}, body: '', contentType: '',
  };
  const result = await recordRedirect(ctx.app, page, { request: landing, ip: ctx.ip, memo: ledgerNotes.surveyReward });
  const { participation, survey } = result;
  // Balances only go back to the member who owns the attempt, logged in in this browser.
  const own = ctx.identity?.id === Number(participation.user_id);
  const balance = own ? await memberBalance(ctx.app, participation.user_id) : undefined;
  const awaiting = 'awaitingCallback' in result;
  return {
    status: participation.status,
    already_recorded: !awaiting && !result.changed,
    survey: { id: Number(survey.id), title: textIn(survey, 'title', ctx.lang) },
    credit_state: participation.credit_state,
    credited: awaiting ? { money: '0.00', score: 0 } : result.credited,
    ...(!awaiting && result.availableAt !== null ? { available_at: result.availableAt } : {}),
    reason: awaiting ? ctx.t('The provider confirms the result: it appears in your records once it arrives') : explanation(ctx, result),
    ...(balance ? { balance } : {}),
  };
}

async function records(ctx: RequestContext): Promise<TaggedPage<SurveyRecord>> {
  const page = await surveyRecordsOf(ctx.app, member(ctx).id, paging(ctx.query), ctx.lang);
  return { ...page, tags: valueTagsOf(ctx, 'survey/participation', ['status', 'credit_state']) };
}

async function quickTasks(ctx: RequestContext): Promise<{ list: QuickTask[] }> {
  return { list: await quickTasksFor(ctx.app, member(ctx).id, ctx.lang) };
}

async function quickTaskSubmit(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const result = await submitQuickTask(ctx.app, member(ctx), ctx.body.id, ctx.body.answers, { t: ctx.t, memo: ledgerNotes.quickTaskReward, actor: actorOf(ctx) });
  return new Success(result, result.status === 'approved' ? 'Submitted and credited' : 'Submitted, waiting for review');
}

async function quickTaskRecords(ctx: RequestContext): Promise<TaggedPage<QuickTaskRecord>> {
  const page = await quickTaskRecordsOf(ctx.app, member(ctx).id, paging(ctx.query), ctx.lang);
  return { ...page, tags: valueTagsOf(ctx, 'survey/quick_task_submission', ['status']) };
}

/**
 * A provider's server-to-server call. Taken, repeated and test calls get the answer the provider expects (its
 * `answer_status`, `answer_type` and `answer_body`; an empty body answers `{code: 1, msg}`); a refusal answers
 * `{code: 0, msg}` with the HTTP status of the refusal.
 */
async function callback(ctx: RequestContext) {
  const reply = (status: number, code: number, msg: string) => ctx.reply.code(status).send({ code, msg });
  try {
    const { provider, changed, test } = await recordCallback(ctx.app, ctx.argument, { request: receivedCallback(ctx), ip: ctx.ip });
    const msg = test ? ctx.t('Test callback: checked, nothing recorded') : changed ? ctx.t('Recorded') : ctx.t('This survey return was already recorded');
    if (provider.answer_body === '') return reply(provider.answer_status, 1, msg);
    return ctx.reply.code(provider.answer_status).type(`${provider.answer_type}; charset=utf-8`).send(provider.answer_body);
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
  actions: { tasks, start, outcome, records, callback, quickTasks, quickTaskSubmit, quickTaskRecords, ...surveyWallActions },
  noNeedLogin: ['outcome', 'callback'],
  // Taking surveys is what every member is for: login is the only requirement.
  noNeedPermission: ['*'],
};
