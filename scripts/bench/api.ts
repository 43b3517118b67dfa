/**
 * `npm run bench:api` — our admin list against the best a bare server can do on the same rows. Not a test.
 *
 * Data: a `bench/member` schema resource (username, nickname, status, weigh, create_time; quick search
 * over username and nickname; default order `create_time desc`; `status` filtered with `=`, `weigh`
 * sortable) with BENCH_ROWS (100,000) rows.
 *   - ours: `createServer` from src/server/boot.ts (auth, permissions, throttle, schema, Kysely, envelope),
 *     its indexes and text indexes derived from the schema as at any start-up;
 *   - bare: `node:http` with better-sqlite3 (or `pg` on PostgreSQL) on its own copy of the rows, with the
 *     indexes a person would write by hand for these requests (a b-tree per order, one per filter × order,
 *     and a text index for the substring search: SQLite an FTS5 trigram table, PostgreSQL pg_trgm GIN
 *     indexes). It answers the same JSON envelope, the same rows and exact totals, and looks the request's
 *     token up in a table of its own (what every real API pays), nothing more;
 *   - with `-- --peer directus`: Directus on its own copy of the rows (scripts/bench/peer-directus.ts).
 * Each server runs in its own child process (ours with the Node options of `npm start`). One load generator,
 * autocannon (in this process), keeps BENCH_CONNECTIONS (10) keep-alive connections busy on one server at
 * a time, in alternating rounds; the same run of autocannon is what a person gets from its command line.
 *
 * Prints, per request and server: requests/s, p50, p99 (autocannon's), the server process's CPU time per
 * request (user + system from /proc over the run / requests answered: less swayed than requests/s by the
 * load generator sharing the machine; on PostgreSQL the database's own processes are not in it), the ratios
 * ours / bare of requests/s and of bare CPU / our CPU (1 is as fast as the bare server, 0.5 half as fast),
 * and the machine's load average when each figure was taken; last `ratio: X` (the worst requests/s ratio).
 *
 * Arguments (after `--`): `--peer directus`, `--million` (one more run on 1,000,000 rows).
 * Environment: BENCH_DATABASE (sqlite | postgres | both, default both), BENCH_POSTGRES_URL
 * (postgres://postgres@127.0.0.1:5432/postgres), BENCH_ROWS (100000), BENCH_CONNECTIONS (10), BENCH_SECONDS
 * (4 per request and server), BENCH_ROUNDS (2), BENCH_RUNS (1), BENCH_MILLION=1 (as `--million`),
 * BENCH_CPU_PROF=<dir> (V8 CPU profiles of our server's process and, in <dir>/bare, the bare server's, for DevTools or speedscope),
 * BENCH_ONLY=<text> (only the requests whose name contains it, e.g. `page 1` while profiling).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import http from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/server/seeded-random.js';
import { maintenanceStatement } from './bench-database.js';
import { startPeer, type Peer } from './peer-directus.js';
import { cpuMicrosOf } from './process-cpu.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const SELF = fileURLToPath(import.meta.url);

type Dialect = 'sqlite' | 'postgres';
const DIALECTS: Dialect[] = process.env.BENCH_DATABASE === 'postgres' ? ['postgres'] : process.env.BENCH_DATABASE === 'sqlite' ? ['sqlite'] : ['sqlite', 'postgres'];
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** Side-by-side runs whose median is printed (the machine's noise is about ±10 %). */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
/** BENCH_MILLION=1: one more run on a million rows, compared with the runs above. */
const MILLION = process.env.BENCH_MILLION === '1';
const MILLION_ROWS = 1_000_000;
const MILLION_GOAL = 1.5;
/** Our server answers at least this many lists per run before its memory is read. */
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 0);
const RSS_GOAL_MB = 150;
const WARMUP_MS = 1_000;
const ADMIN_PASSWORD = 'Bench_pass1';
const TABLE = 'bench_member';
/** Ten words, one per nickname: each common term matches a tenth of the rows. */
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fable', 'grove', 'haven', 'ivory', 'jasper'];

const MEMBER_SCHEMA = {
  $id: 'bench/member',
  title: 'Bench member',
  type: 'object',
  'x-table': TABLE,
  'x-controller': 'bench.Member',
  'x-menu': { title: 'Bench members' },
  // `weigh` is a column the admin may sort by, not the list's weigh order: its filter × order index is the one
  // derived for `status` × each sortable column (docs/schemas.md, "Indexes come from the schema").
  'x-list': { quickSearch: ['username', 'nickname'], defaultSort: 'create_time,desc' },
  required: ['username'],
  properties: {
    id: { type: 'integer', readOnly: true },
    username: { type: 'string', maxLength: 30, title: 'Username' },
    nickname: { type: 'string', maxLength: 50, title: 'Nickname' },
    status: { type: 'string', enum: ['0', '1'], default: '1', 'x-ui': { search: '=' } },
    weigh: { type: 'integer', default: 0, 'x-ui': { sortable: true } },
    create_time: { type: ['integer', 'null'], readOnly: true },
    update_time: { type: ['integer', 'null'], readOnly: true },
  },
};

