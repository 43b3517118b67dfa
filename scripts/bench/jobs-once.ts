/**
 * The issue's check of background jobs, done literally: two server processes on one PostgreSQL database
 * run a once-a-minute job (it takes 5 s) for five minutes; in the middle one of them is killed (SIGKILL)
 * while it runs the job. Prints each slot, how many times it ran and where, and whether every slot ran once.
 *   npx tsx scripts/bench/jobs-once.ts        (TEST_POSTGRES_URL: the server to make a scratch database on)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/connection.js';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MINUTES = Number(process.env.MINUTES ?? 5);
const name = `jobs_once_${randomBytes(4).toString('hex')}`;
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(statement);
  await client.end();
}

function start(label: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/jobs-process.ts'], {
    env: { ...process.env, DATABASE_URL: url.toString(), JOB_SLOT_SECONDS: '60', SLEEP_MS: '5000', ADMIN_PASSWORD: 'Secret_pass1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
  console.log(`process ${label}: pid ${child.pid}`);
  return { child, ready };
}

const time = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 19);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await admin(`CREATE DATABASE ${name}`);
const a = start('A');
const b = start('B');
const handle = openDatabase(url.toString());
try {
  await Promise.all([a.ready, b.ready]);
  const began = Date.now();
  console.log(`${time(began / 1000)} both running; the job runs at every minute for ${MINUTES} minutes`);
  const runs = () => handle.db.selectFrom('job_run').select(['slot', 'outcome', 'runner', 'started_ms', 'finished_ms']).where('job', '=', 'slow-sweep').orderBy('id').execute();
  // From the middle on, kill whichever process is running the job at that moment.
  let killed: { label: string; slot: number } | undefined;
  while (Date.now() - began < MINUTES * 60_000) {
    if (!killed && Date.now() - began > (MINUTES * 60_000) / 2) {
      const running = (await runs()).find((run) => run.outcome === 'running');
      const victim = running && [a, b].find((p) => running.runner.endsWith(`:${p.child.pid}`));
      if (running && victim) {
        victim.child.kill('SIGKILL');
        killed = { label: victim === a ? 'A' : 'B', slot: Number(running.slot) };
        console.log(`${time(Date.now() / 1000)} killed process ${killed.label} (SIGKILL) in the middle of the run of slot ${time(killed.slot)}`);
      }
    }
    await sleep(killed ? 1000 : 200);
  }
  // Let the last slot's run end, then stop what is left.
  await sleep(8000);
  for (const p of [a, b]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await sleep(2000);
  const rows = await runs();
  const slots = new Map<number, typeof rows>();
  for (const row of rows) slots.set(Number(row.slot), [...(slots.get(Number(row.slot)) ?? []), row]);
  console.log('\nslot (UTC)  runs  outcome(s) [process, seconds]');
  for (const [slot, list] of slots) {
    const detail = list.map((run) => `${run.outcome} [${run.runner.endsWith(`:${a.child.pid}`) ? 'A' : 'B'}, ${run.finished_ms === null ? '-' : ((Number(run.finished_ms) - Number(run.started_ms)) / 1000).toFixed(1)}]`);
    console.log(`${time(slot)}    ${list.length}     ${detail.join('; ')}`);
  }
  const twice = [...slots.values()].filter((list) => list.length > 1).length;
  const expected = [];
  for (let slot = Math.min(...slots.keys()); slot <= Math.max(...slots.keys()); slot += 60) expected.push(slot);
  const missing = expected.filter((slot) => !slots.has(slot));
  console.log(`\n${slots.size} slots, ${rows.length} runs: ${twice} slot(s) ran more than once, ${missing.length} slot(s) missing${killed ? `; process ${killed.label} was killed during slot ${time(killed.slot)}` : '; no run was caught to kill'}`);
  console.log(twice === 0 && missing.length === 0 ? 'every slot ran exactly once' : 'NOT exactly once');
} finally {
  for (const p of [a, b]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await handle.close();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
