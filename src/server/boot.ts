import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type RequestLogStream } from './app.js';
import type { AppContext } from './app-context.js';
import { randomPassword, verifyPassword } from './auth/passwords.js';
import { setAccountPassword } from './auth/sessions.js';
import { loadTokenKey, TokenStore } from './auth/tokens.js';
import { ConfigStore } from './config-store.js';
import { SecretBox } from './crypto/secret-box.js';
import { createControllerRegistry } from './controller-registry.js';
import { openDatabase } from './db/connection.js';
import { lockSqliteFile } from './db/sqlite-file-lock.js';
import type { MigrationResult } from './db/migrate.js';
import { SchemaRegistry } from './schema-registry.js';
import { IdentityCache } from './auth/identity.js';
import { Messages } from './i18n.js';
import { RuleTitles } from './rule-titles.js';
import type { Settings } from './settings.js';
import { smsDriverFor, type SmsDriver } from './sms/sms-driver.js';
import { JobRunner } from './jobs/job-runner.js';
import { JOBS, type JobDefinition } from './jobs/jobs.js';

export interface Server {
  app: AppContext;
  http: FastifyInstance;
  migration: MigrationResult;
  /** set on the first start (or when ADMIN_PASSWORD is given): the admin login to tell the user */
  adminLogin?: { username: string; password: string; generated: boolean };
  memberLogin?: { username: string; password: string };
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

/**
 * The first start's password of account #1, or `ADMIN_PASSWORD` at any start. A password the account
 * already has is left as it is, so a restart logs nobody out; a new one ends the account's sessions.
 */
async function applyPassword(app: AppContext, area: 'admin' | 'user', id: number, password: string) {
  const stored = await app.db.selectFrom(area).select(['password', 'salt']).where('id', '=', id).executeTakeFirst();
  if (stored && (await verifyPassword(password, String(stored.password ?? ''), String(stored.salt ?? ''))).ok) return;
  await setAccountPassword(app, area, id, password);
}

/** Load schemas, migrate and seed the database, and build the HTTP server (not yet listening). */
export async function createServer(settings: Settings, options: StartOptions = {}): Promise<Server> {
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
    const { definitions, migration, seeded, textIndexed } = await schemas.prepare();
    const config = new ConfigStore(handle.db, settings.configCacheMs);
    const entrance = await config.get('backend_entrance', settings.adminEntrance);
    const serverKey = await loadTokenKey(handle.db, settings.tokenSecret);
    const resources = new Map(definitions.map((definition) => [definition.id, definition]));
    const app: AppContext = {
      handle,
      db: handle.db,
      settings: { ...settings, adminEntrance: /^\/[a-zA-Z0-9]+$/.test(entrance) ? entrance : settings.adminEntrance },
      resources,
      schemas,
      config,
      tokens: new TokenStore(handle.db, serverKey, config),
      identities: new IdentityCache(),
      secrets: new SecretBox(serverKey),
      messages: new Messages(join(settings.projectRoot, 'locales')),
      ruleTitles: new RuleTitles(join(settings.projectRoot, 'locales'), () => app.resources),
      controllers: createControllerRegistry(definitions),
      textIndexed,
      sms: options.smsDriver ?? smsDriverFor(settings.sms, handle.db),
      jobs: new JobRunner(handle, { jobs: options.jobs ?? JOBS, slotSeconds: settings.jobSlotSeconds }),
    };

    let adminLogin: Server['adminLogin'];
    if (settings.adminPassword || seeded.includes('admin')) {
      const password = settings.adminPassword ?? randomPassword();
      await applyPassword(app, 'admin', 1, password);
      adminLogin = { username: 'admin', password, generated: !settings.adminPassword };
    }
    let memberLogin: Server['memberLogin'];
    if (seeded.includes('user')) {
      const password = randomPassword();
      await applyPassword(app, 'user', 1, password);
      memberLogin = { username: 'user', password };
    }

    const http = await buildApp(app, { clientDir: options.clientDir, logger: options.logger });
    schemas.attach(app);
    await app.jobs.start(app, http.log);
    return {
      app, http, migration, adminLogin, memberLogin,
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
