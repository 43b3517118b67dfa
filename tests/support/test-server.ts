import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Envelope } from '../../src/contract/envelope.js';
import { stringifyQuery } from '../../src/contract/query-string.js';
import type { RequestLogStream } from '../../src/server/app.js';
import type * as BootModule from '../../src/server/boot.js';
import type { Server } from '../../src/server/boot.js';
import type * as SettingsModule from '../../src/server/settings.js';
import type * as DemoDataModule from '../../src/server/demo-data.js';
import type { SmsDriver } from '../../src/server/sms/sms-message.js';
import type { JobDefinition } from '../../src/server/app-context.js';
import { TEST_SERVER_BUNDLE } from './build-server.js';

/**
 * A real server on a real database for API tests: SQLite in a temporary file, or a fresh PostgreSQL
 * database created for the suite and dropped afterwards. Listens on 127.0.0.1 on a free port.
 */

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/**
 * A scratch copy of the project's schemas and their locale files, for a server whose registry writes designs or
 * modules: they land there, never in the project. The caller removes the folder (`rmSync(dir, { recursive: true })`).
 */
export function copyProject(prefix = 'chidao-project-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'locales'), join(dir, 'locales'), { recursive: true });
  return dir;
}

/**
 * `TEST_SERVER=bundle` (as `npm test` runs the suite): the servers are made by the server bundle, what
 * `npm start` runs (built into dist/test-server by the node project's global setup), rather than by the
 * sources. Helpers the tests import from src/server directly are still the sources' own.
 */
export const SERVER_FROM_BUNDLE = process.env.TEST_SERVER === 'bundle';
const bundleEntry = (name: string) => pathToFileURL(join(TEST_SERVER_BUNDLE, `${name}.js`)).href;
const { createServer } = (await import(SERVER_FROM_BUNDLE ? bundleEntry('boot') : '../../src/server/boot.js')) as typeof BootModule;
const { settingsFromEnv } = (await import(SERVER_FROM_BUNDLE ? bundleEntry('settings') : '../../src/server/settings.js')) as typeof SettingsModule;
const { addDemoData } = (await import(SERVER_FROM_BUNDLE ? bundleEntry('demo-data') : '../../src/server/demo-data.js')) as typeof DemoDataModule;
const ALL_DATABASES = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof ALL_DATABASES)[number];
/**
 * The databases `describe.each(DATABASES)` suites run on: both, or those `TEST_DATABASES` names
 * (comma-separated; `npm run test:quick` sets `sqlite`). A name that is neither fails the run at once.
 */
export const DATABASES: readonly DatabaseKind[] = (() => {
  const wanted = process.env.TEST_DATABASES?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!wanted?.length) return ALL_DATABASES;
  const unknown = wanted.filter((name) => !(ALL_DATABASES as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`TEST_DATABASES names no test database: ${unknown.join(', ')} (known: ${ALL_DATABASES.join(', ')})`);
  return ALL_DATABASES.filter((kind) => wanted.includes(kind));
})();
export const ADMIN_PASSWORD = 'Admin_pass1';

/** Maintenance connection of the test PostgreSQL (trust auth on 127.0.0.1 by default). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'OPTIONS';
  query?: Record<string, unknown>;
  /** a JSON body, or a raw string sent as-is */
  body?: unknown;
  token?: string;
  userToken?: string;
  lang?: 'zh-cn' | 'en';
  headers?: Record<string, string>;
}

export interface ApiResponse<T = unknown> extends Envelope<T> {
  status: number;
  headers: Headers;
}

