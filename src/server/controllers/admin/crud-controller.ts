import { sql } from 'kysely';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { claimedRuleNames, menuNameOf, SchemaError } from '../../../schema/normalise.js';
import { findResourceByTable, type Controller, type RequestContext } from '../../app-context.js';
import { allows } from '../../auth/identity.js';
import { nowSeconds } from '../../clock.js';
import {
  checkTableName,
  controllerOfTable,
  designedIdOf,
  designToSchema,
  designTypeOf,
  fieldWords,
  readDesign,
} from '../../crud/design-schema.js';
import { wordDataLosses } from '../../crud/data-loss.js';
import { versionChanges } from '../../crud/version-changes.js';
import { isSystemTable } from '../../db/system-tables.js';
import { dynamicDb, type Db } from '../../db/connection.js';
import { catalogColumns, catalogTables } from '../../db/table-catalog.js';
import { DestructiveMigrationError } from '../../db/migrate.js';
import { toJson } from '../../db/values.js';
import { errors, Success } from '../../errors.js';
import { clientDefinition } from '../../resources/client-definitions.js';
import { recordRecycle } from '../../resources/security-events.js';
import { designedRecycleRule, keepDeletedRows } from '../../resources/system/data-rules.js';
import { schemaDiff, type SchemaActor } from '../../schema-designs.js';
import { DESIGNER_NODES } from '../../crud/designer-nodes.js';

/**
 * `crud.Crud/*`: BuildAdmin's CRUD generator, answered in its shapes, generating a schema instead of
 * code. `generate` makes the designed module live through the schema registry (on every process);
 * `delete` takes it away again (its table stays unless `dropTable`); the rest are the calls its start,
 * design and log screens make. Its log (`crud.Log`) is an ordinary resource.
 */

const CONNECTION = 'default';
const LOG_TABLE = 'crud_log';
/** Ours, in a log entry's `table`: the id of the version (`history`'s entry) its generate made. */
const VERSION_KEY = 'versionId';

/** The read-only calls need one of the generator's nodes (they show table structures); generate and delete their own. */
function requireCrudAccess(ctx: RequestContext): void {
  const identity = ctx.identity;
  if (!identity) throw errors.needLogin();
  if (!DESIGNER_NODES.some((node) => allows(identity, node))) throw errors.noPermission();
}

function actorOf(ctx: RequestContext): SchemaActor {
  return { id: ctx.identity?.id ?? 0, username: ctx.identity?.username ?? '' };
}

function isTruthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'Yes';
}

/** The schema a design gives, checked against everything running: table owner, controller and menu names. */
async function schemaOfDesign(ctx: RequestContext): Promise<{ raw: Row; design: ReturnType<typeof readDesign> }> {
  const design = readDesign(ctx.body);
  const table = checkTableName(design.table.name);
  // Weighed against the set as stored, which this process may not have caught up with yet.
  await ctx.app.schemas.catchUp(ctx.app);
  const id = designedIdOf(table);
  const owner = findResourceByTable(ctx.app, table);
  if (owner && owner.id !== id) throw errors.tableTaken(table, owner.id);
  const previous = (await ctx.app.schemas.designs()).find((item) => item.id === id);
  const raw = designToSchema(design, ctx.app.resources, previous?.raw);
  const controllerName = controllerOfTable(table);
  const controller = ctx.app.controllers.find('admin', controllerName);
  const menuName = menuNameOf(controllerName);
  if (controller && controller.resource?.id !== id) throw errors.controllerTaken(controllerName, menuName);
  if (!previous) {
    // Its menu, a node under it or under its controller's address held already (rules match in any case).
    const held = new Set(
      (await ctx.app.db.selectFrom('admin_rule').select('name').execute()).map((rule) =>
        rule.name.toLowerCase(),
      ),
    );
    if (claimedRuleNames(raw).some((name) => held.has(name))) throw errors.controllerTaken(controllerName, menuName);
  }
  return { raw, design };
}

/**
 * Registry refusals as translated messages that name what the screen shows: an invalid schema by the field
 * it concerns (its path says which; the path itself is never shown), a change that would lose data by the
 * fields and what happens to their values.
 */
