import type { Generated } from 'kysely';
import type { DatabaseHandle, Db } from '../db/connection.js';
import { JOB_RUN_TABLE } from '../db/system-tables.js';

/**
 * The record of background job runs (`job_run`), the same on both databases: what the back office shows
 * and what the exactly-once checks count. A row is written when a run starts (`running`) and finished when
 * it ends; a run whose process died keeps `running` until a later run of its job marks it `interrupted`.
 * Each job keeps its newest `KEPT_RUNS` rows.
 */

export type JobOutcome = 'running' | 'succeeded' | 'failed' | 'interrupted';

/** A row of `job_run`, created by `ensureJobRunTable` below. */
interface JobRunTable {
  id: Generated<number>;
  job: string;
  /** `schedule` (the slot's turn) or `manual` (a super admin's "run now") */
  trigger: string;
  /** unix seconds: the start of the schedule slot it ran for; the request's time for a manual run */
  slot: number;
  started_at: number;
  /** unix milliseconds, for the duration; null while running */
  started_ms: number | string;
  finished_ms: number | string | null;
  outcome: string;
  error: string | null;
  /** which process ran it (host:pid), for the operator reading the table */
  runner: string;
}

/** Runs kept per job: at one a minute, about three hours of history. */
const KEPT_RUNS = 200;

export async function ensureJobRunTable(handle: DatabaseHandle): Promise<void> {
  const { db, dialect } = handle;
  await db.schema
    .createTable(JOB_RUN_TABLE)
    .ifNotExists()
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (column) => (dialect === 'postgres' ? column.primaryKey() : column.primaryKey().autoIncrement()))
    .addColumn('job', 'varchar(64)', (column) => column.notNull())
    .addColumn('trigger', 'varchar(16)', (column) => column.notNull())
    .addColumn('slot', 'bigint', (column) => column.notNull())
    .addColumn('started_at', 'bigint', (column) => column.notNull())
    .addColumn('started_ms', 'bigint', (column) => column.notNull())
    .addColumn('finished_ms', 'bigint')
    .addColumn('outcome', 'varchar(16)', (column) => column.notNull())
    .addColumn('error', 'text')
    .addColumn('runner', 'varchar(128)', (column) => column.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('job_run_job_id').ifNotExists().on(JOB_RUN_TABLE).columns(['job', 'id']).execute();
}

export async function recordRunStart(db: Db, run: { job: string; trigger: 'schedule' | 'manual'; slot: number; runner: string }, startedMs: number): Promise<number> {
  const row = await db
    .insertInto(JOB_RUN_TABLE)
    .values({ ...run, started_at: Math.floor(startedMs / 1000), started_ms: startedMs, finished_ms: null, outcome: 'running', error: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function recordRunEnd(db: Db, id: number, outcome: Exclude<JobOutcome, 'running'>, finishedMs: number, error: string | null): Promise<void> {
  await db.updateTable(JOB_RUN_TABLE).set({ outcome, finished_ms: finishedMs, error: error?.slice(0, 2000) ?? null }).where('id', '=', id).where('outcome', '=', 'running').execute();
}

/**
 * Before a run of `job`: earlier runs still `running` after the job's time limit died with their process
 * (killed, or the machine went down), and are marked so; runs beyond the kept number go.
 */
export async function tidyRuns(db: Db, job: string, timeoutSeconds: number, nowMs: number): Promise<void> {
  await db
    .updateTable(JOB_RUN_TABLE)
    .set({ outcome: 'interrupted', error: 'The process running it stopped before the end' })
    .where('job', '=', job)
    .where('outcome', '=', 'running')
    .where('started_ms', '<', nowMs - timeoutSeconds * 1000)
    .execute();
  const edge = await db.selectFrom(JOB_RUN_TABLE).select('id').where('job', '=', job).orderBy('id', 'desc').offset(KEPT_RUNS).limit(1).executeTakeFirst();
  if (edge) await db.deleteFrom(JOB_RUN_TABLE).where('job', '=', job).where('id', '<=', edge.id).execute();
}

interface JobRunSummary {
  last?: { id: number; trigger: string; slot: number; started_at: number; started_ms: number; finished_ms: number | null; outcome: JobOutcome; error: string | null };
  /** failed or interrupted runs among those kept */
  failures: number;
  lastError: string | null;
}

export async function summariseRuns(db: Db, job: string): Promise<JobRunSummary> {
  const last = await db.selectFrom(JOB_RUN_TABLE).selectAll().where('job', '=', job).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const failures = await db.selectFrom(JOB_RUN_TABLE).select((eb) => eb.fn.countAll<number | string>().as('count')).where('job', '=', job).where('outcome', 'in', ['failed', 'interrupted']).executeTakeFirst();
  const lastError = await db.selectFrom(JOB_RUN_TABLE).select('error').where('job', '=', job).where('error', 'is not', null).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return {
    last: last && {
      id: Number(last.id), trigger: last.trigger, slot: Number(last.slot), started_at: Number(last.started_at), started_ms: Number(last.started_ms),
      finished_ms: last.finished_ms === null ? null : Number(last.finished_ms), outcome: last.outcome as JobOutcome, error: last.error,
    },
    failures: Number(failures?.count ?? 0),
    lastError: lastError?.error ?? null,
  };
}

declare module '../db/system-tables.js' {
  interface SystemTables {
    [JOB_RUN_TABLE]: JobRunTable;
  }
}
