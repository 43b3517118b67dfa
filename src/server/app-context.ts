import type { ResourceDefinition } from '../schema/definition.js';
import { typedDb, type DatabaseHandle, type Db, type DynamicDb } from './db/connection.js';
import type { ConfigStore } from './config-store.js';
import type { TokenStore } from './auth/tokens.js';
import type { IdentityCache } from './auth/identity.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Messages } from './i18n.js';
import type { RuleTitles } from './rule-titles.js';
import type { Settings } from './settings.js';
import type { ControllerRegistry } from './http/controller.js';
import type { SchemaRegistry } from './schema-registry.js';
import type { SmsDriver } from './sms/sms-driver.js';
import type { ServerMetrics } from './metrics.js';
import type { JobRunner } from './jobs/job-runner.js';

/** The long-lived parts of one server process. */
export interface AppContext {
  handle: DatabaseHandle;
  db: Db;
  settings: Settings;
  /** by `$id`; replaced as a whole when the schemas change (`schema-registry.ts`), never changed in place */
  resources: ReadonlyMap<string, ResourceDefinition>;
  /** the running schemas: designs made live at run time, followed across processes */
  schemas: SchemaRegistry;
  config: ConfigStore;
  tokens: TokenStore;
  /** permissions resolved per account, valid while the area's auth revision stands (`auth/identity.ts`) */
  identities: IdentityCache;
  /** seals secrets stored in the database (provider signing keys) */
  secrets: SecretBox;
  messages: Messages;
  /** rule titles in the admin's language */
  ruleTitles: RuleTitles;
  controllers: ControllerRegistry;
  /** `table.column` pairs a text index serves (quick search; `db/text-index.ts`) */
  textIndexed: ReadonlySet<string>;
  /** where SMS go (`SMS_DRIVER`); none when no SMS service is set up, and then no code goes by SMS */
  sms: SmsDriver | undefined;
  /** the Prometheus metrics (`metrics.ts`), set when `METRICS_TOKEN` or `METRICS_ALLOW` turns them on */
  metrics?: ServerMetrics;
  /** the background jobs, run once per slot across the processes (`jobs/job-runner.ts`) */
  jobs: JobRunner;
}

/**
 * The app as seen inside a transaction: every lookup a hook or a check makes goes through `trx`.
 * SQLite has one connection, held by the open transaction: a read on the main handle would wait for it forever.
 */
export function withinTransaction(app: AppContext, trx: Db | DynamicDb): AppContext {
  return { ...app, db: typedDb(trx), config: app.config.through(typedDb(trx)) };
}

/** The resource whose schema declares `table`, if any (a name read from data is never SQL by itself). */
export function findResourceByTable(app: AppContext, table: unknown): ResourceDefinition | undefined {
  if (typeof table !== 'string' || table === '') return undefined;
  for (const definition of app.resources.values()) if (definition.table === table) return definition;
  return undefined;
}

/** The resource of a table the code itself names; a missing schema is a programming error. */
export function resourceByTable(app: AppContext, table: string): ResourceDefinition {
  const definition = findResourceByTable(app, table);
  if (!definition) throw new Error(`No schema declares table "${table}"`);
  return definition;
}