/** Directus's list: 10 rows in the same order, with its exact count of the matches (`meta=filter_count`). */
const DIRECTUS_PAGE = 'limit=10&sort=-create_time,-id&meta=filter_count';
/** Directus's equivalent of the quick search: either column contains the term, case-insensitively. */
const directusSearch = (term: string) => encodeURI(`filter[_or][0][username][_icontains]=${term}&filter[_or][1][nickname][_icontains]=${term}`);
const searchStatus = (value: string) => encodeURI(`search[0][field]=status&search[0][operator]=eq&search[0][val]=${value}`);

/**
 * The measured list requests, as query strings of `index` (a remote select asks the same list with
 * `select=true`): the pages, the quick searches, and every filter × order the schema declares (`status =`
 * with the default order and with `weigh`), for both of the status's values (one row in ten has 0); `directus`:
 * the same request in Directus's query language, for `--peer directus`.
 */
const ALL_REQUESTS = [
  { name: 'page 1, default order', query: 'page=1&limit=10', directus: `page=1&${DIRECTUS_PAGE}` },
  { name: 'page 500', query: 'page=500&limit=10', directus: `page=500&${DIRECTUS_PAGE}` },
  { name: 'quickSearch, common word (10,000 hits)', query: 'page=1&limit=10&quickSearch=cedar', directus: `page=1&${DIRECTUS_PAGE}&${directusSearch('cedar')}` },
  { name: 'quickSearch, rare value (1,000 hits)', query: 'page=1&limit=10&quickSearch=u042', directus: `page=1&${DIRECTUS_PAGE}&${directusSearch('u042')}` },
  { name: 'remote select, quickSearch (select=true)', query: 'select=true&page=1&limit=10&quickSearch=u0421', directus: `page=1&${DIRECTUS_PAGE}&fields=id,username&${directusSearch('u0421')}` },
  { name: 'search[] status = 0, default order', query: `page=1&limit=10&${searchStatus('0')}`, directus: `page=1&${DIRECTUS_PAGE}&filter[status][_eq]=0` },
  { name: 'search[] status = 1, default order', query: `page=1&limit=10&${searchStatus('1')}`, directus: `page=1&${DIRECTUS_PAGE}&filter[status][_eq]=1` },
  { name: 'search[] status = 0, order weigh desc', query: `page=1&limit=10&order=weigh,desc&${searchStatus('0')}`, directus: `page=1&${DIRECTUS_PAGE.replace('-create_time', '-weigh')}&filter[status][_eq]=0` },
  { name: 'search[] status = 1, order weigh desc', query: `page=1&limit=10&order=weigh,desc&${searchStatus('1')}`, directus: `page=1&${DIRECTUS_PAGE.replace('-create_time', '-weigh')}&filter[status][_eq]=1` },
] as const;
const REQUESTS = ALL_REQUESTS.filter((request) => request.name.includes(process.env.BENCH_ONLY ?? ''));

/** Row `id`: username `u000123`, a nickname with one of the words, status 0 for one row in ten. */
function rowOf(id: number, next: () => number, now: number): [number, string, string, string, number, number, number] {
  const word = WORDS[id % WORDS.length];
  return [id, `u${String(id).padStart(6, '0')}`, `${word} ${Math.floor(next() * 1e6)}`, next() < 0.1 ? '0' : '1', Math.floor(next() * 1000), now - Math.floor(next() * 86_400 * 365), now];
}

// ---------------------------------------------------------------------------------------------------
// The baseline: what each request needs, written by hand

interface Query {
  page: number;
  limit: number;
  quickSearch: string;
  status?: string;
  byWeigh: boolean;
}

function parse(url: URL): Query {
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10));
  return { page, limit, quickSearch: url.searchParams.get('quickSearch') ?? '', status: url.searchParams.get('search[0][val]') ?? undefined, byWeigh: url.searchParams.get('order') === 'weigh,desc' };
}

/** The one token the bare server accepts, in a table of its own, looked up at every request. */
const BARE_TOKEN = 'bench-bare-token-0123456789abcdef';
const TOKEN_TABLE = 'bench_token';

/** Answers `{list, total}` for a query, or undefined when the token is not a live one; the bare server's whole job. */
type Answerer = (token: string, query: Query) => Promise<{ list: unknown[]; total: number } | undefined>;

