import type { Controller, RequestContext } from '../../app-context.js';
import { formatLocalDateTime } from '../../../contract/site-time.js';
import { errors, Success } from '../../errors.js';
import { summariseRuns } from '../../jobs/job-runs.js';

/**
 * `routine.Jobs`: the background jobs (docs/architecture.md#background-jobs) with their last run, next run
 * and failures (`index`, node `routine/jobs/index`), and "run now" for super admins (`run`, node
 * `routine/jobs/run`, refused to any other admin whatever their rules). Times are labels in the site's time zone.
 */

async function index(ctx: RequestContext) {
  const { jobs } = ctx.app;
  const zone = await ctx.app.config.timeZone();
  const label = (seconds: number | undefined) => (seconds === undefined ? '' : formatLocalDateTime(seconds, zone));
  const list = [];
  for (const job of jobs.jobs) {
    const { last, failures, lastError } = await summariseRuns(ctx.app.db, job.name);
    list.push({
      name: job.name,
      title: job.title[ctx.lang],
      every_seconds: jobs.periodOf(job),
      last_run: label(last?.started_at),
      last_trigger: last?.trigger ?? '',
      last_outcome: last?.outcome ?? '',
      /** milliseconds; null while running or before the first run */
      last_duration_ms: last?.finished_ms == null ? null : last.finished_ms - last.started_ms,
      next_run: label(jobs.nextRunAt(job)),
      failures,
      last_error: lastError === null ? '' : ctx.t(lastError),
    });
  }
  return { list, can_run: ctx.identity?.isSuper === true };
}

async function run(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  if (!ctx.identity?.isSuper) throw errors.jobRunSuperOnly();
  const job = typeof ctx.params.name === 'string' ? ctx.app.jobs.find(ctx.params.name) : undefined;
  if (!job) throw errors.jobUnknown();
  if ((await ctx.app.jobs.runNow(job)) === 'busy') throw errors.jobBusy();
  ctx.logTitle = 'Run a background job now';
  return new Success({ name: job.name }, 'The job was started: its run will be shown here when it ends');
}

export const jobsController: Controller = {
  name: 'routine.Jobs',
  path: 'routine/jobs',
  area: 'admin',
  actions: { index, run },
  noNeedLogin: [],
  noNeedPermission: [],
};
