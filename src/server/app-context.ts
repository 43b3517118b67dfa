import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '../contract/headers.js';
import type { ResourceDefinition, Row } from '../schema/definition.js';
import type { DeclaredNode } from '../generated/permission-nodes.js';
import type { ResourceId } from '../generated/resources.js';
import type { SchemaFile } from '../schema/load-files.js';
import type { LocalText } from '../schema/local-text.js';
import type { DatabaseHandle, Db } from './db/connection.js';
import type { DefinitionOf } from './db/values.js';
import type { Condition } from './db/condition.js';
import type { MigrationResult } from './db/migrate.js';
import type { ConfigStore } from './config-store.js';
import type { TokenStore } from './auth/tokens.js';
import type { Area, Identity, IdentityCache } from './auth/identity.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { ApiError } from './errors.js';
import type { Messages, Translate } from './i18n.js';
import type { JobOutcome } from './jobs/job-runs.js';
import type { RuleTitles } from './rule-titles.js';
import type { DesignedSchema, SchemaActor, SchemaChange, SchemaDesign, SchemaHistoryEntry } from './schema-designs.js';
import type { Settings } from './settings.js';
import type { SmsDriver } from './sms/sms-message.js';

/*
 * The context of the server and what takes it back: the app (`AppContext`), a request (`RequestContext`), a
 * controller and its actions, a resource's hooks, a background job, and each long-lived part the app holds, as
 * the interface the code uses (implemented by `schema-registry.ts`, `http/controller.ts`, `jobs/job-runner.ts`,
 * `metrics.ts`). These types name one another, so they live in this one file, which imports only types of modules
 * that import nothing of the server above them: any server module may name the context, and the context names no
 * module that does.
 */

/** The long-lived parts of one server process. */
export interface AppContext {
  handle: DatabaseHandle;
  db: Db;
  settings: Settings;
  /** by `$id`; replaced as a whole when the schemas change (`schema-registry.ts`), never changed in place */
  resources: ReadonlyMap<string, ResourceDefinition>;
  /** the running schemas: designs made live at run time, followed across processes */
  schemas: RunningSchemas;
  config: ConfigStore;
  tokens: TokenStore;
  /** permissions resolved per account, valid while the area's auth revision stands (`auth/identity.ts`) */
  identities: IdentityCache;
  /** seals secrets stored in the database (provider signing keys) */
  secrets: SecretBox;
  messages: Messages;
  /** rule titles in the admin's language */
  ruleTitles: RuleTitles;
  controllers: Controllers;
  /** `table.column` pairs a text index serves (quick search; `db/text-index.ts`) */
  textIndexed: ReadonlySet<string>;
  /** where SMS go (`SMS_DRIVER`); none when no SMS service is set up, and then no code goes by SMS */
  sms: SmsDriver | undefined;
  /** the Prometheus metrics (`metrics.ts`), set when `METRICS_TOKEN` or `METRICS_ALLOW` turns them on */
  metrics?: Metrics;
  /** the background jobs, run once per slot across the processes (`jobs/job-runner.ts`) */
  jobs: Jobs;
}

/** The running schemas as the code uses them (`schema-registry.ts`): designs made live at run time, followed across processes. */
/** How `RunningSchemas.apply` makes designs live; `alongside` writes more in the transaction that stores them. */
export interface ApplyOptions {
  allowDestructive?: boolean;
  exportDesigns?: boolean;
  alongside?: (trx: Db, definitions: readonly ResourceDefinition[]) => Promise<void>;
}

/** How `RunningSchemas.remove` takes designs away; `beforeDrop` and `alongside` run in its transaction. */
export interface RemoveOptions {
  dropTable?: boolean;
  beforeDrop?: (trx: Db, definition: ResourceDefinition) => Promise<void>;
  alongside?: (trx: Db, definitions: readonly ResourceDefinition[]) => Promise<void>;
}

export interface RunningSchemas {
  readonly schemasDir: string;
  /** the revision of the set this process serves */
  readonly currentRevision: number;
  /** the revision `resources` (a set this process served, as a request holds it) came with */
  revisionOf(resources: ReadonlyMap<string, ResourceDefinition>): number;
  /** bring this process to the set as stored now, and give `view` (a request's copy of the app) that set */
  catchUp(view: AppContext): Promise<void>;
  /** look for a change another process made now, rather than at the next poll; whether one was swapped in */
  poll(): Promise<boolean>;
  designs(): Promise<DesignedSchema[]>;
  /** a design's history, newest first */
  history(id: string): Promise<SchemaHistoryEntry[]>;
  /** whether `id` is a schema of `schemas/` (not one designed in the back office) */
  isFileSchema(id: string): boolean;
  preview(designs: Record<string, unknown> | SchemaDesign[]): Promise<SchemaChange>;
  apply(designs: Record<string, unknown> | SchemaDesign[], actor: SchemaActor, options?: ApplyOptions): Promise<SchemaChange>;
  remove(ids: string | string[], actor: SchemaActor, options?: RemoveOptions): Promise<SchemaChange>;
  dropLeftTables(raws: Record<string, unknown>[]): Promise<string[]>;
  reloadFiles(files: SchemaFile[], allowDestructive: boolean): Promise<{ definitions: ResourceDefinition[]; migration: MigrationResult }>;
}

