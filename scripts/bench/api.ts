/**
 * `npm run bench:api` — throughput of one admin list request against a bare baseline. Not a test.
 *
 * Setup: a temporary schemas dir (the system schemas plus a generated `bench/item` resource), an SQLite
 * file with BENCH_ROWS (100,000) rows in `bench_item`, and two servers on that file, each in its own
 * child process:
 *   - ours: `createServer` from src/server/boot.ts, exactly as tests/support/test-server.ts starts it;
 *   - baseline: bare `node:http` + better-sqlite3 running the same two SQL statements our server runs
 *     for the list (count and page) and answering a similar envelope.
 * The load generator is a closed loop in this (parent) process: BENCH_CONNECTIONS keep-alive
 * connections, each sending the next request as soon as the previous answer arrived, over
 * `GET <admin>/bench.Item/index?...&quickSearch=<term>`. One server is under load at a time: 1 s
 * warm-up each, then BENCH_SECONDS per server split into BENCH_ROUNDS alternating rounds.
 *
 * Prints what each server runs per request (SQL statements and time in SQLite, traced over sequential
 * requests before the load), requests/s, p50 and p99 latency for both, and last `ratio: X.XX`
 * (ours / baseline requests per second).
 *
 * Environment: BENCH_ROWS (100000), BENCH_CONNECTIONS (16), BENCH_SECONDS (8), BENCH_ROUNDS (4),
 * BENCH_CPU_PROF=<dir> (write a V8 CPU profile of our server's child process into <dir>, for
 * Chrome DevTools or speedscope).
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/server/seeded-random.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const SELF = fileURLToPath(import.meta.url);

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** measured time per server is split into alternating rounds (ours, baseline, baseline, ours, …) so drift in machine speed hits both */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
const WARMUP_MS = 1_000;
const TRACE_REQUESTS = 50;
const ADMIN_PASSWORD = 'Bench_pass1';
const TABLE = 'bench_item';
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu'];
/** quickSearch terms, each matching some rows: common words, a block of ids, a rare id (long scan for the page). */
const TERMS = ['alpha', 'tango', 'item 0123', '000042'];

const ITEM_SCHEMA = {
  $id: 'bench/item',
  title: 'Bench item',
  type: 'object',
  'x-table': TABLE,
  'x-controller': 'bench.Item',
  'x-menu': { title: 'Bench items' },
  'x-list': { quickSearch: ['title'], defaultSort: 'id,desc' },
  required: ['title'],
  properties: {
    id: { type: 'integer', readOnly: true },
    title: { type: 'string', maxLength: 100, title: 'Title' },
    status: { type: 'string', enum: ['0', '1'], default: '1' },
    score: { type: 'integer' },
    create_time: { type: ['integer', 'null'], readOnly: true },
    update_time: { type: ['integer', 'null'], readOnly: true },
  },
};

/** The two statements our server runs for the list (confirmed against the trace below). */
const COUNT_SQL = `select count(*) as "total" from "${TABLE}" where "title" LIKE ? ESCAPE '\\'`;
const PAGE_SQL = `select * from "${TABLE}" where "title" LIKE ? ESCAPE '\\' order by "id" desc limit ? offset ?`;

// ---------------------------------------------------------------------------------------------------
// Messages between the parent and the server children (IPC)

interface TraceEntry {
  sql: string;
  calls: number;
  ms: number;
}
type ChildMessage = { type: 'ready'; url: string; entrance: string } | { type: 'tracing' } | { type: 'trace'; entries: TraceEntry[] };
type ParentMessage = { type: 'trace-start' } | { type: 'trace-stop' } | { type: 'shutdown' };

function send(message: ChildMessage): void {
  process.send?.(message);
}

// ---------------------------------------------------------------------------------------------------
// Child: our server

/**
 * Counts and times every SQL statement while tracing is on. Kysely's SQLite driver prepares each query
 * afresh, so wrapping `prepare` sees every statement; the time includes preparing.
 */
