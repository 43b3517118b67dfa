import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { createTestDatabase } from '../support/test-server.js';

/**
 * Two server processes on one PostgreSQL database, a job every 2 s that runs for 1.2 s; one process is
 * killed (SIGKILL) in the middle of a run. No slot runs twice, and every slot after the kill runs once,
 * in the process left.
 *
 * @module-tag full (two processes and a clock of 2 s slots): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const SLOT = 2;

function startProcess(url: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/jobs-process.ts'], {
    env: { ...process.env, DATABASE_URL: url, JOB_SLOT_SECONDS: String(SLOT), SLEEP_MS: '1200', ADMIN_PASSWORD: 'Secret_pass1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the job process exited with ${code}`)));
  });
  return { child, ready };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background jobs across two processes on postgres', () => {
  let database: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await handle?.close();
    await database?.drop();
  });

  it('runs each slot at most once, and every slot after one process is killed mid-run exactly once', async () => {
    const a = startProcess(database.url);
    const b = startProcess(database.url);
    children.push(a.child, b.child);
    await Promise.all([a.ready, b.ready]);
    handle = openDatabase(database.url);
    const runs = () => handle.db.selectFrom('job_run').select(['slot', 'outcome', 'runner']).where('job', '=', 'slow-sweep').orderBy('slot').execute();

    // Kill b while it runs a slot (within ~10 s: either process may win a slot).
    let killedSlot: number | undefined;
    for (let wait = 0; wait < 100 && killedSlot === undefined; wait += 1) {
      const running = (await runs()).find((run) => run.outcome === 'running' && run.runner.endsWith(`:${b.child.pid}`));
      if (running) {
        b.child.kill('SIGKILL');
        killedSlot = Number(running.slot);
      } else await sleep(100);
    }
    expect(killedSlot).toBeDefined();
    await sleep(10_000);
    const stoppedAt = Date.now() / 1000;
    a.child.kill('SIGTERM');
    await new Promise((resolve) => a.child.once('exit', resolve));

    const rows = await runs();
    const bySlot = new Map<number, typeof rows>();
    for (const row of rows) bySlot.set(Number(row.slot), [...(bySlot.get(Number(row.slot)) ?? []), row]);
    // (what each slot did, shown when the test fails)
    const report = [...bySlot].map(([slot, slotRuns]) => `${slot}: ${slotRuns.map((run) => `${run.outcome}@${run.runner}`).join(', ')}`);
    for (const slotRuns of bySlot.values()) expect(slotRuns.length, report.join('\n')).toBe(1);
    const killed = killedSlot as number;
    // The slots after the kill that had ended before a stopped: each ran, in a, and finished.
    const after: number[] = [];
    for (let slot = killed + SLOT; slot + SLOT < stoppedAt; slot += SLOT) after.push(slot);
    expect(after.length).toBeGreaterThanOrEqual(4);
    for (const slot of after) {
      expect(bySlot.get(slot)?.map((run) => run.outcome), `slot ${slot}\n${report.join('\n')}`).toEqual(['succeeded']);
      expect(bySlot.get(slot)?.[0].runner.endsWith(`:${a.child.pid}`)).toBe(true);
    }
    // The killed run is marked as such by a later run of the job once it is past its time limit.
    expect(bySlot.get(killed)?.[0].outcome).toBe('interrupted');
  }, 40_000);
});
