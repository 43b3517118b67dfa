import type { JobOutcome as StoredJobOutcome } from './jobs/job-runs.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { fieldOf } from '../schema/definition.js';
import { AddressList } from './address-list.js';
import { resourceByTable, type AppContext, type Metrics } from './app-context.js';
import { errors } from './errors.js';
import { requestLanguage } from './http/dispatch.js';
import { routeNameOf } from './http/route-names.js';
import { envelopeOf, sendEnvelope } from './http/envelope.js';

/**
 * `GET /metrics` in Prometheus' text format, for the scraper `METRICS_TOKEN` and/or `METRICS_ALLOW` admit
 * (`docs/configuration.md#health-metrics-and-logs` lists every metric). Each server has its own registry, so several servers
 * in one process (the tests) count apart. Request metrics are labelled by route: the action an API call
 * ran (`admin:auth.Admin/index`) or the route pattern (`/storage/*`), never the address itself, so the
 * number of series stays bounded whatever clients send. The business figures (participations, providers,
 * payouts) are read from the database when scraped, a few indexed queries on small tables, so every
 * process reports the same totals.
 */

/** How a background run ended (`jobs/job-runs.ts`), the `outcome` label of the job metrics. */
type JobOutcome = Exclude<StoredJobOutcome, 'running'>;

/** Seconds a job may take, as the job histogram's buckets. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

/** The label of requests the not-found handler answered: pages of the client app, and 404s. */
const UNROUTED = '(unrouted)';

interface DatabaseFigures {
  participationsInProgress: number;
  providers: { code: string; completes: number; creditedCents: number; reversals: number }[];
  payouts: Map<string, number>;
}

async function readFigures(app: AppContext): Promise<DatabaseFigures> {
  const db = app.db;
  const [inProgress, providers, reversals, payouts] = await Promise.all([
    db.selectFrom('survey_participation').select((eb) => eb.fn.countAll().as('total')).where('status', '=', 'entered').executeTakeFirstOrThrow(),
    db
      .selectFrom('survey_provider as p')
      .leftJoin('survey as s', 's.provider_id', 'p.id')
      .select((eb) => ['p.code', eb.fn.sum('s.completes').as('completes'), eb.fn.sum('s.credited_money').as('credited')])
      .groupBy('p.code')
      .execute(),
    db
      .selectFrom('survey_participation as sp')
      .innerJoin('survey as s', 's.id', 'sp.survey_id')
      .innerJoin('survey_provider as p', 'p.id', 's.provider_id')
      .select((eb) => ['p.code', eb.fn.countAll().as('total')])
      .where('sp.status', '=', 'reversed')
      .groupBy('p.code')
      .execute(),
    db.selectFrom('payout').select((eb) => ['status', eb.fn.countAll().as('total')]).groupBy('status').execute(),
  ]);
  const reversed = new Map(reversals.map((row) => [row.code, Number(row.total)]));
  // Every state the payout schema declares is reported, 0 when no payout is in it.
  const states = (fieldOf(resourceByTable(app, 'payout'), 'status')?.enum ?? []).map(String);
  const byState = new Map(states.map((state) => [state, 0]));
  for (const row of payouts) byState.set(row.status, Number(row.total));
  return {
    participationsInProgress: Number(inProgress.total),
    providers: providers.map((row) => ({ code: row.code, completes: Number(row.completes ?? 0), creditedCents: Number(row.credited ?? 0), reversals: reversed.get(row.code) ?? 0 })),
    payouts: byState,
  };
}