function sqliteBaseline(file: string): Answerer {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const order = (byWeigh: boolean) => `ORDER BY ${byWeigh ? 'weigh DESC' : 'create_time DESC'}, id DESC LIMIT ? OFFSET ?`;
  const statements = {
    token: db.prepare(`SELECT admin_id FROM ${TOKEN_TABLE} WHERE token = ? AND expire_time > ?`),
    count: db.prepare(`SELECT count(*) AS total FROM ${TABLE}`),
    page: [false, true].map((byWeigh) => db.prepare(`SELECT * FROM ${TABLE} ${order(byWeigh)}`)),
    searchCount: db.prepare(`SELECT count(*) AS total FROM ${TABLE}_fts WHERE ${TABLE}_fts MATCH ?`),
    searchPage: db.prepare(`SELECT * FROM ${TABLE} WHERE id IN (SELECT rowid FROM ${TABLE}_fts WHERE ${TABLE}_fts MATCH ?) ${order(false)}`),
    statusCount: db.prepare(`SELECT count(*) AS total FROM ${TABLE} WHERE status = ?`),
    statusPage: [false, true].map((byWeigh) => db.prepare(`SELECT * FROM ${TABLE} WHERE status = ? ${order(byWeigh)}`)),
  };
  return async (token, { page, limit, quickSearch, status, byWeigh }) => {
    if (!statements.token.get(token, Math.floor(Date.now() / 1000))) return undefined;
    const offset = (page - 1) * limit;
    if (quickSearch) {
      const phrase = `"${quickSearch.replace(/"/g, '""')}"`;
      return { total: (statements.searchCount.get(phrase) as { total: number }).total, list: statements.searchPage.all(phrase, limit, offset) };
    }
    if (status !== undefined) return { total: (statements.statusCount.get(status) as { total: number }).total, list: statements.statusPage[Number(byWeigh)].all(status, limit, offset) };
    return { total: (statements.count.get() as { total: number }).total, list: statements.page[Number(byWeigh)].all(limit, offset) };
  };
}

function postgresBaseline(url: string): Answerer {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  const order = (byWeigh: boolean, first: number) => `ORDER BY ${byWeigh ? 'weigh DESC' : 'create_time DESC'}, id DESC LIMIT $${first} OFFSET $${first + 1}`;
  const total = async (text: string, values: unknown[]) => Number((await pool.query<{ total: string }>(text, values)).rows[0].total);
  return async (token, { page, limit, quickSearch, status, byWeigh }) => {
    // A named statement: parsed and planned once per connection, as our server runs its token query.
    const live = await pool.query({ name: 'bench_token', text: `SELECT admin_id FROM ${TOKEN_TABLE} WHERE token = $1 AND expire_time > $2`, values: [token, Math.floor(Date.now() / 1000)] });
    if (live.rows.length === 0) return undefined;
    const offset = (page - 1) * limit;
    if (quickSearch) {
      const pattern = `%${quickSearch.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const where = 'WHERE username ILIKE $1 OR nickname ILIKE $1';
      const [count, rows] = await Promise.all([total(`SELECT count(*) AS total FROM ${TABLE} ${where}`, [pattern]), pool.query(`SELECT * FROM ${TABLE} ${where} ${order(false, 2)}`, [pattern, limit, offset])]);
      return { total: count, list: rows.rows };
    }
    if (status !== undefined) {
      const [count, rows] = await Promise.all([total(`SELECT count(*) AS total FROM ${TABLE} WHERE status = $1`, [status]), pool.query(`SELECT * FROM ${TABLE} WHERE status = $1 ${order(byWeigh, 2)}`, [status, limit, offset])]);
      return { total: count, list: rows.rows };
    }
    const [count, rows] = await Promise.all([total(`SELECT count(*) AS total FROM ${TABLE}`, []), pool.query(`SELECT * FROM ${TABLE} ${order(byWeigh, 1)}`, [limit, offset])]);
    return { total: count, list: rows.rows };
  };
}

async function serveBaseline(dialect: Dialect, target: string): Promise<void> {
  const answer = dialect === 'postgres' ? postgresBaseline(target) : sqliteBaseline(target);
  const send = (response: http.ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  const server = http.createServer((request, response) => {
    const token = request.headers.batoken;
    answer(typeof token === 'string' ? token : '', parse(new URL(request.url ?? '/', 'http://localhost'))).then(
      (data) => {
        const time = Math.floor(Date.now() / 1000);
        if (!data) send(response, 401, JSON.stringify({ code: 401, msg: 'Token expiration', time, data: null }));
        else send(response, 200, JSON.stringify({ code: 1, msg: '', time, data: { ...data, remark: '' } }));
      },
      (error: unknown) => send(response, 500, JSON.stringify({ code: 0, msg: String(error), time: Math.floor(Date.now() / 1000), data: null })),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('baseline: no address');
  process.on('message', (message: { type: string }) => {
    if (message.type === 'shutdown') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${address.port}`, entrance: '' });
}

