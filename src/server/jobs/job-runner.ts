import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import PgBoss from 'pg-boss';
import type { AppContext, JobDefinition, JobLog, Jobs } from '../app-context.js';
import type { DatabaseHandle } from '../db/connection.js';
import { withStartupLock } from '../db/startup-lock.js';
import { recordJobRun } from '../metrics.js';
import { recordRunEnd, recordRunStart, tidyRuns, type JobOutcome } from './job-runs.js';
import { slotOf } from './jobs.js';

/**
 * Runs the background jobs (`jobs.ts`) once per slot of their schedule, however many processes serve one
 * database (docs/architecture.md#background-jobs). Every process keeps the clock: at each slot's start
 * it asks for that slot's run; what makes the run happen once differs by database:
 *   - PostgreSQL: the request is a pg-boss job whose id is derived from the job and the slot, so the
 *     processes' requests for one slot are one row (the insert of the others does nothing); each process
 *     works the queue, and pg-boss hands a row to one worker (`SKIP LOCKED`). A run is never retried
 *     (`retryLimit` 0): a process killed mid-run leaves its row active until pg-boss expires it, and the
 *     next slot, a new row, does the work left over.
 *   - SQLite: one process serves the file, so the runs are kept in this process: one at a time per job.
 * Both record each run in `job_run` (`job-runs.ts`).
 */

/** What a run-now answers: it was started (or queued), or a run of the job is already waiting or under way. */
type RunNowResult = 'started' | 'busy';

interface JobRunnerOptions {
  jobs: readonly JobDefinition[];
  /** every job's slot length instead of its own (`JOB_SLOT_SECONDS`: tests and demonstrations) */
  slotSeconds?: number;
  /** how long a stop waits for runs under way before it leaves them to be marked interrupted */
  stopGraceMs?: number;
}


interface RunRequest {
  trigger: 'schedule' | 'manual';
  slot: number;
}

/** How long after a manual run started another "run now" of the job is taken as the same click. */
const MANUAL_RUN_SPACING_MS = 10_000;