function installSqlTrace(): { start(): void; stop(): TraceEntry[] } {
  let tracing = false;
  let entries = new Map<string, TraceEntry>();
  const record = (sql: string, ms: number, call: boolean) => {
    const entry = entries.get(sql) ?? { sql, calls: 0, ms: 0 };
    entry.ms += ms;
    if (call) entry.calls += 1;
    entries.set(sql, entry);
  };
  const prototype = Database.prototype as unknown as { prepare(this: unknown, source: string): Record<string, unknown> };
  const prepare = prototype.prepare;
  prototype.prepare = function (this: unknown, source: string) {
    if (!tracing) return prepare.call(this, source);
    const started = performance.now();
    const statement = prepare.call(this, source);
    record(source, performance.now() - started, false);
    for (const method of ['all', 'get', 'run', 'iterate']) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      statement[method] = (...args: unknown[]) => {
        const begun = performance.now();
        try {
          return original.apply(statement, args);
        } finally {
          record(source, performance.now() - begun, true);
        }
      };
    }
    return statement;
  };
  return {
    start() {
      entries = new Map();
      tracing = true;
    },
    stop() {
      tracing = false;
      return [...entries.values()];
    },
  };
}

async function serveOurs(schemasDir: string, dbFile: string): Promise<void> {
  const trace = installSqlTrace();
  const { createServer } = await import('../../src/server/boot.js');
  const { settingsFromEnv } = await import('../../src/server/settings.js');
  const settings = settingsFromEnv(
    // The GET throttle still counts every request, but with a limit no run reaches.
    { ADMIN_PASSWORD, ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: String(Number.MAX_SAFE_INTEGER), DATABASE_URL: `sqlite:${dbFile}`, HOST: '127.0.0.1', PORT: '0' },
    PROJECT_ROOT,
  );
  const server = await createServer(settings, { schemasDir });
  const address = await server.http.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'trace-start') {
      trace.start();
      send({ type: 'tracing' });
    } else if (message.type === 'trace-stop') {
      send({ type: 'trace', entries: trace.stop() });
    } else if (message.type === 'shutdown') {
      void server.close().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready', url: address.replace(/\/$/, ''), entrance: server.app.settings.adminEntrance });
}

// ---------------------------------------------------------------------------------------------------
// Child: the baseline

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

async function serveBaseline(dbFile: string): Promise<void> {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const count = db.prepare(COUNT_SQL);
  const page = db.prepare(PAGE_SQL);
  let trace: { count: TraceEntry; page: TraceEntry } | undefined;
  const timed = <T>(entry: TraceEntry | undefined, run: () => T): T => {
    if (!entry) return run();
    const started = performance.now();
    const result = run();
    entry.ms += performance.now() - started;
    entry.calls += 1;
    return result;
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const pageNumber = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10));
    const pattern = likePattern(url.searchParams.get('quickSearch') ?? '');
    const { total } = timed(trace?.count, () => count.get(pattern) as { total: number });
    const list = timed(trace?.page, () => page.all(pattern, limit, (pageNumber - 1) * limit));
    const body = JSON.stringify({ code: 1, msg: '', time: Math.floor(Date.now() / 1000), data: { list, total, remark: '' } });
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('baseline: no address');
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'trace-start') {
      trace = { count: { sql: COUNT_SQL, calls: 0, ms: 0 }, page: { sql: PAGE_SQL, calls: 0, ms: 0 } };
      send({ type: 'tracing' });
    } else if (message.type === 'trace-stop') {
      send({ type: 'trace', entries: trace ? [trace.count, trace.page] : [] });
      trace = undefined;
    } else if (message.type === 'shutdown') {
      server.closeAllConnections();
      server.close(() => {
        db.close();
        process.exit(0);
      });
    }
  });
  send({ type: 'ready', url: `http://127.0.0.1:${address.port}`, entrance: '' });
}

// ---------------------------------------------------------------------------------------------------
// Parent: setup, load generator, report

interface Child {
  process: ChildProcess;
  url: string;
  entrance: string;
  request(message: ParentMessage): void;
  next(type: ChildMessage['type']): Promise<ChildMessage>;
  stop(): Promise<void>;
}