async function throughRegistry<T>(
  ctx: RequestContext,
  design: ReturnType<typeof readDesign> | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SchemaError) {
      const name = /^\/properties\/([^/]+)/.exec(error.path)?.[1];
      const field = name === undefined ? undefined : design?.fields.find((item) => item.name === name);
      throw field ? errors.designFieldInvalid(fieldWords(field)) : errors.designInvalid();
    }
    if (error instanceof DestructiveMigrationError) {
      throw errors.designDestructive(
        wordDataLosses(error.losses, ctx.t, [findResourceByTable(ctx.app, design?.table.name ?? '')], []),
      );
    }
    throw error;
  }
}

/**
 * `preview` (ours): the schema a design gives, its definition as the back office draws screens from it
 * (the designer's live preview), the migration it implies, nothing applied, and the texts it has in one
 * language only (`textGaps`: `{language, at, shown}`, the language missing, where the text sits as a
 * locale file names it, what shows instead), which the designer lists as `npm run gen` does.
 */
async function preview(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const { raw, design } = await schemaOfDesign(ctx);
  const change = await throughRegistry(ctx, design, () => ctx.app.schemas.preview(raw));
  const { losses, ...migration } = change.migration;
  // the steps that could lose data, worded for the admin who confirms them
  const destructive = wordDataLosses(
    losses,
    ctx.t,
    [findResourceByTable(ctx.app, design.table.name)],
    change.definitions,
  );
  const textGaps = change.definitions[0].textGaps.map((gap) => ({
    language: gap.missing,
    at: gap.at,
    shown: gap.shown,
  }));
  return {
    schema: raw,
    definition: clientDefinition(change.definitions[0]),
    migration: { ...migration, destructive },
    textGaps,
    recycle: await recycleOfDesign(ctx, change.definitions[0]),
  };
}

/**
 * `recycle` in `preview`'s answer: `rule`, whether a recycle rule covers the module's controller
 * (`enabled`, `disabled` or `none`), and `keep`, what the Generate dialog's "keep deleted rows in the recycle
 * bin" starts as: the rule's state, or on for a module not generated yet.
 */
async function recycleOfDesign(
  ctx: RequestContext,
  definition: ResourceDefinition,
): Promise<{ rule: 'enabled' | 'disabled' | 'none'; keep: boolean }> {
  const rule = definition.controllerPath ? await designedRecycleRule(ctx.app.db, definition.controllerPath) : 'none';
  const generated = (await ctx.app.schemas.designs()).some((design) => design.id === definition.id);
  return { rule, keep: rule === 'enabled' || (rule === 'none' && !generated) };
}

/**
 * `generate` (POST `type`, `table`, `fields`): the module is live when this answers. A step that could lose
 * data (a dropped column, a narrower type) is refused unless the design confirms it (`table.rebuild` =
 * `Yes`, as BuildAdmin's "rebuild the table" does, or `confirm`). Ours, `recycle`: whether the module's
 * deletes keep their rows in the recycle bin, its rule switched on (made once) or off in the same
 * transaction as the design; without it (BuildAdmin's screen) the rules stay as they are.
 */
async function generate(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const { raw, design } = await schemaOfDesign(ctx);
  const confirmed = isTruthy(design.table.rebuild) || isTruthy(ctx.body.confirm);
  const recycle = ctx.body.recycle;
  const alongside =
    recycle === undefined
      ? undefined
      : async (trx: Db, definitions: readonly ResourceDefinition[]) => {
          for (const definition of definitions) await keepDeletedRows(trx, definition, isTruthy(recycle));
        };
  const change = await throughRegistry(ctx, design, () =>
    ctx.app.schemas.apply(raw, actorOf(ctx), { allowDestructive: confirmed, alongside }),
  );
  const { name: _name, [VERSION_KEY]: _version, ...tableRest } = ctx.body.table as Row;
  // the version this design made, so the versions screen can start again from (restore) the design of any of them
  const [made] = await ctx.app.schemas.history(String(raw.$id));
  await ctx.app.db
    .insertInto(LOG_TABLE)
    .values({
      table_name: design.table.name,
      table: toJson({ ...tableRest, name: design.table.name, ...(made ? { [VERSION_KEY]: made.id } : {}) }),
      fields: toJson(ctx.body.fields as unknown[]),
      status: 'success',
      connection: CONNECTION,
      create_time: nowSeconds(),
    })
    .execute();
  ctx.logTitle = 'CRUD generate';
  const { losses: _losses, ...migration } = change.migration;
  return new Success({ id: raw.$id, schema: raw, migration, applied: change.applied });
}

