import { spawn, type ChildProcess } from 'node:child_process';
import { ADMIN_PASSWORD, PROJECT_ROOT } from './test-server.js';

/**
 * A server process of its own (tests/support/callback-process-child.ts) on `databaseUrl` that sends `count`
 * identical callbacks at once on `go()`: the wall callback of `wall.provider` with `wall.query`, or the HTTP
 * `request` through its routes. `answers` is what each got; `stopAll` kills what is still running.
 */
export interface CallbackProcess {
  child: ChildProcess;
  ready: Promise<void>;
  answers: Promise<unknown[]>;
  go(): void;
}

export type CallbackPlan =
  | { wall: { provider: string; query: string } }
  | { request: { method: 'GET' | 'POST'; url: string; headers: Record<string, string> } };

export function callbackProcess(databaseUrl: string, plan: CallbackPlan, count: number): CallbackProcess {
  const task = 'wall' in plan ? { PROVIDER_CODE: plan.wall.provider, QUERY: plan.wall.query } : { REQUEST: JSON.stringify(plan.request) };
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/callback-process-child.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ADMIN_PASSWORD, COUNT: String(count), ...task },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the callback process exited with ${code}`)));
  });
  const answers = new Promise<unknown[]>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('['));
      if (code === 0 && line) resolve(JSON.parse(line) as unknown[]);
      else reject(new Error(`the callback process exited with ${code}: ${output}`));
    });
  });
  return { child, ready, answers, go: () => child.stdin?.write('go\n') };
}

/** Start `processes` (all ready first), then send their callbacks together; every answer, in order. */
export async function sendTogether(processes: readonly CallbackProcess[]): Promise<unknown[]> {
  await Promise.all(processes.map((one) => one.ready));
  for (const one of processes) one.go();
  return (await Promise.all(processes.map((one) => one.answers))).flat();
}

/** Kill what is still running of `children` (a test that failed midway). */
export function stopAll(children: readonly ChildProcess[]): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
