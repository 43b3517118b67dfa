/**
 * `npx tsx scripts/bench/filter-order.ts` — what the filter × order indexes buy: `status = 1` (and `= 0`)
 * in `weigh desc` order, page 1 of 10, through the product's list in one process (no network, one request
 * at a time), three ways on the same rows. Not a test.
 *   (a) the indexes as derived from the schema, `(status, weigh, id)` among them;
 *   (b) that index dropped behind the planner's back: the list's own statement, which SQLite reads by
 *       the status index and sorts every match for (what every request did before the index was derived;
 *       PostgreSQL's planner walks `(weigh, id)` instead, by its statistics of the column);
 *   (c) twelve more sortable columns declared before `weigh`, so that `status` × `weigh` is past the cap
 *       of derived filter × order indexes (MAX_FILTER_ORDER_INDEXES): the planner counts the matches and
 *       reads the page the cheaper way (walking `(weigh, id)`, here), src/server/resources/list-plan.ts.
 * For each: requests/s, p50, p99 and this process's CPU per request, and the page statement alone (the
 * list's plain `status = ? ORDER BY weigh DESC, id DESC LIMIT 10`, as the database plans it).
 * Rows as scripts/bench/api.ts makes them: status 0 on one row in ten, weigh 0–999.
 *
 * Environment: BENCH_DATABASE (sqlite | postgres), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_ROWS (100000), BENCH_SECONDS (3 per request and way).
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer, type Server } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';
import { seededRandom } from '../../src/server/seeded-random.js';
import { maintenanceStatement } from './bench-database.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const DIALECT = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const TABLE = 'bench_member';
const PASSWORD = 'Bench_pass1';

/** The bench's member schema; `bare` without list settings (the table made before the rows), `capped` with weigh past the cap. */
function memberSchema(options: { bare?: boolean; capped?: boolean } = {}): object {
  const filler = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`s${i + 1}`, { type: ['integer', 'null'], 'x-ui': { sortable: true } }]),
  );
  return {
    $id: 'bench/member',
    title: 'Bench member',
    type: 'object',
    'x-table': TABLE,
    'x-controller': 'bench.Member',
    'x-menu': { title: 'Bench members' },
    ...(options.bare ? {} : { 'x-list': { quickSearch: ['username', 'nickname'], defaultSort: 'create_time,desc' } }),
    required: ['username'],
    properties: {
      id: { type: 'integer', readOnly: true },
      username: { type: 'string', maxLength: 30, title: 'Username' },
      nickname: { type: 'string', maxLength: 50, title: 'Nickname' },
      status: { type: 'string', enum: ['0', '1'], default: '1', ...(options.bare ? {} : { 'x-ui': { search: '=' } }) },
      ...(options.capped ? filler : {}),
      weigh: { type: 'integer', default: 0, 'x-ui': { sortable: true } },
      create_time: { type: ['integer', 'null'], readOnly: true },
      update_time: { type: ['integer', 'null'], readOnly: true },
    },
  };
}

function rowOf(id: number, next: () => number, now: number): (string | number)[] {
  return [
    id,
    `u${String(id).padStart(6, '0')}`,
    `nick ${Math.floor(next() * 1e6)}`,
    next() < 0.1 ? '0' : '1',
    Math.floor(next() * 1000),
    now - Math.floor(next() * 86_400 * 365),
    now,
  ];
}

const COLUMNS = '(id, username, nickname, status, weigh, create_time, update_time)';

async function fill(databaseUrl: string): Promise<void> {
  const next = seededRandom(42);
  const now = Math.floor(Date.now() / 1000);
  if (DIALECT === 'sqlite') {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    const insert = db.prepare(`INSERT INTO ${TABLE} ${COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?)`);
    db.transaction(() => {
      for (let id = 1; id <= ROWS; id += 1) insert.run(...rowOf(id, next, now));
    })();
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let start = 1; start <= ROWS; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, ROWS - start + 1) }, (_, i) => rowOf(start + i, next, now));
      const placeholders = rows
        .map((_, r) => `(${Array.from({ length: 7 }, (__, c) => `$${r * 7 + c + 1}`).join(', ')})`)
        .join(', ');
      await client.query(`INSERT INTO ${TABLE} ${COLUMNS} VALUES ${placeholders}`, rows.flat());
    }
    await client.query(`VACUUM (ANALYZE) ${TABLE}`);
  } finally {
    await client.end();
  }
}

function tokenOf(body: string): string {
  const token: unknown = JSON.parse(body)?.data?.userInfo?.token;
  if (typeof token !== 'string') throw new Error(`admin login failed: ${body.slice(0, 200)}`);
  return token;
}

