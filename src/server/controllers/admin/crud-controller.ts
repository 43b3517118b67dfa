import { sql } from 'kysely';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { claimedRuleNames, menuNameOf, SchemaError } from '../../../schema/normalise.js';
import { findResourceByTable } from '../../app-context.js';
import { allows } from '../../auth/identity.js';
import { nowSeconds } from '../../clock.js';
import { checkTableName, controllerOfTable, designedIdOf, designToSchema, designTypeOf, readDesign } from '../../crud/design-schema.js';
import { isSystemTable } from '../../db/system-tables.js';
import { dynamicDb } from '../../db/connection.js';
import { catalogColumns, catalogTables } from '../../db/table-catalog.js';
import { DestructiveMigrationError } from '../../db/migrate.js';
import { errors, Success } from '../../errors.js';
import { clientDefinition } from '../../resources/client-definitions.js';
import { recordRecycle } from '../../resources/security-events.js';
import { schemaDiff, type SchemaActor } from '../../schema-registry.js';
import type { Controller, RequestContext } from '../../http/controller.js';
import { DESIGNER_NODES } from '../../crud/designer-nodes.js';

/**
 * `crud.Crud/*`: BuildAdmin's CRUD generator, answered in its shapes, generating a schema instead of
 * code. `generate` makes the designed module live through the schema registry (on every process);
 * `delete` takes it away again (its table stays unless `dropTable`); the rest are the calls its start,
 * design and log screens make. Its log (`crud.Log`) is an ordinary resource.
 */

const CONNECTION = 'default';
const LOG_TABLE = 'crud_log';

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
    const held = new Set(((await ctx.app.db.selectFrom('admin_rule').select('name').execute()) as { name: string }[]).map((rule) => rule.name.toLowerCase()));
    if (claimedRuleNames(raw).some((name) => held.has(name))) throw errors.controllerTaken(controllerName, menuName);
  }
  return { raw, design };
}

/** Registry refusals as translated messages: an invalid schema, or a change that would lose data. */
async function throughRegistry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SchemaError) throw errors.designInvalid(error.message);
    if (error instanceof DestructiveMigrationError) {
      throw errors.designDestructive(error.problems);
    }
    throw error;
  }
}

/**
 * `preview` (ours): the schema a design gives, its definition as the back office draws screens from it
 * (the designer's live preview), and the migration it implies, nothing applied.
 */
async function preview(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const { raw } = await schemaOfDesign(ctx);
  const change = await throughRegistry(() => ctx.app.schemas.preview(raw));
  return { schema: raw, definition: clientDefinition(change.definitions[0]), migration: change.migration };
}

/**
 * `generate` (POST `type`, `table`, `fields`): the module is live when this answers. A step that could lose
 * data (a dropped column, a narrower type) is refused unless the design confirms it (`table.rebuild` =
 * `Yes`, as BuildAdmin's "rebuild the table" does, or `confirm`).
 */
async function generate(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const { raw, design } = await schemaOfDesign(ctx);
  const confirmed = isTruthy(design.table.rebuild) || isTruthy(ctx.body.confirm);
  const change = await throughRegistry(() => ctx.app.schemas.apply(raw, actorOf(ctx), { allowDestructive: confirmed }));
  const { name: _name, ...tableRest } = ctx.body.table as Row;
  await ctx.app.db
    .insertInto(LOG_TABLE)
    .values({ table_name: design.table.name, table: JSON.stringify({ ...tableRest, name: design.table.name }), fields: JSON.stringify(ctx.body.fields), status: 'success', connection: CONNECTION, create_time: nowSeconds() })
    .execute();
  ctx.logTitle = 'CRUD generate';
  return new Success({ id: raw.$id, schema: raw, migration: change.migration, applied: change.applied });
}

async function logEntry(ctx: RequestContext): Promise<Row> {
  const id = ctx.params.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw errors.parameterError();
  if (!/^\d{1,15}$/.test(String(id))) throw errors.recordNotFound();
  const row = (await ctx.app.db.selectFrom(LOG_TABLE).selectAll().where('id', '=', Number(id)).executeTakeFirst()) as Row | undefined;
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
  return (await dynamicDb(ctx.app.db).selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst()) === undefined;
}

