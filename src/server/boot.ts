import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type RequestLogStream } from './app.js';
import type { AppContext, JobDefinition } from './app-context.js';
import type { Row } from '../schema/definition.js';
import { hashPassword, randomPassword, verifyPassword } from './auth/passwords.js';
import { setAccountPassword } from './auth/sessions.js';
import { loadTokenKey, TokenStore } from './auth/tokens.js';
import { ConfigStore } from './config-store.js';
import { SecretBox } from './crypto/secret-box.js';
import { createControllerRegistry } from './controller-registry.js';
import { dynamicDb, openDatabase } from './db/connection.js';
import { lockSqliteFile } from './db/sqlite-file-lock.js';
import { nowSeconds } from './clock.js';
import type { MigrationResult } from './db/migrate.js';
import { SchemaRegistry } from './schema-registry.js';
import { resourceSet, type ResourceSet } from './resource-set.js';
import { AREA_AUTH, IdentityCache, type Area } from './auth/identity.js';
import { Messages } from './i18n.js';
import { RuleTitles } from './rule-titles.js';
import type { Settings } from './settings.js';
import { smsDriverFor } from './sms/sms-driver.js';
import type { SmsDriver } from './sms/sms-message.js';
import { JobRunner } from './jobs/job-runner.js';
import { JOBS } from './jobs/jobs.js';
import { loadProviderPresets } from './services/survey/presets.js';

export interface Server {
  app: AppContext;
  http: FastifyInstance;
  migration: MigrationResult;
  /** administrator #1's login, when this start gave it its password (ADMIN_PASSWORD, or the first start's) */
  adminLogin?: AccountLogin;
  /** why no login of administrator #1 works (it was deleted or disabled), to say in place of one */
  adminLoginUnusable?: string;
  close(): Promise<void>;
}

export interface StartOptions {
  schemasDir?: string;
  clientDir?: string;
  /** the request log: true for standard output (`LOG_REQUESTS=true`), or a stream of its lines */
  logger?: boolean | RequestLogStream;
  /** where SMS go instead of the driver `SMS_DRIVER` names (tests keep them in memory) */
  smsDriver?: SmsDriver;
  /** the background jobs (`jobs/jobs.ts` unless a test gives its own) */
  jobs?: readonly JobDefinition[];
}

/** A login this start gave account #1, to tell the operator. */
export interface AccountLogin {
  username: string;
  password: string;
  /** made up by this start (no ADMIN_PASSWORD): shown this once */
  generated: boolean;
}

/** What a start can tell of account #1's login: one that works, or why there is none. */
interface FirstAccount {
  login?: AccountLogin;
  /** "administrator #1 does not exist", "… is disabled": no login of #1 works */
  unusable?: string;
}

const ACCOUNT_NOUN: Record<Area, string> = { admin: 'administrator', user: 'member' };

/**
 * The login of account #1 of an area, told only when it works. `given` (ADMIN_PASSWORD) is applied at
 * every start; a password the account already has is left as it is, so a restart logs nobody out, and a
 * new one ends the account's sessions. Without one, the account gets a random password while it has
 * none: its seed row has none, so that is the start that seeded it or, when that start was cut short
 * before this, the next one. That write is conditional, so of several processes starting at once on one
 * database exactly one gives the password it tells. An account deleted or disabled gets nothing: the
 * answer says why instead (no account is brought back behind the administrators' backs).
 */
