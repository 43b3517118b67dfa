/**
 * `npx tsx scripts/bench/startup.ts` — how fast the server starts and how much memory it holds once
 * started: (a) the server bundle on plain node, as `npm start` runs it (dist/server/main.js, built by
 * scripts/build.js), against (b) the sources through tsx, as `npm start` ran them before the bundle
 * (`tsx src/server/main.ts`). Not a test.
 *
 * Both run with the Node options of `npm start` (package.json), on one database migrated beforehand (a
 * start then only checks it), one after the other, BENCH_RUNS (5) times each. Prints, per way: the median
 * time from spawning the process to the first answer of `/api/index/index`, and the resident memory of
 * the process tree (the process and its children: tsx runs the server in a child of its own) a second
 * after that answer; then the ratios. The bundle here is built into dist/bench-server (server only).
 *
 * Environment: BENCH_DATABASE (sqlite | postgres), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_RUNS (5).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_DIALECT as DIALECT, benchDatabase } from './bench-database.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE_DIR = join(PROJECT_ROOT, 'dist/bench-server');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const PORT = 8790;
const SETTLE_MS = 1_000;

/** The Node options `npm start` runs the server with (package.json). */
function startScriptNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

const WAYS = {
  'bundle on node': () => [process.execPath, ...startScriptNodeOptions(), join(BUNDLE_DIR, 'main.js')],
  'tsx on sources': () => [join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ...startScriptNodeOptions().filter((option) => option !== '--enable-source-maps'), 'src/server/main.ts'],
} as const;
type Way = keyof typeof WAYS;

/** Resident memory in MB of `pid` and all its descendants, from /proc. */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let kb = 0;
  const visit = (id: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return kb / 1024;
}

async function answers(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}/api/index/index`)).status === 200;
  } catch {
    return false;
  }
}

async function startOnce(way: Way, env: Record<string, string>): Promise<{ ms: number; rssMb: number }> {
  const [command, ...args] = WAYS[way]();
  const started = performance.now();
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(PORT) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    while (!(await answers())) {
      if (child.exitCode !== null) throw new Error(`${way}: the server exited (${child.exitCode})`);
      await sleep(10);
    }
    const ms = performance.now() - started;
    await sleep(SETTLE_MS);
    return { ms, rssMb: treeRssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
    while (await answers()) await sleep(50);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts/build.js'), '--server-only', '--outdir', BUNDLE_DIR], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'chidao-bench-startup-'));
  const database = await benchDatabase(dir, 'bench_startup');
  const env = { DATABASE_URL: database.url, STORAGE_DIR: join(dir, 'storage'), ADMIN_PASSWORD: 'Bench_pass1' };
  try {
    await startOnce('bundle on node', env); // migrates the database: every measured start finds it current
    const results = new Map<Way, { ms: number[]; rssMb: number[] }>(Object.keys(WAYS).map((way) => [way as Way, { ms: [], rssMb: [] }]));
    for (let run = 0; run < RUNS; run++) {
      for (const way of Object.keys(WAYS) as Way[]) {
        const { ms, rssMb } = await startOnce(way, env);
        results.get(way)!.ms.push(ms);
        results.get(way)!.rssMb.push(rssMb);
      }
    }
    console.log(`start-up on ${DIALECT}, ${RUNS} runs each (median):`);
    for (const [way, { ms, rssMb }] of results) {
      console.log(`  ${way.padEnd(16)} first answer ${Math.round(median(ms))} ms, RSS of the process tree ${median(rssMb).toFixed(0)} MB   (runs: ${ms.map(Math.round).join(', ')} ms)`);
    }
    const bundle = results.get('bundle on node')!;
    const tsx = results.get('tsx on sources')!;
    console.log(`ratio (tsx / bundle): start-up ${(median(tsx.ms) / median(bundle.ms)).toFixed(2)}, memory ${(median(tsx.rssMb) / median(bundle.rssMb)).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
