import { spawn } from 'node:child_process';

/**
 * Runs one whitelisted command line (`commands.ts`) without a shell, line by line: colour and cursor
 * codes are taken out, carriage returns (progress bars) end a line like newlines do, blank lines are
 * dropped. A run is stopped when it passes its time limit; past the output cap its lines are no longer
 * passed on (the process still runs to its end).
 */

/** Text passed on per run at most. */
const OUTPUT_CAP_BYTES = 256 * 1024;
/** How long a stopped command gets to end before it is killed. */
const KILL_GRACE_MS = 2_000;
/** The exit code reported when the time limit stopped a run (as coreutils' `timeout`). */
const TIMED_OUT_EXIT_CODE = 124;

/**
 * The variables a command sees: enough to find programs and caches, none of the server's secrets
 * (`TOKEN_SECRET`, `DATABASE_URL`, provider keys stay with the server).
 */
const PASSED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TEMP', 'TMP', 'NODE_ENV', 'SystemRoot', 'APPDATA', 'LOCALAPPDATA'];

/** ANSI escape sequences (colours, cursor moves, titles) and other control characters but tab. */
// eslint-disable-next-line no-control-regex
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function cleanLine(text: string): string {
  return text.replace(CONTROL, '').trimEnd();
}

type RunOutcome =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'timedOut'; exitCode: number }
  | { kind: 'notStarted' };

interface RunOptions {
  cwd: string;
  timeoutMs: number;
  /** each cleaned, non-blank output line (stdout and stderr, in arrival order) */
  onLine(line: string): void;
  /** called once when the output cap is reached */
  onCapped(capBytes: number): void;
}

export function runCommand(argv: readonly string[], options: RunOptions): Promise<RunOutcome> {
  const [program, ...args] = argv;
  const env: NodeJS.ProcessEnv = { FORCE_COLOR: '0', NO_COLOR: '1', CI: '1' };
  for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];

  return new Promise((resolve) => {
    let passed = 0;
    let capped = false;
    const pending = { stdout: '', stderr: '' };
    const emit = (raw: string) => {
      const line = cleanLine(raw);
      if (line === '' || capped) return;
      passed += Buffer.byteLength(line) + 1;
      if (passed > OUTPUT_CAP_BYTES) {
        capped = true;
        options.onCapped(OUTPUT_CAP_BYTES);
        return;
      }
      options.onLine(line);
    };
    const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const lines = (pending[stream] + chunk.toString('utf8')).split(/\r\n|\r|\n/);
      pending[stream] = lines.pop() ?? '';
      for (const line of lines) emit(line);
    };

    // Its own process group, so a stop reaches what it started too (npm runs its scripts in children).
    const child = spawn(program, args, { cwd: options.cwd, env, shell: false, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let timedOut = false;
    let settled = false;
    const finish = (outcome: RunOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      resolve(outcome);
    };
    const signal = (name: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, name);
        else child.kill(name);
      } catch {
        // already gone
      }
    };
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      signal('SIGTERM');
      killer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
    }, options.timeoutMs);

    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    child.on('error', () => {
      if (child.pid === undefined) finish({ kind: 'notStarted' });
    });
    child.on('close', (code) => {
      for (const rest of [pending.stdout, pending.stderr]) emit(rest);
      if (timedOut) finish({ kind: 'timedOut', exitCode: TIMED_OUT_EXIT_CODE });
      else finish({ kind: 'exited', exitCode: code ?? 1 });
    });
  });
}