// ---------------------------------------------------------------------------------------------------
// Our server

async function serveOurs(schemasDir: string, databaseUrl: string): Promise<void> {
  const { createServer } = await import('../../src/server/boot.js');
  const { settingsFromEnv } = await import('../../src/server/settings.js');
  const settings = settingsFromEnv(
    // The GET throttle still counts every request, but with a limit no run reaches.
    { ADMIN_PASSWORD, ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: String(Number.MAX_SAFE_INTEGER), DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0' },
    PROJECT_ROOT,
  );
  const server = await createServer(settings, { schemasDir });
  const address = await server.http.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'shutdown') void server.close().finally(() => process.exit(0));
    if (message.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
  });
  process.send?.({ type: 'ready', url: address.replace(/\/$/, ''), entrance: server.app.settings.adminEntrance });
}

// ---------------------------------------------------------------------------------------------------
// Data

async function fillSqlite(file: string, withBaselineIndexes: boolean, rows: number): Promise<void> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  if (withBaselineIndexes) {
    db.exec(`CREATE TABLE ${TABLE} (id INTEGER PRIMARY KEY, username TEXT, nickname TEXT, status TEXT, weigh INTEGER, create_time INTEGER, update_time INTEGER)`);
  }
  const next = seededRandom(42);
  const now = Math.floor(Date.now() / 1000);
  const insert = db.prepare(`INSERT INTO ${TABLE} (id, username, nickname, status, weigh, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let id = 1; id <= rows; id += 1) insert.run(...rowOf(id, next, now));
  })();
  if (withBaselineIndexes) {
    db.exec(`CREATE INDEX base_order ON ${TABLE} (create_time DESC, id DESC)`);
    db.exec(`CREATE INDEX base_weigh ON ${TABLE} (weigh DESC, id DESC)`);
    db.exec(`CREATE INDEX base_status_order ON ${TABLE} (status, create_time DESC, id DESC)`);
    db.exec(`CREATE INDEX base_status_weigh ON ${TABLE} (status, weigh DESC, id DESC)`);
    db.exec(`CREATE TABLE ${TOKEN_TABLE} (token TEXT PRIMARY KEY, admin_id INTEGER, expire_time INTEGER)`);
    db.prepare(`INSERT INTO ${TOKEN_TABLE} VALUES (?, 1, ?)`).run(BARE_TOKEN, now + 86_400);
    db.exec(`CREATE VIRTUAL TABLE ${TABLE}_fts USING fts5(username, nickname, content='${TABLE}', content_rowid='id', tokenize='trigram')`);
    db.exec(`INSERT INTO ${TABLE}_fts(${TABLE}_fts) VALUES ('rebuild')`);
    db.exec('ANALYZE');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function fillPostgres(url: string, withBaselineIndexes: boolean, total: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (withBaselineIndexes) {
      await client.query(`CREATE TABLE ${TABLE} (id BIGINT PRIMARY KEY, username VARCHAR(30), nickname VARCHAR(50), status VARCHAR(1), weigh BIGINT, create_time BIGINT, update_time BIGINT)`);
    }
    const next = seededRandom(42);
    const now = Math.floor(Date.now() / 1000);
    const BATCH = 1000;
    for (let start = 1; start <= total; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, total - start + 1) }, (_, i) => rowOf(start + i, next, now));
      const values = rows.flat();
      const placeholders = rows.map((_, r) => `(${Array.from({ length: 7 }, (__, c) => `$${r * 7 + c + 1}`).join(', ')})`).join(', ');
      await client.query(`INSERT INTO ${TABLE} (id, username, nickname, status, weigh, create_time, update_time) VALUES ${placeholders}`, values);
    }
    await client.query(`SELECT setval(pg_get_serial_sequence('${TABLE}', 'id'), ${total})`).catch(() => undefined);
    if (withBaselineIndexes) {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await client.query(`CREATE INDEX base_order ON ${TABLE} (create_time DESC, id DESC)`);
      await client.query(`CREATE INDEX base_weigh ON ${TABLE} (weigh DESC, id DESC)`);
      await client.query(`CREATE INDEX base_status_order ON ${TABLE} (status, create_time DESC, id DESC)`);
      await client.query(`CREATE INDEX base_status_weigh ON ${TABLE} (status, weigh DESC, id DESC)`);
      await client.query(`CREATE TABLE ${TOKEN_TABLE} (token VARCHAR(64) PRIMARY KEY, admin_id BIGINT, expire_time BIGINT)`);
      await client.query(`INSERT INTO ${TOKEN_TABLE} VALUES ($1, 1, $2)`, [BARE_TOKEN, now + 86_400]);
      await client.query(`CREATE INDEX base_username_trgm ON ${TABLE} USING gin (username gin_trgm_ops)`);
      await client.query(`CREATE INDEX base_nickname_trgm ON ${TABLE} USING gin (nickname gin_trgm_ops)`);
    }
    // Settled, as a table that has been in use: statistics read and the visibility map written, so that
    // autovacuum does not start on either table in the middle of a measurement.
    await client.query(`VACUUM (ANALYZE) ${TABLE}`);
    if (withBaselineIndexes) await client.query(`VACUUM (ANALYZE) ${TOKEN_TABLE}`);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------------
// Children, load and report

interface Child {
  process: ChildProcess;
  /** The process's CPU time so far, in µs (user and system, from /proc); NaN where /proc is not there. */
  cpuMicros(): number;
  url: string;
  entrance: string;
  stop(): Promise<void>;
}

/** Our server's resident memory, in MB, as its process reports it. */
function rssOf(child: Child): Promise<number> {
  return new Promise((done) => {
    const listen = (message: { type: string; rss?: number }) => {
      if (message.type !== 'rss') return;
      child.process.off('message', listen);
      done(Math.round((message.rss ?? 0) / 1024 / 1024));
    };
    child.process.on('message', listen);
    child.process.send({ type: 'rss' });
  });
}

/** The Node options `npm start` runs the server with (package.json), so that our server here is the product's. */
function startScriptNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

async function startChild(args: string[], nodeOptions: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', SELF, ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ url: string; entrance: string }>((resolveReady, reject) => {
    child.once('message', (message: { type: string; url: string; entrance: string }) => resolveReady(message));
    child.once('exit', (code, signal) => reject(new Error(`server child ${args[0]} exited (${signal ?? code})`)));
  });
  return {
    process: child,
    cpuMicros: () => cpuMicrosOf(child.pid),
    url: ready.url,
    entrance: ready.entrance,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.send({ type: 'shutdown' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS });

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const parsed = new URL(url);
  return new Promise((done, reject) => {
    const request = http.request({ agent, host: parsed.hostname, port: parsed.port, path: `${parsed.pathname}${parsed.search}`, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** A server under load: where each request goes, and how its answer reads as ids and a total. */
export interface Target {
  name: string;
  cpuMicros(): number;
  url(request: BenchRequest): string;
  headers: Record<string, string>;
  /** The answer's row ids and exact total; throws when the answer is a refusal. */
  read(status: number, body: string): { ids: number[]; total: number };
}

export type BenchRequest = (typeof ALL_REQUESTS)[number];

/** The envelope's list (ours and the bare server's). */
function readEnvelope(name: string) {
  return (status: number, body: string) => {
    const parsed = JSON.parse(body) as { code: number; data: { list: { id: number | string }[]; total: number } };
    if (status !== 200 || parsed.code !== 1) throw new Error(`${name}: HTTP ${status} ${body.slice(0, 300)}`);
    return { ids: parsed.data.list.map((row) => Number(row.id)), total: parsed.data.total };
  };
}

async function fetchList(target: Target, request: BenchRequest): Promise<{ ids: number[]; total: number }> {
  const answer = await get(target.url(request), target.headers);
  return target.read(answer.status, answer.body);
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** the server process's CPU time per request, in µs */
  cpu: number;
  requests: number;
  /** the machine's 1-minute load average at the end of the measurement */
  load: number;
}

/**
 * autocannon on one request for `seconds`: the closed loop of BENCH_CONNECTIONS keep-alive connections that
 * `autocannon -c 10 -d <s> <url>` runs. A refusal or an error fails the benchmark (their answers would be cheap).
 */
async function runLoad(target: Target, request: BenchRequest, seconds: number): Promise<{ requests: number; seconds: number; p50: number; p99: number; cpu: number }> {
  const cpuBefore = target.cpuMicros();
  const result = await autocannon({ url: target.url(request), connections: CONNECTIONS, duration: seconds, headers: target.headers });
  const cpu = target.cpuMicros() - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${target.name} ${request.name}: ${result.non2xx} answers other than 2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  // Still a list, not a refusal (a 2xx envelope may carry one): the last answer read as the first did.
  await fetchList(target, request);
  return { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, cpu };
}

/** Each target warmed up, then BENCH_ROUNDS alternating rounds of BENCH_SECONDS in all per target; figures per target. */
async function measure(targets: Target[], request: BenchRequest): Promise<Figures[]> {
  const totals = targets.map(() => ({ requests: 0, seconds: 0, cpu: 0, p50: [] as number[], p99: [] as number[] }));
  for (const target of targets) await runLoad(target, request, WARMUP_MS / 1000);
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = targets.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const result = await runLoad(targets[index], request, SECONDS / ROUNDS);
      const total = totals[index];
      total.cpu += result.cpu;
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.p50.push(result.p50);
      total.p99.push(result.p99);
    }
  }
  const load = loadavg()[0];
  // Percentiles of the rounds' percentiles: the median's median, the worst p99.
  return totals.map((total) => ({ rps: total.requests / total.seconds, p50: median(total.p50), p99: Math.max(...total.p99), cpu: total.cpu / total.requests, requests: total.requests, load }));
}

interface Measured {
  name: string;
  hits: number;
  ours: Figures;
  base: Figures;
  peer?: Figures;
  /** ours / bare requests per second */
  ratio: number;
  /** bare / our CPU per request (1: as little as the bare server, 0.5: twice its CPU) */
  cpuRatio: number;
}

const shown = (figures: Figures) => `${figures.rps.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, CPU ${Number.isNaN(figures.cpu) ? 'n/a' : `${figures.cpu.toFixed(0)} µs`}`;

/** One side-by-side run on `rows` rows: the servers filled, checked to agree, then each request measured. */
async function suite(dialect: Dialect, rows: number, run: string, peerName: string | undefined): Promise<{ measured: Measured[]; rssLoaded: number; rssAfter: number; served: number }> {
  const tmp = mkdtempSync(join(tmpdir(), 'chidao-bench-'));
  const children: Child[] = [];
  let peer: Peer | undefined;
  const stamp = `${process.pid}_${Date.now()}`;
  const databases = { ours: `bench_ours_${stamp}`, base: `bench_base_${stamp}`, peer: `bench_peer_${stamp}` };
  try {
    // The product's schemas (they refer to each other) plus the bench resource.
    const schemasDir = join(tmp, 'schemas');
    cpSync(join(PROJECT_ROOT, 'schemas'), schemasDir, { recursive: true });
    mkdirSync(join(schemasDir, 'bench'), { recursive: true });

    let oursUrl: string;
    let baseTarget: string;
    if (dialect === 'postgres') {
      await maintenanceStatement(`CREATE DATABASE ${databases.ours}`);
      await maintenanceStatement(`CREATE DATABASE ${databases.base}`);
      oursUrl = databaseUrl(databases.ours);
      baseTarget = databaseUrl(databases.base);
    } else {
      oursUrl = `sqlite:${join(tmp, 'ours.db')}`;
      baseTarget = join(tmp, 'base.db');
    }

    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    console.log(`# bench:api — GET admin bench.Member/index on ${dialect}, ${rows} rows (${run}); ${availableParallelism()} cores (${cpu}), Node ${process.version}`);
    console.log(`# load generator: autocannon, ${CONNECTIONS} keep-alive connections, closed loop; per request and server: ${WARMUP_MS / 1000} s warm-up, then ${ROUNDS} alternating rounds, ${SECONDS} s in all`);
    console.log('# bare: node:http on its own copy of the rows, the same envelope, a token looked up per request, hand-written SQL with an index per');
    console.log(`#   order and per filter × order and a text index (${dialect === 'postgres' ? 'pg_trgm GIN' : 'FTS5 trigram'}); ours: the product, indexes derived from the schema`);

    // Our server first, with a bare version of the schema (no list settings): it makes the table and seeds the admin.
    const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
    const bare = { ...MEMBER_SCHEMA, 'x-list': undefined, properties: { ...MEMBER_SCHEMA.properties, status: { type: 'string', enum: ['0', '1'], default: '1' } } };
    writeFileSync(join(schemasDir, 'bench/member.json'), `${JSON.stringify(bare, null, 2)}\n`);
    let ours = await startChild(['--serve-ours', schemasDir, oursUrl], startScriptNodeOptions());
    await ours.stop();
    writeFileSync(join(schemasDir, 'bench/member.json'), `${JSON.stringify(MEMBER_SCHEMA, null, 2)}\n`);
    const filled = performance.now();
    if (dialect === 'postgres') {
      await fillPostgres(oursUrl, false, rows);
      await fillPostgres(baseTarget, true, rows);
    } else {
      await fillSqlite(oursUrl.slice('sqlite:'.length), false, rows);
      await fillSqlite(baseTarget, true, rows);
    }
    console.log(`# inserted ${rows} rows into each database in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
    // Started again with the real schema on the filled table, as after an upgrade: the migration adds the
    // derived indexes and the text indexes to the existing rows.
    const restarted = performance.now();
    ours = await startChild(['--serve-ours', schemasDir, oursUrl], [...startScriptNodeOptions(), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])]);
    children.push(ours);
    console.log(`# our server restarted with the list settings in ${((performance.now() - restarted) / 1000).toFixed(1)} s: derived indexes and text indexes added to ${rows} existing rows`);
    const rssLoaded = await rssOf(ours);
    console.log(`# our server's RSS with ${rows} rows loaded: ${rssLoaded} MB`);
    // Profiled too when ours is, in a folder of its own, to set where each spends its time side by side.
    const baseline = await startChild(['--serve-baseline', dialect, baseTarget], profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'bare')}`] : []);
    children.push(baseline);

    const login = await fetch(new URL(`${ours.entrance}.php/Index/login`, ours.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'think-lang': 'en', server: 'true' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, keep: false }),
    });
    const token = ((await login.json()) as { data?: { userInfo?: { token?: string } } }).data?.userInfo?.token;
    if (!token) throw new Error('admin login failed');
    const targets: Target[] = [
      { name: 'ours', cpuMicros: ours.cpuMicros, url: (request) => `${ours.url}${ours.entrance}.php/bench.Member/index?${request.query}`, headers: { batoken: token, 'think-lang': 'en', server: 'true' }, read: readEnvelope('ours') },
      { name: 'bare', cpuMicros: baseline.cpuMicros, url: (request) => `${baseline.url}/bench/index?${request.query}`, headers: { batoken: BARE_TOKEN }, read: readEnvelope('bare') },
    ];
    if (peerName) {
      peer = await startPeer(peerName, { dialect, rows, dir: tmp, postgresUrl: dialect === 'postgres' ? await createDatabase(databases.peer) : undefined, fill: (url) => (dialect === 'postgres' ? fillPostgres(url, true, rows) : fillSqlite(url, true, rows)) });
      targets.push(peer.target);
    }

    for (const request of REQUESTS) {
      const answers = await Promise.all(targets.map((target) => fetchList(target, request)));
      for (const [index, answer] of answers.entries()) {
        if (answer.total !== answers[0].total || answer.ids.join(',') !== answers[0].ids.join(',')) {
          throw new Error(`${request.name}: ${targets[index].name} disagrees with ours: total ${answer.total} vs ${answers[0].total}, ids ${answer.ids.join(',')} vs ${answers[0].ids.join(',')}`);
        }
      }
    }
    console.log(`# ${targets.map((target) => target.name).join(', ')} answer the same rows and totals for every request\n`);

    const table: string[][] = [['request', 'hits', 'ours', 'bare', 'req/s ratio', 'CPU ratio', ...(peer ? [peer.target.name, `ours / ${peer.target.name} req/s`, `${peer.target.name} / ours CPU`] : []), 'load']];
    const measured: Measured[] = [];
    let served = 0;
    for (const request of REQUESTS) {
      const hits = (await fetchList(targets[0], request)).total;
      const [mine, theirs, peers] = await measure(targets, request);
      served += mine.requests;
      const each: Measured = { name: request.name, hits, ours: mine, base: theirs, peer: peers, ratio: mine.rps / theirs.rps, cpuRatio: theirs.cpu / mine.cpu };
      measured.push(each);
      const peerCells = peers ? [shown(peers), (mine.rps / peers.rps).toFixed(2), (peers.cpu / mine.cpu).toFixed(2)] : [];
      table.push([request.name, String(hits), shown(mine), shown(theirs), each.ratio.toFixed(2), each.cpuRatio.toFixed(2), ...peerCells, mine.load.toFixed(1)]);
      console.log(`#   ${request.name}: ${each.ratio.toFixed(2)} of the bare server's requests/s, ${each.cpuRatio.toFixed(2)} of its CPU per request${peers ? `; ×${(mine.rps / peers.rps).toFixed(2)} ${peer?.target.name}'s requests/s` : ''} (load ${mine.load.toFixed(1)})`);
    }
    console.log('');
    const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
    for (const row of table) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  |  '));
    // The memory a long day leaves: our server kept answering the first page until it had answered MEMORY_REQUESTS lists.
    if (MEMORY_REQUESTS > served) {
      const page1 = REQUESTS[0] ?? ALL_REQUESTS[0];
      while (served < MEMORY_REQUESTS) served += (await runLoad(targets[0], page1, 5)).requests;
    }
    const rssAfter = await rssOf(ours);
    console.log(`# our server's RSS after ${served} list requests on ${rows} rows: ${rssAfter} MB`);
    await Promise.all(children.map((child) => child.stop()));
    children.length = 0;
    if (profileDir) console.log(`# CPU profiles written to ${profileDir} (our server's) and ${join(profileDir, 'bare')} (the bare server's)`);
    return { measured, rssLoaded, rssAfter, served };
  } finally {
    agent.destroy();
    for (const child of children) child.process.kill('SIGKILL');
    await peer?.stop();
    rmSync(tmp, { recursive: true, force: true });
    if (dialect === 'postgres') {
      for (const name of Object.values(databases)) await maintenanceStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    }
  }
}

async function createDatabase(name: string): Promise<string> {
  await maintenanceStatement(`CREATE DATABASE ${name}`);
  return databaseUrl(name);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Per database: BENCH_RUNS side-by-side runs on BENCH_ROWS rows, each printed, then per request the median
 * ratios; with `--million` one more run on 1,000,000 rows, whose p50s are compared with the median p50s of
 * the smaller runs (goal: within MILLION_GOAL times), and the memory of both sizes.
 */
async function main(): Promise<void> {
  const { values: options } = parseArgs({ options: { peer: { type: 'string' }, million: { type: 'boolean', default: MILLION } } });
  let worst = Infinity;
  for (const dialect of DIALECTS) {
    const runs: Awaited<ReturnType<typeof suite>>[] = [];
    for (let run = 1; run <= RUNS; run++) runs.push(await suite(dialect, ROWS, `run ${run} of ${RUNS}`, options.peer));
    const names = runs[0].measured.map((each) => each.name);
    const of = (name: string) => runs.map((result) => result.measured.find((each) => each.name === name) as Measured);
    const medianOf = (name: string, pick: (each: Measured) => number) => median(of(name).map(pick));
    console.log(`\n# median of ${RUNS} side-by-side run(s) on ${ROWS} rows, ${dialect}: ours / bare requests/s (each run's in brackets), bare / our CPU per request`);
    for (const name of names) {
      const ratio = medianOf(name, (each) => each.ratio);
      worst = Math.min(worst, ratio);
      const peerText = options.peer ? `; ×${medianOf(name, (each) => each.ours.rps / (each.peer as Figures).rps).toFixed(2)} ${options.peer}'s requests/s, ×${medianOf(name, (each) => (each.peer as Figures).cpu / each.ours.cpu).toFixed(2)} less CPU` : '';
      console.log(
        `${name.padEnd(48)} ${ratio.toFixed(2)}  [${of(name).map((each) => each.ratio.toFixed(2)).join(', ')}]  CPU ${medianOf(name, (each) => each.cpuRatio).toFixed(2)}  ours p50 ${medianOf(name, (each) => each.ours.p50).toFixed(1)} ms, p99 ${medianOf(name, (each) => each.ours.p99).toFixed(1)} ms, CPU per request ${medianOf(name, (each) => each.ours.cpu).toFixed(0)} µs (bare ${medianOf(name, (each) => each.base.cpu).toFixed(0)} µs)${peerText}  load ${of(name).map((each) => each.ours.load.toFixed(1)).join(', ')}`,
      );
    }
    console.log(`# RSS of our server: ${runs.map((result) => `${result.rssLoaded} MB loaded, ${result.rssAfter} MB after ${result.served} requests`).join('; ')}`);
    if (options.million) {
      const big = await suite(dialect, MILLION_ROWS, 'the 1,000,000-row run', options.peer);
      console.log(`\n# ${MILLION_ROWS} rows against ${ROWS} rows, ${dialect}: our p50 and its growth (goal ≤ ${MILLION_GOAL}×)`);
      for (const each of big.measured) {
        const small = medianOf(each.name, (item) => item.ours.p50);
        const growth = each.ours.p50 / small;
        console.log(`${each.name.padEnd(48)} ${small.toFixed(1)} ms → ${each.ours.p50.toFixed(1)} ms  ×${growth.toFixed(2)} ${growth <= MILLION_GOAL ? 'within' : 'OVER'}  (p99 ${each.ours.p99.toFixed(1)} ms; ratio to bare ${each.ratio.toFixed(2)}, CPU ${each.cpuRatio.toFixed(2)}; load ${each.ours.load.toFixed(1)})`);
      }
      console.log(`# RSS of our server with ${MILLION_ROWS} rows: ${big.rssLoaded} MB loaded, ${big.rssAfter} MB after ${big.served} requests (goal ≤ ${RSS_GOAL_MB} MB: ${Math.max(big.rssLoaded, big.rssAfter) <= RSS_GOAL_MB ? 'within' : 'OVER'})`);
    }
  }
  console.log(`ratio: ${worst.toFixed(2)}`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === '--serve-ours') {
  await serveOurs(rest[0], rest[1]);
} else if (mode === '--serve-baseline') {
  await serveBaseline(rest[0] === 'postgres' ? 'postgres' : 'sqlite', rest[1]);
} else {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