/** The plain page statement's plan and its median time alone, as the database runs it. */
async function pageStatement(server: Server, value: string, way: string): Promise<string> {
  const page = () => sql`SELECT * FROM ${sql.id(TABLE)} WHERE status = ${value} ORDER BY weigh DESC, id DESC LIMIT 10`;
  const times: number[] = [];
  for (let i = 0; i < 15; i += 1) {
    const started = performance.now();
    await page().execute(server.app.db);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  // The way's name in a comment: the driver's statements are kept by their text, and a kept EXPLAIN is not
  // prepared again after an index is dropped (it reads no table), so it would show the plan from before.
  const note = sql.raw(`/* ${way.slice(0, 3)} */ `);
  const explain =
    DIALECT === 'sqlite'
      ? sql<Record<string, unknown>>`${note}EXPLAIN QUERY PLAN ${page()}`
      : sql<Record<string, unknown>>`${note}EXPLAIN ${page()}`;
  const plan = (await explain.execute(server.app.db)).rows.map((row) => String(Object.values(row).at(-1)).trim());
  return `statement alone ${times[7].toFixed(2)} ms (${plan.filter((line) => !/^(Planning|Execution)/.test(line)).join(' | ')})`;
}

async function measure(server: Server, way: string): Promise<void> {
  const entrance = server.app.settings.adminEntrance;
  const login = await server.http.inject({
    method: 'POST',
    url: `${entrance}.php/Index/login`,
    headers: { 'content-type': 'application/json', 'think-lang': 'en', server: 'true' },
    payload: { username: 'admin', password: PASSWORD, keep: false },
  });
  const headers = { batoken: tokenOf(login.body), 'think-lang': 'en', server: 'true' };
  for (const value of ['1', '0']) {
    const url = `${entrance}.php/bench.Member/index?page=1&limit=10&order=weigh,desc&${encodeURI(`search[0][field]=status&search[0][operator]=eq&search[0][val]=${value}`)}`;
    const once = async (): Promise<number> => {
      const started = performance.now();
      const answer = await server.http.inject({ method: 'GET', url, headers });
      if (answer.statusCode !== 200 || !answer.body.startsWith('{"code":1,'))
        throw new Error(`${way}: ${answer.body.slice(0, 200)}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i += 1) await once();
    const times: number[] = [];
    const cpu = process.cpuUsage();
    const began = performance.now();
    while (performance.now() - began < SECONDS * 1000) times.push(await once());
    const used = process.cpuUsage(cpu);
    times.sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))].toFixed(2);
    const perRequest = (used.user + used.system) / times.length;
    console.log(
      `${way}, status = ${value}: ${(times.length / SECONDS).toFixed(0)} req/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, CPU ${perRequest.toFixed(0)} µs/request; ${await pageStatement(server, value, way)}`,
    );
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'chidao-filter-order-'));
  const database = `bench_filter_order_${process.pid}`;
  const schemasDir = join(tmp, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemasDir, { recursive: true });
  mkdirSync(join(schemasDir, 'bench'));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  const databaseUrl = DIALECT === 'postgres' ? url.toString() : `sqlite:${join(tmp, 'bench.db')}`;
  const start = (schema: object) => {
    writeFileSync(join(schemasDir, 'bench/member.json'), JSON.stringify(schema));
    const env = {
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_LOGIN_CAPTCHA: 'false',
      USER_LOGIN_CAPTCHA: 'false',
      API_GET_RATE_LIMIT: String(Number.MAX_SAFE_INTEGER),
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
    };
    return createServer(settingsFromEnv(env, PROJECT_ROOT), { schemasDir });
  };
  try {
    if (DIALECT === 'postgres') await maintenanceStatement(`CREATE DATABASE ${database}`);
    console.log(
      `# filter × order on ${DIALECT}, ${ROWS} rows: GET bench.Member/index, page 1 of 10, order weigh desc, one request at a time in-process`,
    );
    let server = await start(memberSchema({ bare: true }));
    await server.close();
    await fill(databaseUrl);
    server = await start(memberSchema());
    await measure(server, '(a) derived (status, weigh, id)');
    const index = server.app.resources
      .get('bench/member')
      ?.indexes.find((item) => item.columns.join(',') === 'status,weigh,id');
    if (!index) throw new Error('no (status, weigh, id) index derived');
    await sql`DROP INDEX ${sql.id(`idx_${TABLE}_status_weigh_id`)}`.execute(server.app.db);
    if (DIALECT === 'postgres') await sql`ANALYZE ${sql.id(TABLE)}`.execute(server.app.db);
    await measure(server, "(b) that index dropped, the list's own statement");
    await server.close();
    server = await start(memberSchema({ capped: true }));
    await measure(server, '(c) past the cap, counted then read the cheaper way');
    await server.close();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    if (DIALECT === 'postgres') await maintenanceStatement(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

await main();