/** The metrics of one server. */
class ServerMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly requestSeconds: Histogram<'route' | 'method' | 'status'>;
  private readonly jobRuns: Counter<'job' | 'outcome'>;
  private readonly jobSeconds: Histogram<'job' | 'outcome'>;
  /** the figures being read for the scrape in progress: its gauges share one set of queries */
  private reading: Promise<DatabaseFigures | undefined> | undefined;

  constructor(private readonly app: AppContext) {
    const registers = [this.registry];
    // Heap, event-loop lag, CPU, memory, handles, garbage collection: prom-client's standard process metrics.
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'chidao_http_requests_total', help: 'HTTP requests answered, by route, method and status code.', labelNames: ['route', 'method', 'status'], registers });
    this.requestSeconds = new Histogram({ name: 'chidao_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route, method and status code.', labelNames: ['route', 'method', 'status'], registers });
    this.jobRuns = new Counter({ name: 'chidao_job_runs_total', help: 'Background job runs, by job and outcome (ok or failed).', labelNames: ['job', 'outcome'], registers });
    this.jobSeconds = new Histogram({ name: 'chidao_job_duration_seconds', help: 'Time a background job run took, by job and outcome.', labelNames: ['job', 'outcome'], buckets: JOB_BUCKETS, registers });

    const pool = app.handle.pool;
    if (pool) {
      new Gauge({ name: 'chidao_db_pool_connections', help: 'PostgreSQL connections open in the pool (in use or idle).', registers, collect() { this.set(pool.totalCount); } });
      new Gauge({ name: 'chidao_db_pool_idle_connections', help: 'PostgreSQL connections open and idle in the pool.', registers, collect() { this.set(pool.idleCount); } });
      new Gauge({ name: 'chidao_db_pool_waiting_queries', help: 'Queries waiting for a free PostgreSQL connection.', registers, collect() { this.set(pool.waitingCount); } });
    }

    const figures = () => this.figures();
    new Gauge({
      name: 'chidao_db_figures_up', help: '1 when the business figures below were read from the database at this scrape, 0 when the database did not answer.', registers,
      async collect() { this.set((await figures()) ? 1 : 0); },
    });
    new Gauge({
      name: 'chidao_survey_participations_in_progress', help: 'Survey attempts started and not yet finished (status entered).', registers,
      async collect() {
        this.reset();
        const read = await figures();
        if (read) this.set(read.participationsInProgress);
      },
    });
    const perProvider = (name: string, help: string, value: (provider: DatabaseFigures['providers'][number]) => number) =>
      new Gauge({
        name, help, labelNames: ['provider'], registers,
        async collect() {
          this.reset();
          for (const provider of (await figures())?.providers ?? []) this.set({ provider: provider.code }, value(provider));
        },
      });
    perProvider('chidao_survey_completes', "Completes counted on the provider's surveys (a reversal takes one back), by provider code.", (provider) => provider.completes);
    perProvider('chidao_survey_credited_yuan', "Money credited to members through the provider's surveys, net of reversals, by provider code.", (provider) => provider.creditedCents / 100);
    perProvider('chidao_survey_reversals', 'Completes the provider reversed at reconciliation, by provider code.', (provider) => provider.reversals);
    new Gauge({
      name: 'chidao_payouts', help: 'Payout requests in each state (pending, approved, paid, rejected).', labelNames: ['status'], registers,
      async collect() {
        this.reset();
        for (const [status, total] of (await figures())?.payouts ?? []) this.set({ status }, total);
      },
    });
  }

  /** One answered request; `route` is a bounded name (`nameRoute`, a route pattern), never the raw address. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  recordJobRun(job: string, outcome: JobOutcome, seconds: number): void {
    this.jobRuns.inc({ job, outcome });
    this.jobSeconds.observe({ job, outcome }, seconds);
  }

  /** The figures for this scrape, read once whichever gauge asks first; nothing when the database fails. */
  private figures(): Promise<DatabaseFigures | undefined> {
    this.reading ??= readFigures(this.app)
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}

/**
 * A background job's run, for the job metrics; changes nothing when metrics are off. `seconds` is how
 * long the run took, `job` a name from the code (never data).
 */
export function recordJobRun(app: Pick<AppContext, 'metrics'>, job: string, outcome: JobOutcome, seconds: number): void {
  app.metrics?.recordJobRun(job, outcome, seconds);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Why a request may not read the metrics, or nothing when it may: each setting given must admit it (the
 * bearer token of `METRICS_TOKEN`, an address of `METRICS_ALLOW`).
 */
function refusal(app: AppContext, allow: AddressList | undefined, request: FastifyRequest): { status: 401 | 403; error: string } | undefined {
  if (allow && !allow.includes(request.ip)) return { status: 403, error: 'this address is not in METRICS_ALLOW' };
  const token = app.settings.metrics.token;
  if (token === undefined) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match || !timingSafeEqual(digest(match[1]), digest(token))) return { status: 401, error: 'a bearer token (METRICS_TOKEN) is required' };
  return undefined;
}

/**
 * `GET /metrics` and the request metrics, when `METRICS_TOKEN` or `METRICS_ALLOW` is set (`app.metrics`
 * then holds them); otherwise `/metrics` answers 404 as any unknown address and requests are not measured.
 */
export function registerMetrics(server: FastifyInstance, app: AppContext): void {
  const access = app.settings.metrics;
  if (access.token === undefined && access.allow === undefined) {
    server.get('/metrics', { logLevel: 'silent' }, (request, reply) => sendEnvelope(reply, envelopeOf(errors.notFound('/metrics'), requestLanguage(app, request).t, Math.floor(Date.now() / 1000)), 404));
    return;
  }
  const metrics = new ServerMetrics(app);
  app.metrics = metrics;
  const allow = access.allow === undefined ? undefined : AddressList.parse(access.allow);

  server.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const route = routeNameOf(request) ?? request.routeOptions.url ?? UNROUTED;
    metrics.observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  server.get('/metrics', { logLevel: 'silent' }, async (request, reply) => {
    const refused = refusal(app, allow, request);
    if (refused) {
      if (refused.status === 401) reply.header('www-authenticate', 'Bearer');
      return reply.code(refused.status).header('cache-control', 'no-store').send({ error: refused.error });
    }
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
