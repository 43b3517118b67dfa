/**
 * `npx tsx scripts/bench/soak-memory.ts`: whether the server's memory stays flat under a long mixed load.
 * Not a test. Runs the built server (`npm run build` first: dist/server/boot.js) in a child process with the
 * Node options of `npm start`, on a fresh SQLite database (or PostgreSQL with BENCH_DATABASE=postgres) and a
 * copy of schemas/ (the designer writes there), and drives it at a steady, modest rate with what a live
 * panel does:
 *   - the back office adds a member, who logs in, starts a survey and comes back from it (a signed
 *     complete or terminate through the outcome page, or the provider's signed callback), then replays it;
 *   - every fifth member is given money, saves bank details, asks for a payout, which is approved and paid;
 *   - admin list reads (members, attempts, payouts, the admin log) with searches, id lists and pages that vary;
 *   - a designer change (a field added to or dropped from a generated table) every BENCH_SOAK_DESIGN_MINUTES.
 * Every minute it asks the server for `process.memoryUsage()` (RSS as it stands, then the heap after a full
 * collection) and prints a row; at the end a table, the slope (MiB/min) of RSS and heap over the first
 * minutes and over the last 30 (or the last half of a shorter run), and RSS at 10 min against the end.
 *
 * Environment: BENCH_SOAK_MINUTES (60), BENCH_DATABASE (sqlite | postgres), BENCH_POSTGRES_URL
 * (postgres://postgres@127.0.0.1:5432/postgres), BENCH_SOAK_CYCLES (member journeys per second, 2),
 * BENCH_SOAK_DESIGN_MINUTES (5), BENCH_SOAK_SNAPSHOTS=<dir> (heap snapshots of the server after the first
 * minute and at the end, to compare with scripts/bench/heap-diff.ts).
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIALECT as DIALECT, benchDatabase } from './bench-database.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const CYCLES_PER_SECOND = Number(process.env.BENCH_SOAK_CYCLES ?? 2);
const DESIGN_MINUTES = Number(process.env.BENCH_SOAK_DESIGN_MINUTES ?? 5);
const SNAPSHOTS = process.env.BENCH_SOAK_SNAPSHOTS;
const SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_MS ?? 60_000);
const ADMIN_PASSWORD = 'Soak_pass1';
const MEMBER_PASSWORD = 'Member_pass1';
const SECRET = 'soak-provider-secret';
const SURVEYS = 20;
const MIB = 1024 * 1024;

/** The server process: the bundle's createServer, and memory figures or a heap snapshot on request over IPC. */
const CHILD = `
import { createServer } from ${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'dist/server/boot.js')).href)};
import { settingsFromEnv } from ${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'dist/server/settings.js')).href)};
import { writeHeapSnapshot } from 'node:v8';
const server = await createServer(settingsFromEnv(process.env, ${JSON.stringify(PROJECT_ROOT)}), { schemasDir: process.env.SOAK_SCHEMAS });
const address = await server.http.listen({ host: '127.0.0.1', port: 0 });
process.send({ type: 'listening', address });
process.on('message', (message) => {
  if (message.type === 'memory') {
    const before = process.memoryUsage();
    globalThis.gc();
    const after = process.memoryUsage();
    process.send({ type: 'memory', rss: before.rss, rssAfterGc: after.rss, heapUsed: after.heapUsed, heapTotal: after.heapTotal, external: after.external, arrayBuffers: after.arrayBuffers });
  } else if (message.type === 'snapshot') {
    globalThis.gc();
    process.send({ type: 'snapshot', file: writeHeapSnapshot(message.file) });
  } else if (message.type === 'stop') {
    server.close().then(() => process.exit(0));
  }
});
`;