/** Controllers of both areas (`http/controller.ts`), found case-insensitively by URL segment. */
export interface Controllers {
  register(controller: Controller): void;
  find(area: Area, segment: string): Controller | undefined;
  /** the controller generated from a schema, by `$id` */
  forResource(id: string): Controller | undefined;
  /** every permission node the area's actions check, as the code spells them */
  permissionNodes(area: Area): string[];
  all(area: Area): Controller[];
}

/** The Prometheus metrics (`metrics.ts`) as the rest of the server reports to them. */
export interface Metrics {
  recordJobRun(job: string, outcome: Exclude<JobOutcome, 'running'>, seconds: number): void;
}

/**
 * A background job (the table of them is `jobs/jobs.ts`). Each runs once per slot of its schedule across all
 * processes (`jobs/job-runner.ts`); a run does whatever is due by then, and a failed run is not retried.
 */
export interface JobDefinition {
  /** the job's id: its pg-boss queue, its rows in `job_run` (lower case, digits and dashes) */
  name: string;
  /** what the back office calls it, in both languages */
  title: LocalText;
  /** its slot length: it runs at every multiple of this many seconds since the epoch (UTC) */
  everySeconds: number;
  /** how long a run may take; one still going after this is taken as lost (its process died) */
  timeoutSeconds: number;
  run(app: AppContext): Promise<void>;
}

