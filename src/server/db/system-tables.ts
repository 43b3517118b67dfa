
/**
 * The platform's own tables, which no schema declares: the migration state, the counters other processes
 * read, the designs of the schema registry and the rules they created, the module store's modules and the grants of its disabled ones, the import's id map, the record of background job runs and the quick-search indexes. They are never listed, designed
 * or dropped from the back office.
 */

export const SCHEMA_STATE_TABLE = 'schema_state';
/** the counter per area that moves when an account's permissions may have changed (`auth/auth-revision.ts`) */
export const AUTH_REVISION_TABLE = 'auth_revision';
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
/** the row count of each table and the changes not yet folded into it (`row-counter.ts`) */
export const ROW_COUNT_TABLE = 'row_count';
export const ROW_COUNT_DELTA_TABLE = 'row_count_delta';
/** the row count of each value of a counted column, and its changes (`value-counter.ts`) */
export const VALUE_COUNT_TABLE = 'row_count_by_value';
export const VALUE_COUNT_DELTA_TABLE = 'row_count_by_value_delta';
/** the last message through each verification-code channel's settings, delivered or not (`services/code-channels.ts`) */
export const CODE_CHANNEL_TABLE = 'code_channel_check';

/**
 * Their rows, part of the typed `Database` (`connection.ts`). Each row type is declared beside the code that
 * creates its table, which adds its row here from that file (`declare module`): the migration state, the
 * counters, the auth revision, the schema registry's, the module store's, the import map, the job runs, the code channels' checks.
 * So this file imports none of them, and `db/` nothing above it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are added where each table is created
export interface SystemTables {}

const SYSTEM_TABLES: ReadonlySet<string> = new Set([
  SCHEMA_STATE_TABLE, AUTH_REVISION_TABLE, SCHEMA_DESIGN_TABLE, SCHEMA_DESIGN_LOG_TABLE, SCHEMA_REVISION_TABLE, SCHEMA_DESIGN_RULE_TABLE,
  STORE_MODULE_TABLE, STORE_MODULE_GRANT_TABLE, IMPORT_MAP_TABLE, JOB_RUN_TABLE, ROW_COUNT_TABLE, ROW_COUNT_DELTA_TABLE,
  VALUE_COUNT_TABLE, VALUE_COUNT_DELTA_TABLE, CODE_CHANNEL_TABLE,
]);

/** Prefixes of the databases' own tables and of the quick-search index tables (`db/text-index.ts`). */
const SYSTEM_PREFIXES: readonly string[] = ['sqlite_', 'pg_', 'qs_'];

export function isSystemTable(table: string): boolean {
  return SYSTEM_TABLES.has(table) || SYSTEM_PREFIXES.some((prefix) => table.startsWith(prefix));
}
