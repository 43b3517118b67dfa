import { AUTH_REVISION_TABLE, type AuthRevisionTable } from '../auth/auth-revision.js';
import type { SchemaDesignLogTable, SchemaDesignRuleTable, SchemaDesignTable, SchemaRevisionTable, StoreModuleGrantTable, StoreModuleTable } from '../schema-registry.js';
import type { ImportMapTable } from '../import/import-map.js';
import type { JobRunTable } from '../jobs/job-runs.js';
import type { SchemaStateTable } from './migrate.js';
import { ROW_COUNT_DELTA_TABLE, ROW_COUNT_TABLE, type RowCountDeltaTable, type RowCountTable } from './row-counter.js';
import { VALUE_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE, type ValueCountDeltaTable, type ValueCountTable } from './value-counter.js';

/**
 * The platform's own tables, which no schema declares: the migration state, the counters other processes
 * read, the designs of the schema registry and the rules they created, the module store's modules and the grants of its disabled ones, the import's id map, the record of background job runs and the quick-search indexes. They are never listed, designed
 * or dropped from the back office.
 */

export const SCHEMA_STATE_TABLE = 'schema_state';
export const SCHEMA_DESIGN_TABLE = 'schema_design';
export const SCHEMA_DESIGN_LOG_TABLE = 'schema_design_log';
export const SCHEMA_REVISION_TABLE = 'schema_revision';
/** the admin rules each designed schema (a design, a module's schema) created, deleted with it and no others */
export const SCHEMA_DESIGN_RULE_TABLE = 'schema_design_rule';
export const STORE_MODULE_TABLE = 'store_module';
/** the rules each admin group held of a disabled module, by name, granted again when it is enabled */
export const STORE_MODULE_GRANT_TABLE = 'store_module_grant';
/** which row of an imported database became which row here (`import/import-map.ts`) */
export const IMPORT_MAP_TABLE = 'import_map';
/** one row per run of a background job (`jobs/job-runs.ts`) */
export const JOB_RUN_TABLE = 'job_run';

/** Their rows, each declared beside the code that creates the table: part of the typed `Database` (`connection.ts`). */
export interface SystemTables {
  [SCHEMA_STATE_TABLE]: SchemaStateTable;
  [AUTH_REVISION_TABLE]: AuthRevisionTable;
  [SCHEMA_DESIGN_TABLE]: SchemaDesignTable;
  [SCHEMA_DESIGN_LOG_TABLE]: SchemaDesignLogTable;
  [SCHEMA_REVISION_TABLE]: SchemaRevisionTable;
  [SCHEMA_DESIGN_RULE_TABLE]: SchemaDesignRuleTable;
  [STORE_MODULE_TABLE]: StoreModuleTable;
  [STORE_MODULE_GRANT_TABLE]: StoreModuleGrantTable;
  [IMPORT_MAP_TABLE]: ImportMapTable;
  [JOB_RUN_TABLE]: JobRunTable;
  [ROW_COUNT_TABLE]: RowCountTable;
  [ROW_COUNT_DELTA_TABLE]: RowCountDeltaTable;
  [VALUE_COUNT_TABLE]: ValueCountTable;
  [VALUE_COUNT_DELTA_TABLE]: ValueCountDeltaTable;
}

const SYSTEM_TABLES: ReadonlySet<string> = new Set([
  SCHEMA_STATE_TABLE, AUTH_REVISION_TABLE, SCHEMA_DESIGN_TABLE, SCHEMA_DESIGN_LOG_TABLE, SCHEMA_REVISION_TABLE, SCHEMA_DESIGN_RULE_TABLE,
  STORE_MODULE_TABLE, STORE_MODULE_GRANT_TABLE, IMPORT_MAP_TABLE, JOB_RUN_TABLE, ROW_COUNT_TABLE, ROW_COUNT_DELTA_TABLE,
  VALUE_COUNT_TABLE, VALUE_COUNT_DELTA_TABLE,
]);

/** Prefixes of the databases' own tables and of the quick-search index tables (`db/text-index.ts`). */
const SYSTEM_PREFIXES: readonly string[] = ['sqlite_', 'pg_', 'qs_'];

export function isSystemTable(table: string): boolean {
  return SYSTEM_TABLES.has(table) || SYSTEM_PREFIXES.some((prefix) => table.startsWith(prefix));
}