/** Where the job runner reports (the server's logger). */
export interface JobLog {
  debug(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The background jobs' runner (`jobs/job-runner.ts`). */
export interface Jobs {
  readonly jobs: readonly JobDefinition[];
  /** the slot length of `job` in this process */
  periodOf(job: JobDefinition): number;
  /** when the next slot of `job` starts (unix seconds) */
  nextRunAt(job: JobDefinition, nowMs?: number): number;
  find(name: string): JobDefinition | undefined;
  /** run `job` now: it was started (or queued), or a run of it is already waiting or under way */
  runNow(job: JobDefinition): Promise<'started' | 'busy'>;
  /** start keeping the slots for `app`, whose parts the jobs use */
  start(app: AppContext, log: JobLog): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The app as seen inside a transaction: every lookup a hook or a check makes goes through `trx`.
 * SQLite has one connection, held by the open transaction: a read on the main handle would wait for it forever.
 */
export function withinTransaction(app: AppContext, trx: Db): AppContext {
  return { ...app, db: trx, config: app.config.through(trx) };
}

/** The resource whose schema declares `table`, if any (a name read from data is never SQL by itself). */
export function findResourceByTable(app: AppContext, table: unknown): ResourceDefinition | undefined {
  if (typeof table !== 'string' || table === '') return undefined;
  for (const definition of app.resources.values()) if (definition.table === table) return definition;
  return undefined;
}

function isResource<Id extends ResourceId>(definition: ResourceDefinition, id: Id): definition is DefinitionOf<Id> {
  return definition.id === id;
}

/** The resource of a `$id` the code itself names, typed by it (`wireColumns`); a missing schema is a programming error. */
export function resourceOf<Id extends ResourceId>(app: AppContext, id: Id): DefinitionOf<Id> {
  const definition = app.resources.get(id);
  if (!definition || !isResource(definition, id)) throw new Error(`No schema "${id}"`);
  return definition;
}

/** The resource of a table the code itself names; a missing schema is a programming error. */
export function resourceByTable(app: AppContext, table: string): ResourceDefinition {
  const definition = findResourceByTable(app, table);
  if (!definition) throw new Error(`No schema declares table "${table}"`);
  return definition;
}

/** Everything an action needs about the request it serves. */
export interface RequestContext {
  app: AppContext;
  area: Area;
  lang: Language;
  t: Translate;
  method: string;
  query: Row;
  body: Row;
  /** query and body merged, body winning (ThinkPHP's `param()`) */
  params: Row;
  ip: string;
  userAgent: string;
  /** the access token sent for this area, '' when none */
  token: string;
  tokenExpired: boolean;
  identity?: Identity;
  controller: Controller;
  action: string;
  /** a path segment after the action (`/api/survey/callback/<provider code>`) */
  argument?: string;
  /** set by an action to give its admin-log row an explicit title */
  logTitle?: string;
  /** set by an action: request names whose values are secrets by their type (password config items), masked in the admin log */
  logSecrets?: readonly string[];
  request: FastifyRequest;
  reply: FastifyReply;
}

/** An action returns its `data`, or a `Success` carrying a message, or throws an `ApiError`. */
export type Action = (ctx: RequestContext) => Promise<unknown>;

/**
 * A node an action checks in place of its own: a whole node a schema or a seed declares (`crud/crud/index`),
 * or a generic action of the same controller (`index`), for hooks shared by resources of any path.
 */
type CheckedNode = DeclaredNode | 'index' | 'add' | 'edit' | 'del' | 'sortable' | 'export';

export interface Controller {
  /** canonical URL segment, e.g. `auth.Admin` */
  name: string;
  /** permission path, e.g. `auth/admin` */
  path: string;
  area: Area;
  /** keyed by lower-cased action name */
  actions: Record<string, Action>;
  /** lower-cased action names, or `*` */
  noNeedLogin: string[];
  noNeedPermission: string[];
  /**
   * Actions that check other nodes than their own, by action name (found case-insensitively): the nodes
   * any one of which lets the caller in. A name without `/` is a node of this controller (`index`), one
   * with `/` a whole node (`crud/crud/index`).
   */
  permissions?: Record<string, readonly CheckedNode[]>;
  /**
   * Whole nodes that also admit `index`, found at run time (the forms that refer to this resource, which
   * may be a module's: `reference-labels.ts`), so no generated type knows them.
   */
  indexReaders?: readonly string[];
  resource?: ResourceDefinition;
  /** the resource's hooks (controllers generated from a schema) */
  hooks?: ResourceHooks;
}

/** Who performs an operation; operations run the same from HTTP, tests, seeds and scripts. */
export interface Operator {
  app: AppContext;
  identity?: Identity;
  ip: string;
  userAgent: string;
  /** translator of the request's language, when there is a request */
  t?: Translate;
  lang?: Language;
  /** the HTTP request, when there is one (this site's public origin is read from it) */
  request?: FastifyRequest;
}

export type RowView = 'list' | 'edit' | 'select';

export interface WriteContext {
  mode: 'add' | 'edit';
  definition: ResourceDefinition;
  /** validated wire values the client sent (virtual fields included) */
  values: Row;
  /** the stored row before an edit */
  existing?: Row;
  /** id of the row: set for edits, and after the insert for adds */
  id?: number | string;
  trx: Db;
}

interface DeleteContext {
  definition: ResourceDefinition;
  /** stored rows about to be deleted (already within the data limit) */
  rows: Row[];
  trx: Db;
}

/**
 * Behaviour a schema cannot express, kept beside it in `src/server/resources/<area>/<name>.ts`.
 * The lifecycle of a write is: validate → `prepareInput` → (in one transaction) `beforeWrite` → write → `afterWrite`.
 */
export interface ResourceHooks {
  /** a row filter every read, edit, delete and sort of this resource must pass (row-level access) */
  scope?(operator: Operator): Promise<Condition | undefined>;
  /** shape rows for the wire beyond the schema's conversions (appended fields, formatted values) */
  present?(operator: Operator, rows: Row[], view: RowView): Promise<Row[]>;
  /**
   * The rows a quick search for `term` finds, in place of those whose quick-search columns hold it, for a
   * resource whose column is stored in another form than it is shown (a message key shown in words).
   */
  quickSearch?(app: AppContext, term: string): Condition | undefined;
  /**
   * Work on the checked input that reads no database (a password's hash), done before the transaction
   * opens so that a slow step never holds it: on SQLite's one connection, every other write would wait.
   */
  prepareInput?(values: Row, mode: WriteContext['mode']): Promise<void>;
  /** checks and derived columns before the write; may change `values` */
  beforeWrite?(operator: Operator, write: WriteContext): Promise<void>;
  afterWrite?(operator: Operator, write: WriteContext): Promise<void>;
  /**
   * The answer to an add or edit the database refuses for one of the table's unique indexes, a write
   * that raced past the checks of its transaction; without it, the generic "The same data already exists".
   */
  uniqueViolation?(definition: ResourceDefinition): ApiError;
  /** checks before deleting; returns the rows to delete (may skip some) */
  beforeDelete?(operator: Operator, remove: DeleteContext): Promise<Row[]>;
  afterDelete?(operator: Operator, remove: DeleteContext): Promise<void>;
  /** extra actions, or replacements of the generic ones, keyed by action name */
  actions?: Record<string, Action>;
  noNeedLogin?: string[];
  noNeedPermission?: string[];
  /** actions that check other nodes than their own (`Controller.permissions`) */
  permissions?: Record<string, readonly CheckedNode[]>;
}