interface Memory {
  rss: number;
  rssAfterGc: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

type Row = Record<string, unknown>;
interface Envelope<T = Row> {
  code: number;
  msg: string;
  data: T;
}

function hmac(text: string): string {
  return createHmac('sha256', SECRET).update(text).digest('hex');
}

function designField(name: string, designType: string, values: Row = {}): Row {
  return {
    title: designType, name, type: 'varchar', dataType: '', length: 255, precision: 0, default: '', defaultType: 'EMPTY STRING', null: false, primaryKey: false,
    unsigned: false, autoIncrement: false, comment: name, designType, table: { render: 'none', operator: 'LIKE', sortable: 'false' }, form: { validator: [], validatorMsg: '' }, ...values,
  };
}

const NOTE_FIELDS = [
  designField('id', 'pk', { type: 'int', length: 10, defaultType: 'NONE', primaryKey: true, unsigned: true, autoIncrement: true, comment: 'ID', formBuildExclude: true, table: { operator: 'RANGE', sortable: 'custom' }, form: {} }),
  designField('title', 'string', { length: 100, comment: 'Title' }),
  designField('create_time', 'timestamp', { type: 'bigint', length: 16, null: true, defaultType: 'NULL', comment: 'Created', formBuildExclude: true, table: { render: 'datetime', operator: 'RANGE', sortable: 'custom' }, form: {} }),
];
const MEMO = designField('memo', 'string', { length: 200, comment: 'Memo' });

function noteTable(fields: Row[], extra: Row): Row {
  return {
    name: 'soak_note', comment: 'Soak notes', quickSearchField: ['id', 'title'], defaultSortField: 'id', defaultSortType: 'desc', formFields: fields.filter((item) => !item.formBuildExclude).map((item) => item.name),
    columnFields: fields.map((item) => item.name), generateRelativePath: '', isCommonModel: 0, modelFile: 'app/admin/model/soak/Note.php', controllerFile: 'app/admin/controller/soak/Note.php',
    validateFile: 'app/admin/validate/soak/Note.php', webViewsDir: 'web/src/views/backend/soak/note', databaseConnection: '', designChange: [], rebuild: 'No', ...extra,
  };
}

async function main(): Promise<void> {
  if (!existsSync(join(PROJECT_ROOT, 'dist/server/boot.js'))) throw new Error('no server build: run `npm run build` first');
  const work = mkdtempSync(join(tmpdir(), 'chidao-soak-'));
  const schemas = join(work, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
  const database = await benchDatabase(work, 'soak');
  const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=4', '--max-old-space-size=512', '--input-type=module', '-e', CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env, DATABASE_URL: database.url, ADMIN_PASSWORD, ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: '0', AUTH_RATE_LIMIT: '0',
      STORAGE_DIR: join(work, 'storage'), SOAK_SCHEMAS: schemas,
    },
  });
  const replies: ((message: Row) => void)[] = [];
  child.on('message', (message: Row) => replies.shift()?.(message));
  const reply = <T>() => new Promise<T>((done) => replies.push(done as (message: Row) => void));
  const ask = <T>(message: Row) => {
    const answer = reply<T>();
    child.send(message);
    return answer;
  };
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const origin = (await reply<{ address: string }>()).address.replace(/\/$/, '');

  const call = async <T = Row>(url: string, init: { body?: unknown; token?: string; userToken?: string; method?: string } = {}): Promise<Envelope<T>> => {
    const headers: Record<string, string> = { 'think-lang': 'en', server: 'true' };
    if (init.token) headers.batoken = init.token;
    if (init.userToken) headers['ba-user-token'] = init.userToken;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${origin}${url}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await response.text();
    try {
      return JSON.parse(text) as Envelope<T>;
    } catch {
      return { code: -1, msg: text.slice(0, 200), data: undefined as T };
    }
  };
  let failures = 0;
  let requests = 0;
  const failed = new Map<string, number>();
  const expectOk = <T>(what: string, answer: Envelope<T>): T => {
    requests++;
    if (answer.code !== 1) {
      failures++;
      const key = `${what}: ${answer.msg}`;
      failed.set(key, (failed.get(key) ?? 0) + 1);
    }
    return answer.data;
  };
  const entrance = '/chidaoadminstator.php';
  const adminToken = (await call<{ userInfo: { token: string } }>(`${entrance}/Index/login`, { body: { username: 'admin', password: ADMIN_PASSWORD } })).data.userInfo.token;
  const admin = <T = Row>(path: string, body?: unknown, method?: string) => call<T>(`${entrance}/${path}`, { token: adminToken, body, method });
  // A second administrator marks payouts paid: the one who approved one may not.
  expectOk('cashier', await admin('auth.Admin/add', { username: 'cashier', nickname: 'Cashier', password: ADMIN_PASSWORD, group_arr: [1], status: '1' }));
  const cashierToken = (await call<{ userInfo: { token: string } }>(`${entrance}/Index/login`, { body: { username: 'cashier', password: ADMIN_PASSWORD } })).data.userInfo.token;
  const api = <T = Row>(path: string, userToken: string, body?: unknown) => call<T>(`/api/${path}`, { userToken, body });

  // A provider and surveys to take (each member takes one).
  expectOk('provider', await admin('survey.Provider/add', { code: 'soak', name: 'Soak panel', secret: SECRET }));
  const provider = (await admin<{ list: Row[] }>('survey.Provider/index?quickSearch=soak')).data.list[0];
  for (let index = 0; index < SURVEYS; index++) {
    expectOk('survey', await admin('survey.Survey/add', { provider_id: provider.id, title: `Soak survey ${index}`, entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.50', reward_score: 10, loi_minutes: 1, status: 'active' }));
  }
  const surveyIds = (await admin<{ list: Row[] }>('survey.Survey/index?limit=100&quickSearch=Soak')).data.list.map((row) => Number(row.id));
  expectOk('design', await admin('crud.Crud/generate', { type: 'create', table: noteTable(NOTE_FIELDS, {}), fields: NOTE_FIELDS }));
  let withMemo = false;

  let member = 0;
  const journey = async () => {
    const number = ++member;
    const username = `soak${number}`;
    expectOk('member add', await admin('user.User/add', { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD }));
    const login = await call<{ userInfo: { id: number; token: string } }>('/api/user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    const { id, token } = expectOk('member login', login)?.userInfo ?? { id: 0, token: '' };
    const started = expectOk('start', await api<{ url: string }>('survey/start', token, { id: surveyIds[number % surveyIds.length] }));
    const rid = new URL(started.url).searchParams.get('r') ?? '';
    const page = ['success', 'terminate', 'callback'][number % 3];
    if (page === 'callback') {
      const path = `/api/survey/callback/soak`;
      const unsigned = `rid=${rid}&status=complete`;
      const answer = await fetch(`${origin}${path}?${unsigned}&sig=${hmac(`${path}?${unsigned}`)}`, { headers: { 'think-lang': 'en' } });
      expectOk('callback', (await answer.json()) as Envelope);
    } else {
      const unsigned = `rid=${rid}`;
      const query = `${unsigned}&sig=${hmac(`/${page}?${unsigned}`)}`;
      expectOk('return', await api('survey/outcome', token, { outcome: page, query }));
      expectOk('replay', await api('survey/outcome', token, { outcome: page, query }));
    }
    expectOk('member tasks', await api('survey/tasks', token));
    if (number % 5 === 0) {
      expectOk('gift', await admin('user.MoneyLog/add', { user_id: id, money: 20, memo: 'Soak gift' }));
      expectOk('payment', await api('paymentuser/payment', token, { payment: 'bank', bank: 'Soak Member', bank_name: 'ICBC', bank_address: 'Shanghai', bank_num: '6222 0000 1111 2222' }));
      expectOk('payout', await api('paymentuser/payout', token, { amount: '10.00' }));
      const payouts = expectOk('payouts', await admin<{ list: Row[] }>(`user.Payout/index?quickSearch=${username}`));
      const payout = payouts.list?.[0]?.id;
      if (payout !== undefined) {
        expectOk('approve', await admin('user.Payout/approve', { ids: [payout] }));
        expectOk('pay', await call(`${entrance}/user.Payout/pay`, { token: cashierToken, body: { ids: [payout], reference: `TX${number}` } }));
      }
    }
    // Admin reads: searches, pages, and id lists of varying length (a remote select's chosen values).
    const ids = Array.from({ length: 1 + (number % 40) }, (_, index) => number - index).join(',');
    expectOk('members', await admin(`user.User/index?quickSearch=soak${number % 97}&page=${1 + (number % 7)}&limit=10`));
    expectOk('members by id', await admin(`user.User/index?select=true&${encodeURI(`search[0][field]=id&search[0][operator]=in&search[0][val]=${ids}`)}`));
    expectOk('attempts', await admin(`survey.Participation/index?page=${1 + (number % 5)}&limit=20&order=id,desc`));
    expectOk('admin log', await admin(`auth.AdminLog/index?page=1&limit=10&quickSearch=${number % 13}`));
    if (number % 10 === 0) expectOk('notes', await admin(`soak.Note/index?page=1&limit=10`));
  };

  const designChange = async () => {
    withMemo = !withMemo;
    const fields = withMemo ? [...NOTE_FIELDS, MEMO] : NOTE_FIELDS;
    const table = noteTable(fields, withMemo ? { designChange: [{ type: 'add-field', index: fields.length - 1, oldName: '', newName: 'memo', sync: true }] } : { rebuild: 'Yes' });
    expectOk('design change', await admin('crud.Crud/generate', { type: 'log', table, fields }));
  };

  const started = Date.now();
  const end = started + MINUTES * 60_000;
  const samples: (Memory & { minute: number; members: number })[] = [];
  const sample = async () => {
    const memory = await ask<Memory>({ type: 'memory' });
    const row = { ...memory, minute: (Date.now() - started) / 60_000, members: member };
    samples.push(row);
    console.log(`${row.minute.toFixed(1).padStart(6)} min  rss ${(row.rss / MIB).toFixed(1).padStart(7)}  rss after gc ${(row.rssAfterGc / MIB).toFixed(1).padStart(7)}  heap ${(row.heapUsed / MIB).toFixed(1).padStart(6)}/${(row.heapTotal / MIB).toFixed(1).padStart(6)}  external ${(row.external / MIB).toFixed(1).padStart(6)}  members ${row.members}  requests ${requests}  failed ${failures}`);
  };
  console.log(`soak on ${DIALECT} for ${MINUTES} min, ${CYCLES_PER_SECOND} member journeys/s, a designer change every ${DESIGN_MINUTES} min`);
  await sample();
  let snapshotTaken = false;
  let nextSample = started + SAMPLE_MS;
  let nextDesign = started + DESIGN_MINUTES * 60_000;
  const interval = 1000 / CYCLES_PER_SECOND;
  let nextJourney = Date.now();
  const running = new Set<Promise<void>>();
  while (Date.now() < end) {
    const now = Date.now();
    if (now >= nextSample) {
      nextSample += SAMPLE_MS;
      await Promise.all(running);
      await sample();
      if (SNAPSHOTS && !snapshotTaken) {
        mkdirSync(SNAPSHOTS, { recursive: true });
        console.log(`  heap snapshot: ${(await ask<{ file: string }>({ type: 'snapshot', file: join(resolve(SNAPSHOTS), `soak-${DIALECT}-start.heapsnapshot`) })).file}`);
        snapshotTaken = true;
      }
    }
    if (now >= nextDesign) {
      nextDesign += DESIGN_MINUTES * 60_000;
      await Promise.all(running);
      await designChange();
    }
    // At most four journeys at once: a slow moment (a designer change, a checkpoint) queues, it does not pile up.
    if (running.size < 4) {
      const task = journey().catch((error: unknown) => {
        failures++;
        const key = `journey: ${error instanceof Error ? error.message : String(error)}`;
        failed.set(key, (failed.get(key) ?? 0) + 1);
      });
      running.add(task);
      void task.finally(() => running.delete(task));
    }
    nextJourney += interval;
    await new Promise((done) => setTimeout(done, Math.max(0, nextJourney - Date.now())));
  }
  await Promise.all(running);
  await sample();
  if (SNAPSHOTS) console.log(`  heap snapshot: ${(await ask<{ file: string }>({ type: 'snapshot', file: join(resolve(SNAPSHOTS), `soak-${DIALECT}-end.heapsnapshot`) })).file}`);
  child.send({ type: 'stop' });
  await exited;
  await database.drop();
  rmSync(work, { recursive: true, force: true });

  console.log(`\n| minute | RSS MiB | RSS after GC MiB | heap used MiB | external MiB |\n|---:|---:|---:|---:|---:|`);
  for (const row of samples) console.log(`| ${row.minute.toFixed(0)} | ${(row.rss / MIB).toFixed(1)} | ${(row.rssAfterGc / MIB).toFixed(1)} | ${(row.heapUsed / MIB).toFixed(1)} | ${(row.external / MIB).toFixed(1)} |`);
  // Least-squares slope, MiB per minute, of the samples between two minutes.
  const slope = (from: number, to: number, pick: (row: Memory) => number) => {
    const points = samples.filter((row) => row.minute >= from - 0.01 && row.minute <= to + 0.01);
    if (points.length < 2) return NaN;
    const meanX = points.reduce((sum, row) => sum + row.minute, 0) / points.length;
    const meanY = points.reduce((sum, row) => sum + pick(row), 0) / points.length;
    const top = points.reduce((sum, row) => sum + (row.minute - meanX) * (pick(row) - meanY), 0);
    const bottom = points.reduce((sum, row) => sum + (row.minute - meanX) ** 2, 0);
    return top / bottom / MIB;
  };
  const last = samples[samples.length - 1].minute;
  const tail = last >= 40 ? last - 30 : last / 2;
  const head = Math.min(10, last / 2);
  const show = (name: string, pick: (row: Memory) => number) =>
    console.log(`${name}: ${slope(0, head, pick).toFixed(2)} MiB/min over minutes 0–${head.toFixed(0)}, ${slope(tail, last, pick).toFixed(2)} MiB/min over minutes ${tail.toFixed(0)}–${last.toFixed(0)}`);
  show('RSS slope', (row) => row.rss);
  show('heap slope', (row) => row.heapUsed);
  const at = (minute: number) => samples.reduce((best, row) => (Math.abs(row.minute - minute) < Math.abs(best.minute - minute) ? row : best));
  if (last >= 10) console.log(`RSS at 10 min ${(at(10).rss / MIB).toFixed(1)} MiB, at ${last.toFixed(0)} min ${(at(last).rss / MIB).toFixed(1)} MiB; heap ${(at(10).heapUsed / MIB).toFixed(1)} → ${(at(last).heapUsed / MIB).toFixed(1)} MiB`);
  console.log(`${member} member journeys, ${requests} checked answers, ${failures} failed`);
  for (const [what, count] of [...failed.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${count}× ${what}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