export interface TestServer {
  kind: DatabaseKind;
  url: string;
  databaseUrl: string;
  server: Server;
  /**
   * The demo member `npm run demo-data` adds (`user`, 18888888888@qq.com, 18888888888, member #1 of a new
   * database), added by that command's code to every database the harness creates; its password is a
   * random one (tests give it their own). Undefined when the harness added no demo data.
   */
  demoMember?: { id: number; username: string; password: string };
  /** admin API: `auth.Admin/index` → `/chidaoadminstator.php/auth.Admin/index` */
  admin<T = unknown>(path: string, request?: ApiRequest): Promise<ApiResponse<T>>;
  /** member/common API: `user/checkIn` → `/api/user/checkIn` */
  api<T = unknown>(path: string, request?: ApiRequest): Promise<ApiResponse<T>>;
  raw(path: string, init?: RequestInit): Promise<Response>;
  loginAdmin(username?: string, password?: string, keep?: boolean): Promise<{ token: string; refreshToken: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  schemasDir?: string;
  /** serve a built client (browser tests) */
  clientDir?: string;
  env?: Record<string, string>;
  /** reuse an existing database (for restart tests); it gets no demo data unless `demoData` is true */
  databaseUrl?: string;
  /** add the demo data (default: to a database the harness creates only); false: the database stays as a fresh install leaves it */
  demoData?: boolean;
  keepDatabase?: boolean;
  /** where SMS go instead of `SMS_DRIVER`'s driver (an `SmsSink`) */
  sms?: SmsDriver;
  /** turn the request log on (`LOG_REQUESTS=true`), its lines written here */
  requestLog?: RequestLogStream;
  /** background jobs instead of the product's (`jobs/jobs.ts`) */
  jobs?: readonly JobDefinition[];
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A database URL for `kind` and how to remove it afterwards. */
export async function createTestDatabase(kind: DatabaseKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'postgres') return createPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'chidao-test-'));
  return { url: `sqlite:${join(dir, 'app.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startTestServer(kind: DatabaseKind, options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await createTestDatabase(kind);
  const storage = mkdtempSync(join(tmpdir(), 'chidao-storage-'));
  // CONFIG_CACHE_MS=0: settings are read at every use, so a read on the main handle inside a transaction
  // (a deadlock on SQLite's one connection) shows in every test, not only when the cache happens to expire.
  const settings = settingsFromEnv(
    { ADMIN_PASSWORD, ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: '0', AUTH_RATE_LIMIT: '0', CONFIG_CACHE_MS: '0', STORAGE_DIR: storage, ...options.env, DATABASE_URL: database.url, HOST: '127.0.0.1', PORT: '0' },
    PROJECT_ROOT,
  );
  const server = await createServer(settings, { schemasDir: options.schemasDir, clientDir: options.clientDir, logger: options.requestLog, smsDriver: options.sms, jobs: options.jobs });
  // what `npm run demo-data` adds: the suite's member fixtures are the product's demo data, not its seeds
  const demo = (options.demoData ?? !options.databaseUrl) ? await addDemoData(server.app) : undefined;
  if (demo && !demo.member) throw new Error(`the demo data found member #${demo.memberPresent?.id} already there`);
  const address = await server.http.listen({ host: '127.0.0.1', port: 0 });
  const url = address.replace(/\/$/, '');
  const entrance = `${server.app.settings.adminEntrance}.php`;

  const call = async <T>(prefix: string, path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> => {
    const query = request.query ? `?${stringifyQuery(request.query)}` : '';
    const headers: Record<string, string> = { 'think-lang': request.lang ?? 'en', server: 'true', ...request.headers };
    if (request.token) headers.batoken = request.token;
    if (request.userToken) headers['ba-user-token'] = request.userToken;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const method = request.method ?? (request.body !== undefined ? 'POST' : 'GET');
    const response = await fetch(`${url}${prefix}/${path}${query}`, { method, headers, body });
    const text = await response.text();
    let envelope: Envelope<T>;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = { code: -999, msg: text, time: 0, data: undefined as T };
    }
    return { ...envelope, status: response.status, headers: response.headers };
  };

  const testServer: TestServer = {
    kind,
    url,
    databaseUrl: database.url,
    server,
    demoMember: demo?.member,
    admin: (path, request) => call(entrance, path, request),
    api: (path, request) => call('/api', path, request),
    raw: (path, init) => fetch(`${url}${path}`, init),
    async loginAdmin(username = 'admin', password = ADMIN_PASSWORD, keep = false) {
      const response = await testServer.admin<{ userInfo: { token: string; refresh_token: string } }>('Index/login', { body: { username, password, keep } });
      if (response.code !== 1) throw new Error(`admin login failed: ${response.msg}`);
      return { token: response.data.userInfo.token, refreshToken: response.data.userInfo.refresh_token };
    },
    async close() {
      await server.close();
      rmSync(storage, { recursive: true, force: true });
      if (!options.keepDatabase) await database.drop();
    },
  };
  return testServer;
}
