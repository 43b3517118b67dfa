import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SERVER_BUNDLE } from './build-server.js';
import { ADMIN_PASSWORD, PROJECT_ROOT } from './test-server.js';

/**
 * The built server in a process of its own, as `npm start` runs it: the bundle (tests/support/build-server.ts)
 * on plain node, on a free port of 127.0.0.1, with the test servers' settings (no captcha, no rate limits,
 * the request log on). What it prints is collected line by line.
 */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** the lines printed so far (the banner, the request log) */
  stdout: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** the base URL once the server listens (rejects if it exits first) */
  listening: Promise<string>;
  /** SIGKILL unless it has exited, then remove its storage folder */
  stop(): Promise<void>;
}

/**
 * Start the bundle on `databaseUrl`. `env` is added to the test settings; a value `undefined` leaves the
 * variable out (`ADMIN_PASSWORD: undefined`: the first start generates the admin's password). `args` follow
 * the script as `npm start -- <args>` passes them (`--verbose`).
 */
export function spawnServer(databaseUrl: string, env: Record<string, string | undefined> = {}, args: readonly string[] = []): ServerProcess {
  const storage = mkdtempSync(join(tmpdir(), 'chidao-storage-'));
  const settings: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: '0',
    STORAGE_DIR: storage,
    ADMIN_PASSWORD,
    ADMIN_LOGIN_CAPTCHA: 'false',
    API_GET_RATE_LIMIT: '0',
    AUTH_RATE_LIMIT: '0',
    LOG_REQUESTS: 'true',
    ...env,
    DATABASE_URL: databaseUrl,
  };
  const child = spawn(process.execPath, ['--enable-source-maps', join(TEST_SERVER_BUNDLE, 'main.js'), ...args], {
    cwd: PROJECT_ROOT,
    env: Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stdout: string[] = [];
  const stderr: string[] = [];
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      into.push(...lines);
    };
  };
  child.stdout.on('data', collect(stdout));
  child.stderr.on('data', collect(stderr));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const line = stdout.find((text) => text.includes('member centre:'));
      if (line) {
        clearInterval(timer);
        resolve(/(http:\/\/\S+)\/user/.exec(line)![1]);
      }
    }, 20);
    void exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${stderr.join('\n')}`));
    });
  });
  // A caller that only kills the process never awaits it.
  listening.catch(() => {});
  return {
    child,
    stdout,
    stderr,
    exited,
    listening,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(storage, { recursive: true, force: true });
    },
  };
}