async function firstAccountLogin(app: AppContext, area: Area, given?: string): Promise<FirstAccount> {
  const db = dynamicDb(app.db);
  const table = AREA_AUTH[area].accountTable;
  const account = (await db.selectFrom(table).select(['username', 'password', 'salt', 'status']).where('id', '=', 1).executeTakeFirst()) as Row | undefined;
  if (!account) return { unusable: `${ACCOUNT_NOUN[area]} #1 does not exist` };
  const username = String(account.username);
  if (!AREA_AUTH[area].isEnabled(account)) return { unusable: `${ACCOUNT_NOUN[area]} #1 "${username}" is disabled` };
  if (given) {
    if (!(await verifyPassword(given, String(account.password ?? ''), String(account.salt ?? ''))).ok) await setAccountPassword(app, area, 1, given);
    return { login: { username, password: given, generated: false } };
  }
  if (String(account.password ?? '') !== '') return {};
  const password = randomPassword();
  const written = await db
    .updateTable(table)
    .set({ password: await hashPassword(password), salt: '', login_failure: 0, update_time: nowSeconds() })
    .where('id', '=', 1)
    // another process starting on this database may have given it one meanwhile
    .where((where) => where.or([where('password', '=', ''), where('password', 'is', null)]))
    .executeTakeFirst();
  return Number(written.numUpdatedRows) === 1 ? { login: { username, password, generated: true } } : {};
}

/** What the app serves of a set the schema registry published: its definitions, the controllers built from them, its text indexes. */
function publishedState(set: ResourceSet): Pick<AppContext, 'resources' | 'controllers' | 'textIndexed'> {
  return { resources: set.definitions, controllers: createControllerRegistry([...set.definitions.values()]), textIndexed: set.textIndexed };
}

/** Load schemas, migrate and seed the database, and build the HTTP server (not yet listening). */
export async function createServer(settings: Settings, options: StartOptions = {}): Promise<Server> {
  // Data files beside schemas/: a bad one stops the start before the database is touched.
  loadProviderPresets(settings.projectRoot);
  const handle = openDatabase(settings.databaseUrl);
  let releaseFileLock: () => void = () => undefined;
  try {
    // One server process per SQLite file: a second one stops here (db/sqlite-file-lock.ts).
    releaseFileLock = lockSqliteFile(settings.databaseUrl);
    const schemas = new SchemaRegistry(handle, {
      schemasDir: options.schemasDir ?? join(settings.projectRoot, 'schemas'),
      allowDestructiveMigrations: settings.allowDestructiveMigrations,
      exportDesigns: true,
    });
    const { definitions, migration, textIndexed } = await schemas.prepare();
    const config = new ConfigStore(handle.db, settings.configCacheMs);
    const entrance = await config.get('backend_entrance', settings.adminEntrance);
    const serverKey = await loadTokenKey(handle.db, settings.tokenSecret);
    const app: AppContext = {
      handle,
      db: handle.db,
      settings: { ...settings, adminEntrance: /^\/[a-zA-Z0-9]+$/.test(entrance) ? entrance : settings.adminEntrance },
      ...publishedState(resourceSet(definitions, textIndexed, schemas.currentRevision)),
      schemas,
      config,
      tokens: new TokenStore(handle.db, serverKey, config),
      identities: new IdentityCache(),
      secrets: new SecretBox(serverKey),
      messages: new Messages(join(settings.projectRoot, 'locales')),
      ruleTitles: new RuleTitles(join(settings.projectRoot, 'locales'), () => app.resources),
      sms: options.smsDriver ?? smsDriverFor(settings.sms, handle.db),
      jobs: new JobRunner(handle, { jobs: options.jobs ?? JOBS, slotSeconds: settings.jobSlotSeconds }),
    };

    const http = await buildApp(app, { clientDir: options.clientDir, logger: options.logger });
    schemas.attach(app, (set) => Object.assign(app, publishedState(set)));
    await app.jobs.start(app, http.log);
    // Last, so that little can stop this start between giving a password and its caller telling it.
    const admin = await firstAccountLogin(app, 'admin', settings.adminPassword);
    return {
      app, http, migration, adminLogin: admin.login, adminLoginUnusable: admin.unusable,
      close: async () => {
        // Stop accepting at once, while the requests in flight and the job runs under way end together;
        // the database goes last, once nothing can use it.
        await Promise.all([http.close(), app.jobs.stop()]);
        await schemas.close();
        await handle.close();
        releaseFileLock();
      },
    };
  } catch (error) {
    await handle.close();
    releaseFileLock();
    throw error;
  }
}