/** `logStart` (POST `id`): an earlier design from the log, with whether its table holds rows. */
async function logStart(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const row = await logEntry(ctx);
  const table = parseJson(row.table, {}) as Row;
  ctx.logTitle = 'Log start';
  return { table: { ...table, empty: await tableIsEmpty(ctx, String(row.table_name)) }, fields: parseJson(row.fields, []) };
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
  const operator = { app: ctx.app, identity: ctx.identity, ip: ctx.ip, userAgent: ctx.userAgent, t: ctx.t, lang: ctx.lang };
  if (!(await ctx.app.schemas.designs()).some((design) => design.id === id)) throw errors.noDesignedModule(table);
  await throughRegistry(() =>
    ctx.app.schemas.remove(id, actorOf(ctx), {
      dropTable,
      beforeDrop: async (trx, definition) => {
        const rows = (await dynamicDb(trx).selectFrom(definition.table).selectAll().execute()) as Row[];
        await recordRecycle({ ...operator, app: { ...ctx.app, db: trx } }, trx, definition, {}, rows);
      },
    }),
  );
  await ctx.app.db.updateTable(LOG_TABLE).set({ status: 'delete' }).where('table_name', '=', table).where('status', '=', 'success').execute();
  ctx.logTitle = 'CRUD delete';
  return new Success(null, 'Deleted successfully!');
}

/** `checkCrudLog` (GET `table`, `connection`): the latest log entry of a table when it made a live module, else 0. */
async function checkCrudLog(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = ctx.query.table;
  if (typeof table !== 'string' || table === '') throw errors.parameterError();
  const row = (await ctx.app.db.selectFrom(LOG_TABLE).select(['id', 'status']).where('table_name', '=', table.slice(0, 200)).orderBy('id', 'desc').executeTakeFirst()) as { id: number; status: string } | undefined;
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
function column(values: { name: string; type: string; nullable: boolean; primaryKey: boolean; autoIncrement: boolean; comment: string; designType: string; default?: unknown }): Row {
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
    const options = field.ui.options ? Object.entries(field.ui.options).map(([value, label]) => `${value}=${label[ctx.lang]}`) : [];
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
  if (definition) return { columns: columnsOfDefinition(ctx, definition), comment: definition.title[ctx.lang], empty: await tableIsEmpty(ctx, definition.table) };
  if (isSystemTable(table)) throw errors.tableNotFound(table.slice(0, 100));
  const columns = await catalogColumns(ctx.app.handle, table);
  if (!columns) throw errors.tableNotFound(table.slice(0, 100));
  return {
    columns: Object.fromEntries(
      columns.map((item) => [item.name, column({ name: item.name, type: item.dataType, nullable: item.nullable, primaryKey: item.primaryKey, autoIncrement: item.autoIncrement, comment: '', designType: designTypeOfColumn(item.name, item.dataType, item.autoIncrement && item.primaryKey) })]),
    ),
    comment: '',
    empty: await tableIsEmpty(ctx, table),
  };
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
  return { modelFile: '', controllerFile: controllerOfTable(table), validateFile: '', controllerFileList: {}, modelFileList: {}, webViewsDir: '' };
}

/** `databaseList`: the one connection every table lives on. */
async function databaseList(ctx: RequestContext) {
  requireCrudAccess(ctx);
  return { list: [{ type: ctx.app.handle.dialect === 'postgres' ? 'pgsql' : 'sqlite', database: CONNECTION, key: CONNECTION }] };
}

/** A version number of the query, or undefined when absent. */
function versionOf(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(String(value))) throw errors.parameterError();
  return Number(value);
}

/**
 * `history` (ours, GET `table`): every version of a designed module, newest first, with who, when and the
 * diff from the version before; with `from` and `to` (version numbers) also the diff between those two.
 */
async function history(ctx: RequestContext) {
  requireCrudAccess(ctx);
  const table = checkTableName(ctx.query.table);
  const list = await ctx.app.schemas.history(designedIdOf(table));
  const [from, to] = [versionOf(ctx.query.from), versionOf(ctx.query.to)];
  if (from === undefined || to === undefined) return { list };
  const at = (version: number) => {
    const entry = list.find((item) => item.version === version);
    if (!entry) throw errors.recordNotFound();
    return entry.definition;
  };
  return { list, diff: schemaDiff(at(from), at(to)) };
}

export const crudController: Controller = {
  name: 'crud.Crud',
  path: 'crud/crud',
  area: 'admin',
  actions: { generate, preview, logStart, delete: remove, checkCrudLog, parseFieldData, generateCheck, getFileData, databaseList, history },
  noNeedLogin: [],
  // checked in each action: any node of the generator (`requireCrudAccess`)
  noNeedPermission: ['preview', 'logStart', 'checkCrudLog', 'parseFieldData', 'generateCheck', 'getFileData', 'databaseList', 'history'],
};
