import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import type { AppContext } from '../app-context.js';
import { dynamicDb, type DatabaseHandle } from '../db/connection.js';
import { tablesBehind } from '../db/migrate.js';
import { codeOf } from '../../contract/checks.js';

/**
 * The probes a load balancer or an orchestrator asks (`docs/configuration.md#health-metrics-and-logs`):
 *   - `GET /health/live`: 200 whenever the process answers at all; it reads nothing.
 *   - `GET /health/ready`: 200 when the database answers within `READY_TIMEOUT_MS`, its tables are at the
 *     version of the schemas this process serves, and those schemas are loaded; 503 otherwise, with the
 *     reason. Asked again, it answers afresh: a database back after an outage makes it 200 without a restart.
 * Plain JSON (not the API's envelope), unauthenticated, outside the API's throttle and IP blacklist (the
 * balancer must reach it from wherever it stands), written neither to the admin log nor to the request log.
 */

/** How long the database may take to answer the probe: a hung server is reported in this, not waited for. */
const READY_TIMEOUT_MS = 2_000;

type CheckStatus = 'ok' | 'failed';

interface Check {
  status: CheckStatus;
  /** why it failed, in a line */
  reason?: string;
}

interface Readiness {
  status: 'ok' | 'unavailable';
  /** the first failed check's reason */
  reason?: string;
  checks: {
    database: Check & { dialect: string; ms?: number };
    migrations: Check & { behind?: string[] };
    schemas: Check & { resources: number; revision: number };
  };
}

class ProbeTimeout extends Error {}

/** `promise`, or a `ProbeTimeout` once `ms` passed; `late` receives what it gave if it came after all. */
function within<T>(promise: Promise<T>, ms: number, what: string, late: (value: T) => void = () => undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new ProbeTimeout(`${what} took longer than ${ms} ms`));
    }, ms);
  });
  promise.then((value) => timedOut && late(value), () => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One round trip on a connection of PostgreSQL's pool, bounded: a connection that does not come in time
 * goes back to the pool when it comes; one whose query does not answer in time is closed, never reused.
 */
async function pingPool(pool: pg.Pool, deadline: number): Promise<void> {
  const client = await within(pool.connect(), Math.max(1, deadline - Date.now()), 'getting a connection', (late) => late.release());
  try {
    await within(client.query('SELECT 1'), Math.max(1, deadline - Date.now()), 'the query');
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

async function pingDatabase(handle: DatabaseHandle): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  if (handle.pool) return pingPool(handle.pool, deadline);
  await within(sql`SELECT 1`.execute(handle.db), READY_TIMEOUT_MS, 'the query');
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message || String(codeOf(error) ?? '') || error.name : String(error);
  return message.split('\n')[0].slice(0, 200);
}

async function readiness(app: AppContext): Promise<Readiness> {
  const started = Date.now();
  const database: Readiness['checks']['database'] = { status: 'ok', dialect: app.handle.dialect };
  try {
    await pingDatabase(app.handle);
    database.ms = Date.now() - started;
  } catch (error) {
    Object.assign(database, { status: 'failed', reason: `database: ${reasonOf(error)}` });
  }

  const resources = app.resources;
  const schemas: Readiness['checks']['schemas'] = { status: 'ok', resources: resources.size, revision: app.schemas.currentRevision };
  if (resources.size === 0) Object.assign(schemas, { status: 'failed', reason: 'schemas: none loaded' });

  const migrations: Readiness['checks']['migrations'] = { status: 'ok' };
  if (database.status === 'failed') {
    Object.assign(migrations, { status: 'failed', reason: 'migrations: not checked, the database did not answer' });
  } else {
    try {
      const behind = await within(tablesBehind(dynamicDb(app.db), resources.values()), READY_TIMEOUT_MS, 'reading the migration state');
      if (behind.length > 0) Object.assign(migrations, { status: 'failed', behind, reason: `migrations: not at the schemas' version: ${behind.join(', ')}`.slice(0, 500) });
    } catch (error) {
      Object.assign(migrations, { status: 'failed', reason: `migrations: ${reasonOf(error)}` });
    }
  }

  const checks = { database, migrations, schemas };
  const failed = Object.values(checks).find((check) => check.status === 'failed');
  return failed ? { status: 'unavailable', reason: failed.reason, checks } : { status: 'ok', checks };
}

export function registerHealth(server: FastifyInstance, app: AppContext): void {
  // No line in the request log for each probe: a balancer asks every few seconds.
  server.get('/health/live', { logLevel: 'silent' }, (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  server.get('/health/ready', { logLevel: 'silent' }, async (_request, reply) => {
    const report = await readiness(app);
    return reply.code(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store').send(report);
  });
}
