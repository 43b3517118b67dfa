import type { FastifyRequest } from 'fastify';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import type { Identity } from '../auth/identity.js';
import type { AppContext } from '../app-context.js';
import type { Db } from '../db/connection.js';
import type { Action } from '../http/controller.js';
import type { Condition } from './list-query.js';
import type { Translate } from '../i18n.js';
import type { Language } from '../../contract/headers.js';
import type { ApiError } from '../errors.js';

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
  permissions?: Record<string, string[]>;
}