/** The pg-boss job id of a request: the same for every process asking for the same run. */
function requestId(job: string, key: string): string {
  const hex = createHash('sha256').update(`${job}\n${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class JobRunner implements Jobs {
  readonly jobs: readonly JobDefinition[];
  private readonly runner = `${hostname()}:${process.pid}`;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** runs of this process under way, by `job_run` id */
  private readonly inFlight = new Map<number, { job: JobDefinition; startedMs: number; done: Promise<void> }>();
  private boss?: PgBoss;
  private readonly workers = new Map<string, string>();
  /** SQLite: per job, whether a run is under way and the request waiting behind it */
  private readonly local = new Map<string, { running: boolean; next?: RunRequest }>();
  private stopped = false;
  private app?: AppContext;
  private log: JobLog = { debug: () => undefined, error: () => undefined };

  constructor(private readonly handle: DatabaseHandle, private readonly options: JobRunnerOptions) {
    this.jobs = options.jobs;
  }

  /** The slot length of `job` in this process. */
  periodOf(job: JobDefinition): number {
    return this.options.slotSeconds ?? job.everySeconds;
  }

  /** When the next slot of `job` starts (unix seconds). */
  nextRunAt(job: JobDefinition, nowMs = Date.now()): number {
    return slotOf(nowMs / 1000, this.periodOf(job)) + this.periodOf(job);
  }

  find(name: string): JobDefinition | undefined {
    return this.jobs.find((job) => job.name === name);
  }

  /** Start keeping the slots (and, on PostgreSQL, working the queue) for `app`, whose parts the jobs use. */
  async start(app: AppContext, log: JobLog): Promise<void> {
    this.app = app;
    this.log = log;
    if (this.handle.dialect === 'postgres') await this.startBoss();
    for (const job of this.jobs) this.arm(job);
  }

  private async startBoss(): Promise<void> {
    const shortest = Math.min(...this.jobs.map((job) => this.periodOf(job)));
    const boss = new PgBoss({
      connectionString: this.handle.url,
      max: 3,
      application_name: 'chidao-jobs',
      // the slots are kept by `arm` below, to the second; pg-boss's cron is by the minute
      schedule: false,
      supervise: true,
      // how soon a run left active by a killed process is expired
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, shortest)),
    });
    boss.on('error', (error: unknown) => this.log.error({ err: error }, 'job queue error'));
    // Processes starting together: one makes pg-boss's schema and the queues, the others then find them.
    try {
      await withStartupLock(this.handle, async () => {
        await boss.start();
        for (const job of this.jobs) {
          const queue = { name: job.name, policy: 'short' as const, retryLimit: 0, expireInSeconds: job.timeoutSeconds };
          if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, queue);
          else await boss.createQueue(job.name, queue);
        }
      });
    } catch (error) {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      throw error;
    }
    this.boss = boss;
    for (const job of this.jobs) {
      const pollingIntervalSeconds = Math.max(0.5, Math.min(10, this.periodOf(job) / 4));
      const worker = await boss.work<RunRequest>(job.name, { pollingIntervalSeconds, batchSize: 1 }, async ([request]) => {
        await this.execute(job, request.data);
      });
      this.workers.set(job.name, worker);
    }
  }

  /** A timer for the next slot of `job`, which asks for that slot's run and arms the one after. */
  private arm(job: JobDefinition): void {
    if (this.stopped) return;
    const period = this.periodOf(job);
    const next = this.nextRunAt(job);
    // A little after the slot's start, so a clock a few milliseconds early still lands in the slot.
    const timer = setTimeout(() => {
      this.arm(job);
      this.request(job, { trigger: 'schedule', slot: slotOf(Date.now() / 1000, period) }).catch((error: unknown) =>
        this.log.error({ err: error, job: job.name }, 'job request failed'));
    }, next * 1000 - Date.now() + 20);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private async request(job: JobDefinition, request: RunRequest, key = `slot:${request.slot}`): Promise<RunNowResult> {
    if (this.stopped) return 'busy';
    if (this.boss) {
      const id = await this.boss.send(job.name, request, { id: requestId(job.name, key), ...(request.trigger === 'manual' ? { singletonKey: 'manual' } : {}) });
      const worker = this.workers.get(job.name);
      if (id && worker) this.boss.notifyWorker(worker);
      return id ? 'started' : 'busy';
    }
    const state = this.local.get(job.name) ?? { running: false };
    this.local.set(job.name, state);
    if (state.running) {
      // Behind the run under way: one request waits, later slots fold into it (the jobs catch up).
      if (state.next) return 'busy';
      state.next = request;
      return 'started';
    }
    state.running = true;
    void (async () => {
      let next: RunRequest | undefined = request;
      while (next && !this.stopped) {
        state.next = undefined;
        await this.execute(job, next).catch(() => undefined);
        next = state.next;
      }
      state.running = false;
      state.next = undefined;
    })();
    return 'started';
  }

  /**
   * "Run now" (super admins): one run, even for two clicks at once on two processes. A request is refused
   * while a run of the job is recorded as under way or a manual one started moments ago
   * (`MANUAL_RUN_SPACING_MS`); the requests of two clicks that saw the same latest run are one (their id is
   * made from it), and pg-boss keeps one manual request waiting per job.
   */
  async runNow(job: JobDefinition): Promise<RunNowResult> {
    const latest = await this.handle.db.selectFrom('job_run').select(['id', 'outcome', 'trigger', 'started_ms']).where('job', '=', job.name).orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (latest?.outcome === 'running') return 'busy';
    if (latest?.trigger === 'manual' && Number(latest.started_ms) > Date.now() - MANUAL_RUN_SPACING_MS) return 'busy';
    return this.request(job, { trigger: 'manual', slot: Math.floor(Date.now() / 1000) }, `manual:${latest?.id ?? 0}`);
  }

  /** One run: recorded when it starts and when it ends, whatever happens in between. */
  private async execute(job: JobDefinition, request: RunRequest): Promise<void> {
    const app = this.app;
    if (!app) return;
    const startedMs = Date.now();
    await tidyRuns(app.db, job.name, job.timeoutSeconds, startedMs);
    const id = await recordRunStart(app.db, { job: job.name, trigger: request.trigger, slot: Number(request.slot), runner: this.runner }, startedMs);
    const run = (async () => {
      try {
        await job.run(app);
        await this.finished(job, id, 'succeeded', startedMs, null);
      } catch (error) {
        this.log.error({ err: error, job: job.name }, 'background job failed');
        await this.finished(job, id, 'failed', startedMs, error instanceof Error ? error.message : String(error));
        throw error;
      }
    })();
    this.inFlight.set(id, { job, startedMs, done: run.then(() => undefined, () => undefined) });
    try {
      await run;
    } finally {
      this.inFlight.delete(id);
    }
  }

  /**
   * The one place a run's end is recorded (the back office's table): every outcome of this process's runs
   * comes through here, so counting them elsewhere (metrics) is one line here. (A run whose process was
   * killed is marked `interrupted` later by `tidyRuns`, in another run.)
   */
  private async finished(job: JobDefinition, id: number, outcome: Exclude<JobOutcome, 'running'>, startedMs: number, error: string | null): Promise<void> {
    const finishedMs = Date.now();
    await recordRunEnd(this.handle.db, id, outcome, finishedMs, error);
    if (this.app) recordJobRun(this.app, job.name, outcome, (finishedMs - startedMs) / 1000);
    this.log.debug({ job: job.name, outcome, seconds: (finishedMs - startedMs) / 1000 }, 'background job run');
  }

  /** Stop asking for slots, let the runs under way finish (a few seconds at most), then stop the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const grace = this.options.stopGraceMs ?? 5_000;
    if (this.boss) await this.boss.stop({ graceful: true, wait: true, timeout: grace, close: true });
    const pending = [...this.inFlight.values()].map((run) => run.done);
    if (pending.length > 0) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(pending), new Promise((resolve) => (timeout = setTimeout(resolve, grace)))]);
      clearTimeout(timeout);
    }
    for (const [id, run] of this.inFlight) {
      await this.finished(run.job, id, 'interrupted', run.startedMs, 'The server stopped during the run').catch(() => undefined);
    }
  }
}