async function logEntry(ctx: RequestContext): Promise<Row> {
  const id = ctx.params.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw errors.parameterError();
  if (!/^\d{1,15}$/.test(String(id))) throw errors.recordNotFound();
  const row = await ctx.app.db.selectFrom(LOG_TABLE).selectAll().where('id', '=', Number(id)).executeTakeFirst();
  if (!row) throw errors.recordNotFound();
  return row;
}

function parseJson(text: unknown, fallback: unknown): unknown {
  try {
    return typeof text === 'string' ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

async function tableIsEmpty(ctx: RequestContext, table: string): Promise<boolean> {
  if (!(await catalogTables(ctx.app.handle)).includes(table)) return true;
  return (
    (await dynamicDb(ctx.app.db)
      .selectFrom(table)
      .select(sql<number>`1`.as('one'))
      .limit(1)
      .executeTakeFirst()) === undefined
  );
}

/** `logStart` (POST `id`): an earlier design from the log, with whether its table holds rows. */
async function logStart(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const row = await logEntry(ctx);
  const table = parseJson(row.table, {}) as Row;
  ctx.logTitle = 'Log start';
  return {
    table: { ...table, empty: await tableIsEmpty(ctx, String(row.table_name)) },
    fields: parseJson(row.fields, []),
  };
}

/**
 * `delete` (POST `id`, and ours: `dropTable`): the module of that log entry goes — API, menu, nodes,
 * schema. Its table and rows stay unless `dropTable`; then the rows go where every delete puts them
 * (the recycle bin, when a data-recycle rule covers the module) and the table is dropped.
 */
async function remove(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const row = await logEntry(ctx);
  const table = String(row.table_name);
  const id = designedIdOf(table);
  const dropTable = isTruthy(ctx.body.dropTable);
  const operator = {
    app: ctx.app,
    identity: ctx.identity,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    t: ctx.t,
    lang: ctx.lang,
  };
  if (!(await ctx.app.schemas.designs()).some((design) => design.id === id)) throw errors.noDesignedModule(table);
  await throughRegistry(ctx, undefined, () =>
    ctx.app.schemas.remove(id, actorOf(ctx), {
      dropTable,
      beforeDrop: async (trx, definition) => {
        const rows = await dynamicDb(trx).selectFrom(definition.table).selectAll().execute();
        await recordRecycle({ ...operator, app: { ...ctx.app, db: trx } }, trx, definition, {}, rows);
      },
      // its recycle rule is switched off, not deleted: the rows it logged stay restorable from the bin
      alongside: async (trx, definitions) => {
        for (const definition of definitions) await keepDeletedRows(trx, definition, false);
      },
    }),
  );
  await ctx.app.db
    .updateTable(LOG_TABLE)
    .set({ status: 'delete' })
    .where('table_name', '=', table)
    .where('status', '=', 'success')
    .execute();
  ctx.logTitle = 'CRUD delete';
  return new Success(null, 'Deleted successfully!');
}

/** `checkCrudLog` (GET `table`, `connection`): the latest log entry of a table when it made a live module, else 0. */
async function checkCrudLog(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = ctx.query.table;
  if (typeof table !== 'string' || table === '') throw errors.parameterError();
  const row = (await ctx.app.db
    .selectFrom(LOG_TABLE)
    .select(['id', 'status'])
    .where('table_name', '=', table.slice(0, 200))
    .orderBy('id', 'desc')
    .executeTakeFirst());
  return { id: row && row.status === 'success' ? Number(row.id) : 0 };
}

/** BuildAdmin's guess of a column's design type from its SQL type and name. */
function designTypeOfColumn(name: string, dataType: string, autoIncrement: boolean): string {
  if (autoIncrement) return 'pk';
  if (name === 'weigh') return 'weigh';
  if (['create_time', 'update_time', 'createtime', 'updatetime'].includes(name)) return 'timestamp';
  if (/int/.test(dataType)) return /^(is_|has_)|status$|switch$/.test(name) ? 'switch' : 'number';
  if (/real|double|float|numeric|decimal/.test(dataType)) return 'float';
  if (dataType === 'text') return 'textarea';
  if (/image$|avatar$/.test(name)) return 'image';
  if (/images$/.test(name)) return 'images';
  if (/file$/.test(name)) return 'file';
  if (/icon$/.test(name)) return 'icon';
  return 'string';
}

/** A column in the shape of BuildAdmin's `parseTableColumns`. */
function column(values: {
  name: string;
  type: string;
  nullable: boolean;
  primaryKey: boolean;
  autoIncrement: boolean;
  comment: string;
  designType: string;
  default?: unknown;
}): Row {
  const hasDefault = values.default !== undefined && values.default !== null;
  return {
    name: values.name,
    type: values.type,
    dataType: values.type,
    default: hasDefault ? String(values.default) : '',
    defaultType: hasDefault ? 'INPUT' : values.nullable ? 'NULL' : 'NONE',
    null: values.nullable,
    primaryKey: values.primaryKey,
    unsigned: false,
    autoIncrement: values.autoIncrement,
    comment: values.comment,
    designType: values.designType,
    table: {},
    form: {},
  };
}

/** The columns of a running resource, its fields' titles as comments and enum labels in BuildAdmin's dictionary form. */
function columnsOfDefinition(ctx: RequestContext, definition: ResourceDefinition): Record<string, Row> {
  const columns: Record<string, Row> = {};
  for (const field of definition.fields) {
    if (!field.storage) continue;
    const title = field.title[ctx.lang];
    const options = field.ui.options
      ? Object.entries(field.ui.options).map(([value, label]) => `${value}=${label[ctx.lang]}`)
      : [];
    columns[field.name] = column({
      name: field.name,
      type: field.storage.type === 'varchar' ? `varchar(${field.storage.length ?? 255})` : field.storage.type,
      nullable: field.nullable,
      primaryKey: field.name === definition.primaryKey,
      autoIncrement: field.name === definition.primaryKey && field.wireType === 'integer',
      comment: options.length ? `${title}:${options.join(',')}` : title,
      designType: designTypeOf(definition, field),
      default: field.default === null || typeof field.default === 'object' ? undefined : field.default,
    });
  }
  return columns;
}

/**
 * `parseFieldData` (POST `type` = `db`, `table`): the columns of a table to start a design from — a
 * resource's from its schema, any other table's from the database's catalogue — its comment and whether it
 * holds rows. Starting from pasted SQL (`type` = `sql`) is refused: no SQL from a request is run here.
 */
async function parseFieldData(ctx: RequestContext) {
  requireCrudAccess(ctx);
  if (ctx.body.type !== 'db') throw errors.sqlStartRefused();
  const table = ctx.body.table;
  if (typeof table !== 'string' || table === '') throw errors.parameterError();
  ctx.logTitle = 'Parse field data';
  const definition = findResourceByTable(ctx.app, table);
  if (definition)
    return {
      columns: columnsOfDefinition(ctx, definition),
      comment: definition.title[ctx.lang],
      empty: await tableIsEmpty(ctx, definition.table),
    };
  if (isSystemTable(table)) throw errors.tableNotFound(table.slice(0, 100));
  const columns = await catalogColumns(ctx.app.handle, table);
  if (!columns) throw errors.tableNotFound(table.slice(0, 100));
  return {
    columns: Object.fromEntries(
      columns.map((item) => [
        item.name,
        column({
          name: item.name,
          type: item.dataType,
          nullable: item.nullable,
          primaryKey: item.primaryKey,
          autoIncrement: item.autoIncrement,
          comment: '',
          designType: designTypeOfColumn(item.name, item.dataType, item.autoIncrement && item.primaryKey),
        }),
      ]),
    ),
    comment: '',
    empty: await tableIsEmpty(ctx, table),
  };
}

/** Whether the designer can take a table as a module: a name it accepts, no other schema owning it or its controller. */
function isDesignable(ctx: RequestContext, table: string): boolean {
  try {
    checkTableName(table);
  } catch {
    return false;
  }
  const owner = findResourceByTable(ctx.app, table);
  if (owner) return owner.id === designedIdOf(table);
  const controller = ctx.app.controllers.find('admin', controllerOfTable(table));
  return controller === undefined;
}

/**
 * `designableTables` (ours, GET): the tables "start from an existing table" offers, each one the designer
 * can make a module of: the designed modules' tables (with their titles) and the database's tables no
 * schema declares. The platform's tables, its secrets and the tables other schemas own are never listed.
 */
async function designableTables(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const designed = [...ctx.app.resources.values()].filter(
    (definition) => definition.id === designedIdOf(definition.table),
  );
  const declared = new Set([...ctx.app.resources.values()].map((definition) => definition.table));
  const others = (await catalogTables(ctx.app.handle)).filter((table) => !declared.has(table) && !isSystemTable(table));
  const list = [
    ...designed.map((definition) => ({ table: definition.table, comment: definition.title[ctx.lang] })),
    ...others.map((table) => ({ table, comment: '' })),
  ]
    .filter((item) => isDesignable(ctx, item.table))
    .sort((a, b) => a.table.localeCompare(b.table));
  return { list };
}

/**
 * `generateCheck` (POST `table`): a clear refusal for a name that cannot be used, else code -1 with
 * `{table, controller}` when the table or the controller already exist (the screen then asks to go on).
 */
async function generateCheck(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = checkTableName(ctx.body.table);
  const owner = findResourceByTable(ctx.app, table);
  if (owner && owner.id !== designedIdOf(table)) throw errors.tableTaken(table, owner.id);
  ctx.logTitle = 'Generate check';
  const tableExists = (await catalogTables(ctx.app.handle)).includes(table);
  const controllerExists = ctx.app.controllers.find('admin', controllerOfTable(table)) !== undefined;
  if (tableExists || controllerExists) throw errors.generateConflict(table, tableExists, controllerExists);
  return null;
}

/** `getFileData` (GET `table`): BuildAdmin's file names; a designed module has none, its controller is named. */
async function getFileData(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = checkTableName(ctx.query.table);
  return {
    modelFile: '',
    controllerFile: controllerOfTable(table),
    validateFile: '',
    controllerFileList: {},
    modelFileList: {},
    webViewsDir: '',
  };
}

/** `databaseList`: the one connection every table lives on. */
async function databaseList(ctx: RequestContext) {
  requireCrudAccess(ctx);
  return {
    list: [{ type: ctx.app.handle.dialect === 'postgres' ? 'pgsql' : 'sqlite', database: CONNECTION, key: CONNECTION }],
  };
}

/** A version number of the query, or undefined when absent. */
function versionOf(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(String(value))) throw errors.parameterError();
  return Number(value);
}

/** The log entries holding the design of each version, by the version's id (the newest entry when several). */
async function designsOfVersions(ctx: RequestContext, table: string): Promise<Map<number, number>> {
  const rows = await ctx.app.db
    .selectFrom(LOG_TABLE)
    .select(['id', 'table'])
    .where('table_name', '=', table)
    .orderBy('id', 'asc')
    .execute();
  const found = new Map<number, number>();
  for (const row of rows) {
    const design = parseJson(row.table, {});
    const version =
      typeof design === 'object' && design !== null && VERSION_KEY in design ? design[VERSION_KEY] : undefined;
    if (typeof version === 'number') found.set(version, Number(row.id));
  }
  return found;
}

/**
 * `history` (ours, GET `table`): every version of a designed module, newest first, with who, when, the
 * diff from the version before (`diff`, for a machine) and the same as a list of changes in the reader's
 * language (`changes`), and `logId`: the log entry holding the design that made the version, which
 * `logStart` opens again to restore it. With `from` and `to` (version numbers) also the difference between
 * those two (`diff` and `changes`).
 */
async function history(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = checkTableName(ctx.query.table);
  const entries = await ctx.app.schemas.history(designedIdOf(table));
  const designs = await designsOfVersions(ctx, table);
  // each version against the one before it (the list is newest first)
  const list = entries.map((entry, index) => ({
    ...entry,
    changes: versionChanges(
      entries[index + 1]?.action === 'delete' ? null : (entries[index + 1]?.definition ?? null),
      entry.definition,
      ctx.t,
    ),
    logId: entry.action === 'delete' ? null : (designs.get(entry.id) ?? null),
  }));
  const [from, to] = [versionOf(ctx.query.from), versionOf(ctx.query.to)];
  if (from === undefined || to === undefined) return { list };
  const at = (version: number) => {
    const entry = list.find((item) => item.version === version);
    if (!entry) throw errors.recordNotFound();
    return entry.definition;
  };
  return { list, diff: schemaDiff(at(from), at(to)), changes: versionChanges(at(from), at(to), ctx.t) };
}

export const crudController: Controller = {
  name: 'crud.Crud',
  path: 'crud/crud',
  area: 'admin',
  actions: {
    generate,
    preview,
    logStart,
    delete: remove,
    checkCrudLog,
    parseFieldData,
    designableTables,
    generateCheck,
    getFileData,
    databaseList,
    history,
  },
  noNeedLogin: [],
  // checked in each action: any node of the generator (`requireCrudAccess`)
  noNeedPermission: [
    'preview',
    'logStart',
    'checkCrudLog',
    'parseFieldData',
    'designableTables',
    'generateCheck',
    'getFileData',
    'databaseList',
    'history',
  ],
};