async function startChild(args: string[], nodeOptions: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', SELF, ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: { type: ChildMessage['type']; resolve: (message: ChildMessage) => void }[] = [];
  const unclaimed: ChildMessage[] = [];
  const failed = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`server child ${args[0]} exited (${signal ?? code})`)));
  });
  failed.catch(() => {});
  child.on('message', (message: ChildMessage) => {
    const index = waiting.findIndex((item) => item.type === message.type);
    if (index >= 0) waiting.splice(index, 1)[0].resolve(message);
    else unclaimed.push(message);
  });
  const next = (type: ChildMessage['type']) => {
    const index = unclaimed.findIndex((message) => message.type === type);
    if (index >= 0) return Promise.resolve(unclaimed.splice(index, 1)[0]);
    return Promise.race([new Promise<ChildMessage>((resolve) => waiting.push({ type, resolve })), failed]);
  };
  const ready = (await next('ready')) as Extract<ChildMessage, { type: 'ready' }>;
  return {
    process: child,
    url: ready.url,
    entrance: ready.entrance,
    request: (message) => child.send(message),
    next,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'shutdown' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function insertRows(dbFile: string): number {
  const started = performance.now();
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 5000');
  const next = seededRandom(42);
  const now = Math.floor(Date.now() / 1000);
  const insert = db.prepare(`INSERT INTO "${TABLE}" (id, title, status, score, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let id = 1; id <= ROWS; id += 1) {
      const word = WORDS[Math.floor(next() * WORDS.length)];
      insert.run(id, `item ${String(id).padStart(6, '0')} ${word}`, next() < 0.9 ? '1' : '0', Math.floor(next() * 1000), now, now);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return performance.now() - started;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS });

interface Answer {
  status: number;
  body: string;
}

function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

async function postJson(base: string, path: string, payload: unknown): Promise<Answer> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'think-lang': 'en', server: 'true' },
    body: JSON.stringify(payload),
  });
  return { status: response.status, body: await response.text() };
}

interface Target {
  name: string;
  base: string;
  path: (term: string) => string;
  headers: Record<string, string>;
}

interface RunResult {
  requests: number;
  errors: number;
  seconds: number;
  latencies: number[];
  firstError?: string;
}

/** Closed loop: each connection sends its next request as soon as the previous answer is in. */
async function runLoad(target: Target, durationMs: number): Promise<RunResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const end = started + durationMs;
  const worker = async (index: number) => {
    for (let i = index; performance.now() < end; i += 1) {
      const term = TERMS[i % TERMS.length];
      const begun = performance.now();
      try {
        const answer = await get(target.base, target.path(term), target.headers);
        if (answer.status !== 200 || !answer.body.startsWith('{"code":1,')) {
          errors += 1;
          firstError ??= `HTTP ${answer.status}: ${answer.body.slice(0, 200)}`;
        } else {
          latencies.push(performance.now() - begun);
        }
      } catch (error) {
        errors += 1;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, index) => worker(index)));
  return { requests: latencies.length, errors, seconds: (performance.now() - started) / 1000, latencies, firstError };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  rounds: number[];
}

class Tally {
  private requests = 0;
  private seconds = 0;
  private latencies: number[] = [];
  readonly rounds: number[] = [];

  constructor(readonly target: Target) {}

  add(result: RunResult): void {
    if (result.errors > 0) throw new Error(`${this.target.name}: ${result.errors} failed requests, first: ${result.firstError}`);
    this.requests += result.requests;
    this.seconds += result.seconds;
    this.latencies = this.latencies.concat(result.latencies);
    this.rounds.push(result.requests / result.seconds);
  }

  figures(): Figures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return { rps: this.requests / this.seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), requests: this.requests, rounds: this.rounds };
  }

  print(): Figures {
    const figures = this.figures();
    const rounds = figures.rounds.map((rps) => rps.toFixed(1)).join(', ');
    console.log(
      `${this.target.name.padEnd(9)} ${figures.rps.toFixed(1).padStart(8)} req/s   p50 ${figures.p50.toFixed(2).padStart(7)} ms   p99 ${figures.p99.toFixed(2).padStart(7)} ms   (${figures.requests} requests in ${this.seconds.toFixed(1)} s; rounds: ${rounds} req/s)`,
    );
    return figures;
  }
}

interface ListAnswer {
  code: number;
  msg: string;
  data: { list: { id: number; title: string }[]; total: number; remark: string };
}

async function fetchList(target: Target, term: string): Promise<ListAnswer> {
  const answer = await get(target.base, target.path(term), target.headers);
  const parsed = JSON.parse(answer.body) as ListAnswer;
  if (answer.status !== 200 || parsed.code !== 1) throw new Error(`${target.name} ${term}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  return parsed;
}

/** Sequential requests with the child's SQL trace on: statements per request and time in SQLite. */
async function traceRequests(child: Child, target: Target): Promise<{ entries: TraceEntry[]; roundTripMs: number }> {
  child.request({ type: 'trace-start' });
  await child.next('tracing');
  const started = performance.now();
  for (let i = 0; i < TRACE_REQUESTS; i += 1) await fetchList(target, TERMS[i % TERMS.length]);
  const roundTripMs = (performance.now() - started) / TRACE_REQUESTS;
  child.request({ type: 'trace-stop' });
  const { entries } = (await child.next('trace')) as Extract<ChildMessage, { type: 'trace' }>;
  return { entries, roundTripMs };
}

function printTrace(name: string, trace: { entries: TraceEntry[]; roundTripMs: number }, details: boolean): void {
  const sqlMs = trace.entries.reduce((sum, entry) => sum + entry.ms, 0) / TRACE_REQUESTS;
  const statements = trace.entries.reduce((sum, entry) => sum + entry.calls, 0) / TRACE_REQUESTS;
  console.log(
    `# ${name} per request (${TRACE_REQUESTS} sequential requests): ${statements.toFixed(1)} SQL statements, ${sqlMs.toFixed(2)} ms in SQLite, ${trace.roundTripMs.toFixed(2)} ms round trip`,
  );
  if (!details) return;
  for (const entry of [...trace.entries].sort((a, b) => b.ms - a.ms)) {
    console.log(`#   ${(entry.calls / TRACE_REQUESTS).toFixed(2).padStart(5)}× ${(entry.ms / TRACE_REQUESTS).toFixed(3).padStart(7)} ms  ${entry.sql.replace(/\s+/g, ' ').slice(0, 150)}`);
  }
}

const normaliseSql = (text: string) => text.replace(/\s+/g, ' ').replace(/[()]/g, '').trim().toLowerCase();

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'chidao-bench-'));
  const children: Child[] = [];
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  process.once('SIGINT', () => {
    for (const child of children) child.process.kill('SIGKILL');
    cleanup();
    process.exit(130);
  });
  try {
    const schemasDir = join(tmp, 'schemas');
    mkdirSync(join(schemasDir, 'system'), { recursive: true });
    mkdirSync(join(schemasDir, 'bench'), { recursive: true });
    for (const name of readdirSync(join(PROJECT_ROOT, 'schemas/system')).filter((file) => file.endsWith('.json'))) {
      copyFileSync(join(PROJECT_ROOT, 'schemas/system', name), join(schemasDir, 'system', name));
    }
    writeFileSync(join(schemasDir, 'bench/item.json'), `${JSON.stringify(ITEM_SCHEMA, null, 2)}\n`);
    const dbFile = join(tmp, 'bench.db');

    const cpuList = cpus();
    const roundSeconds = SECONDS / ROUNDS;
    console.log('# bench:api — GET admin bench.Item/index (page 1, limit 10, order id desc, quickSearch on title)');
    console.log(`# machine: ${availableParallelism()} cores (${cpuList[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, SQLite file in ${tmpdir()}`);
    console.log('# setup: each server in its own child process (single-threaded: better-sqlite3 is synchronous); the load generator runs in');
    console.log(
      `#   the parent process: closed loop, ${CONNECTIONS} keep-alive connections; ${WARMUP_MS / 1000} s warm-up each, then ${ROUNDS} alternating rounds of ${roundSeconds} s`,
    );
    console.log('#   per server (only one server under load at a time; the other idles). Servers and load generator share the cores.');
    console.log(`# quickSearch terms, in rotation: ${TERMS.map((term) => JSON.stringify(term)).join(', ')}`);

    // Our server first: it migrates the database (creates bench_item) and seeds the admin.
    const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
    const ours = await startChild(['--serve-ours', schemasDir, dbFile], profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    children.push(ours);
    const insertMs = insertRows(dbFile);
    console.log(`# inserted ${ROWS} rows into ${TABLE} in ${(insertMs / 1000).toFixed(2)} s (one transaction, better-sqlite3 prepared statement)`);
    const baseline = await startChild(['--serve-baseline', dbFile]);
    children.push(baseline);

    const login = await postJson(ours.url, `${ours.entrance}.php/Index/login`, { username: 'admin', password: ADMIN_PASSWORD, keep: false });
    const token = (JSON.parse(login.body) as { code: number; data?: { userInfo?: { token?: string } } }).data?.userInfo?.token;
    if (!token) throw new Error(`admin login failed: ${login.body.slice(0, 300)}`);

    const query = (term: string) => `?page=1&limit=10&order=id,desc&quickSearch=${encodeURIComponent(term)}`;
    const oursTarget: Target = {
      name: 'ours',
      base: ours.url,
      path: (term) => `${ours.entrance}.php/bench.Item/index${query(term)}`,
      headers: { batoken: token, 'think-lang': 'en', server: 'true' },
    };
    const baselineTarget: Target = { name: 'baseline', base: baseline.url, path: (term) => `/bench/index${query(term)}`, headers: {} };

    // Same answers from both.
    const totals: string[] = [];
    for (const term of TERMS) {
      const mine = await fetchList(baselineTarget, term);
      const theirs = await fetchList(oursTarget, term);
      const ids = (answer: ListAnswer) => answer.data.list.map((row) => row.id).join(',');
      if (mine.data.total !== theirs.data.total || ids(mine) !== ids(theirs)) {
        throw new Error(`baseline and our server disagree for "${term}": total ${mine.data.total} vs ${theirs.data.total}, ids ${ids(mine)} vs ${ids(theirs)}`);
      }
      totals.push(`${JSON.stringify(term)} → ${theirs.data.total}`);
    }
    console.log(`# both servers answer the same rows; matching rows per term: ${totals.join(', ')}`);

    // What one request costs inside each server.
    const oursTrace = await traceRequests(ours, oursTarget);
    const baselineTrace = await traceRequests(baseline, baselineTarget);
    printTrace('ours', oursTrace, true);
    printTrace('baseline', baselineTrace, false);
    for (const [name, statement] of [['count', COUNT_SQL], ['page', PAGE_SQL]]) {
      if (!oursTrace.entries.some((entry) => normaliseSql(entry.sql) === normaliseSql(statement))) {
        console.log(`# warning: the baseline's ${name} statement is not among our server's statements: ${statement}`);
      }
    }
    console.log('# baseline does NOT do: token lookup/auth, identity and permission check (admin, groups, rules),');
    console.log('#   config reads, query parsing against the schema, query building (Kysely), row conversion,');
    console.log('#   envelope translation/i18n, admin-rule remark lookup, Fastify routing/hooks/CORS');

    const tallies = [new Tally(oursTarget), new Tally(baselineTarget)];
    for (const tally of tallies) await runLoad(tally.target, WARMUP_MS);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const tally of round % 2 === 0 ? tallies : [...tallies].reverse()) tally.add(await runLoad(tally.target, roundSeconds * 1000));
    }
    const [oursFigures, baselineFigures] = tallies.map((tally) => tally.print());

    await Promise.all(children.map((child) => child.stop()));
    children.length = 0;
    if (profileDir) console.log(`# CPU profile of our server written to ${profileDir}`);
    console.log(`ratio: ${(oursFigures.rps / baselineFigures.rps).toFixed(2)}`);
  } finally {
    agent.destroy();
    for (const child of children) child.process.kill('SIGKILL');
    cleanup();
  }
}


const [mode, ...rest] = process.argv.slice(2);
if (mode === '--serve-ours') {
  await serveOurs(rest[0], rest[1]);
} else if (mode === '--serve-baseline') {
  await serveBaseline(rest[0]);
} else {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
