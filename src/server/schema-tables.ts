import type { Generated } from 'kysely';
import type { DatabaseHandle } from './db/connection.js';
import { SCHEMA_DESIGN_LOG_TABLE, SCHEMA_DESIGN_RULE_TABLE, SCHEMA_DESIGN_TABLE, SCHEMA_REVISION_TABLE } from './db/system-tables.js';

/** The schema registry's tables (`schema-registry.ts`): the designs, their history, the revision and the rules designs made. */

/** A row of `schema_design`, created by `ensureSchemaTables` below: the current design of a schema. */
interface SchemaDesignTable {
  schema_id: string;
  /** the schema's JSON */
  definition: string;
  /** JSON of its locale files, by language */
  locale: string | null;
  version: number;
  update_time: number;
}

/** A row of `schema_design_log`: one version of a design, who made it and the diff. */
interface SchemaDesignLogTable {
  id: Generated<number>;
  schema_id: string;
  version: number;
  action: string;
  definition: string | null;
  diff: string;
  admin_id: number;
  admin_username: string;
  create_time: number;
}

/** The one row of `schema_revision` (`id` 1): the counter other processes follow. */
interface SchemaRevisionTable {
  id: number;
  revision: Generated<number>;
}

/**
 * A row of `schema_design_rule`: an admin rule (its id and name, as an id may be used again once freed) that
 * making a designed schema live created: its menu, a node, a menu directory it declared. Taking the schema
 * out deletes these rules and no others, so a schema can never take a rule of the platform or of another
 * schema with it.
 */
interface SchemaDesignRuleTable {
  schema_id: string;
  rule_id: number;
  rule: string;
}

/** Create the schema registry's tables where they are missing, and the revision's one row. */
export async function ensureSchemaTables(handle: DatabaseHandle): Promise<void> {
  const { db, dialect } = handle;
  await db.schema
    .createTable(SCHEMA_DESIGN_TABLE)
    .ifNotExists()
    .addColumn('schema_id', 'varchar(200)', (column) => column.primaryKey())
    .addColumn('definition', 'text', (column) => column.notNull())
    .addColumn('locale', 'text')
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('update_time', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(SCHEMA_DESIGN_LOG_TABLE)
    .ifNotExists()
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (column) => (dialect === 'postgres' ? column.primaryKey() : column.primaryKey().autoIncrement()))
    .addColumn('schema_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('action', 'varchar(20)', (column) => column.notNull())
    .addColumn('definition', 'text')
    .addColumn('diff', 'text', (column) => column.notNull())
    .addColumn('admin_id', 'bigint', (column) => column.notNull())
    .addColumn('admin_username', 'varchar(100)', (column) => column.notNull())
    .addColumn('create_time', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('idx_schema_design_log_schema_id').ifNotExists().on(SCHEMA_DESIGN_LOG_TABLE).columns(['schema_id', 'id']).execute();
  await db.schema
    .createTable(SCHEMA_REVISION_TABLE)
    .ifNotExists()
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('revision', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.insertInto(SCHEMA_REVISION_TABLE).values({ id: 1, revision: 0 }).onConflict((conflict) => conflict.column('id').doNothing()).execute();
  await db.schema
    .createTable(SCHEMA_DESIGN_RULE_TABLE)
    .ifNotExists()
    .addColumn('schema_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('rule_id', 'bigint', (column) => column.notNull())
    .addColumn('rule', 'varchar(255)', (column) => column.notNull())
    .addPrimaryKeyConstraint('schema_design_rule_pk', ['schema_id', 'rule_id'])
    .execute();
}

declare module './db/system-tables.js' {
  interface SystemTables {
    [SCHEMA_DESIGN_TABLE]: SchemaDesignTable;
    [SCHEMA_DESIGN_LOG_TABLE]: SchemaDesignLogTable;
    [SCHEMA_REVISION_TABLE]: SchemaRevisionTable;
    [SCHEMA_DESIGN_RULE_TABLE]: SchemaDesignRuleTable;
  }
}
