import { sql, type CompiledQuery } from 'kysely';
import type { ListData } from '../../contract/envelope.js';
import { valueLabel, type FieldDefinition, type ResourceDefinition, type Row } from '../../schema/definition.js';
import { createInputValidator, type ValidationResult, type WriteMode } from '../../schema/validate-input.js';
import { withinTransaction } from '../app-context.js';
import { dataLimitAdminIds } from '../auth/group-scope.js';
import { nowSeconds } from '../clock.js';
import { parseLocalDateTime } from '../../contract/site-time.js';
import { dynamicDb, type AnySelect, type DynamicDb, type DialectName } from '../db/connection.js';
import { rowFromStorage, rowToStorage, toStorage } from '../db/values.js';
import { completeRow } from '../db/seed.js';
import { errors } from '../errors.js';
import type { Operator, ResourceHooks, RowView, WriteContext } from './hooks.js';
import { parseListRequest, type Condition, type ListRequest } from './list-query.js';
import { recordRecycle, recordSensitiveChanges } from './security-events.js';

/**
 * The generic resource operations (contract §5), independent of HTTP: `index`, tree lists and select
 * options, read, add, edit, delete and sortable, each with the data limit and the resource's hooks.
 */

function applyConditions<Q extends AnySelect>(query: Q, conditions: Condition[]): Q {
  return conditions.reduce((current, condition) => current.where(condition) as Q, query);
}

const validators = new WeakMap<ResourceDefinition, (input: Row, mode: WriteMode) => ValidationResult>();

export function validateInput(definition: ResourceDefinition, input: Row, mode: WriteMode): Row {
  const result = inputValidatorOf(definition)(input, mode);
  if (!result.ok) throw errors.validation(result.issues[0]);
  return result.value;
}

/** The compiled input validator of a definition (once per definition). */
export function inputValidatorOf(definition: ResourceDefinition): ReturnType<typeof createInputValidator> {
  let validator = validators.get(definition);
  if (!validator) {
    validator = createInputValidator(definition);
    validators.set(definition, validator);
  }
  return validator;
}

/** Run `work` in a transaction, with an operator whose app reads through it (see `withinTransaction`). */
async function inTransaction<T>(operator: Operator, work: (scoped: Operator, trx: DynamicDb) => Promise<T>): Promise<T> {
  return dynamicDb(operator.app.db).transaction().execute((trx) => work({ ...operator, app: withinTransaction(operator.app, trx) }, trx));
}

/** Row filters from the data limit and the resource's own scope. */
async function accessConditions(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks): Promise<Condition[]> {
  const conditions: Condition[] = [];
  const limit = definition.dataLimit;
  if (limit && operator.identity?.area === 'admin') {
    const ids = await dataLimitAdminIds(dynamicDb(operator.app.db), operator.identity, limit.mode);
    if (ids) conditions.push((eb) => eb(eb.ref(limit.field), 'in', ids));
  }
  const scope = await hooks.scope?.(operator);
  if (scope) conditions.push(scope);
  return conditions;
}

/** Stored rows → wire rows: conversions, related rows under their relation names, then the hook. */
export async function presentRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, stored: Row[], view: RowView): Promise<Row[]> {
  const rows = stored.map((row) => rowFromStorage(definition, row));
  if (view !== 'edit') {
    for (const field of definition.fields) {
      const ref = field.ref;
      if (!ref?.as || ref.many || !field.storage) continue;
      const related = operator.app.resources.get(ref.resource);
      if (!related) continue;
      const keys = [...new Set(stored.map((row) => row[field.name]).filter((value) => value !== null && value !== undefined))];
      const found = keys.length ? ((await dynamicDb(operator.app.db).selectFrom(related.table).selectAll().where(ref.key, 'in', keys).execute()) as Row[]) : [];
      const byKey = new Map(found.map((row) => [String(row[ref.key]), rowFromStorage(related, row)]));
      rows.forEach((row, index) => {
        row[ref.as as string] = byKey.get(String(stored[index][field.name])) ?? null;
      });
    }
  }
  return hooks.present ? hooks.present(operator, rows, view) : rows;
}

async function remarkOf(operator: Operator, definition: ResourceDefinition, lang: (key: string) => string): Promise<string> {
  const path = definition.menu?.name ?? definition.controllerPath;
  if (!path) return '';
  const read = async () => {
    const row = (await dynamicDb(operator.app.db)
      .selectFrom('admin_rule')
      .select('remark')
      .where(sql`lower(name)`, 'in', [path.toLowerCase(), `${path.toLowerCase()}/index`])
      .where('remark', '<>', '')
      .executeTakeFirst()) as { remark: string } | undefined;
    return row?.remark ?? '';
  };
  const { identity } = operator;
  const remark = identity?.area === 'admin' && identity.revision !== undefined ? await operator.app.identities.remarkOf(identity.revision, path, read) : await read();
  return remark ? lang(remark) : '';
}

export interface ListOptions {
  view?: RowView;
  timeZone: string;
  translate: (key: string) => string;
}

/**
 * The two statements of a list page: the total, and the page's rows in order. With a quick search the
 * count also reads the table's largest key (`top`, for `walksOrderIndex`); when SQLite's text indexes
 * give the matching keys and nothing else filters, it counts them alone (every key there is a row).
 */
export function listQueries(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): { count: AnySelect; page: AnySelect } {
  const match = request.textMatch;
  const keys = match?.keys;
  const counted = keys && conditions.length === 1 && conditions[0] === match.condition ? db.selectFrom(keys.ids(db).as('matched')) : applyConditions(db.selectFrom(definition.table), conditions);
  let count = counted.select((eb) => eb.fn.countAll().as('total'));
  if (match) count = count.select((eb) => eb.selectFrom(definition.table).select((inner) => inner.fn.max(definition.primaryKey).as('top')).as('top'));
  return { count, page: pageQuery(db, definition, request, conditions) };
}

/** The page's rows in the request's order. */
function pageQuery(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): AnySelect {
  return requestedPage(applyConditions(db.selectFrom(definition.table).selectAll(), conditions), request);
}

/** `rows` in the request's order, cut to its page. */
function requestedPage(rows: AnySelect, request: ListRequest): AnySelect {
  let page = rows;
  for (const term of request.order) page = page.orderBy(term.field, term.direction);
  return page.limit(request.limit).offset(offsetOf(request));
}

function offsetOf(request: ListRequest): number {
  return request.all ? 0 : (request.page - 1) * request.limit;
}

/**
 * The page of a quick search that matched `matches` of about `rows` rows, read the cheaper way; none
 * when the cheaper way is the list's own page statement:
 *   - SQLite: the list's own reads every match by key from the text indexes, then sorts; the other walks
 *     the order's index, testing each row's key (`keys.walking`), until the page is full.
 *   - PostgreSQL: the planner picks one of the same two ways for the list's own statement by its estimate
 *     of the matches, which for a rare term hangs on the rows ANALYZE happened to sample: on 100,000
 *     rows, 2 runs of ANALYZE in 40 made a term of 100 matches walk 6,900 rows (19 ms instead of 1 ms).
 *     A page of few matches is read behind a fence instead (a materialized CTE: every match, then
 *     sorted); a page of many keeps the list's own statement, which the planner walks.
 */
export function quickSearchPage(db: DynamicDb, dialect: DialectName, definition: ResourceDefinition, request: ListRequest, conditions: Condition[], matches: number, rows: number): AnySelect | undefined {
  const walk = walksOrderIndex(dialect, matches, request.page * request.limit, rows);
  if (dialect === 'postgres') return walk ? undefined : matchesThenSorted(db, definition, request, conditions);
  const match = request.textMatch;
  const keys = match?.keys;
  if (!walk || !keys) return undefined;
  return pageQuery(db, definition, request, conditions.map((condition) => (condition === match.condition ? keys.walking : condition)));
}

/** The page read from every matching row, then sorted: the matches are a materialized CTE, which PostgreSQL plans apart. */
function matchesThenSorted(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): AnySelect {
  const matched = db.with((cte) => cte('matched').materialized(), (inner) => applyConditions(inner.selectFrom(definition.table).selectAll(), conditions));
  return requestedPage(matched.selectFrom('matched').selectAll(), request);
}

/**
 * Whether a page of `wanted` rows is cheaper read by walking the order's index, testing each row and
 * stopping once `wanted` matched, than by reading and sorting every match. The walk tests about
 * wanted × rows / matches rows; the other reads and sorts every match, which costs on 100,000 rows:
 *   - SQLite: 6 times an entry walked (0.3 µs against 0.05 µs: the walk tests the key only);
 *   - PostgreSQL: about one row walked (2.9 µs against 2.7 µs: the walk reads the row and tests ILIKE).
 */
const SORTED_MATCH_COST: Record<DialectName, number> = { sqlite: 6, postgres: 1 };

function walksOrderIndex(dialect: DialectName, matches: number, wanted: number, rows: number): boolean {
  return matches * matches * SORTED_MATCH_COST[dialect] > wanted * rows;
}

type CountRow = { total: number | string; top?: number | null };

async function countAndPage(operator: Operator, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): Promise<[number, Row[]]> {
  const db = dynamicDb(operator.app.db);
  const dialect = operator.app.handle.dialect;
  if (request.textMatch && !request.all) {
    // A quick search: the count first, which settles how the page is read. The largest key stands for
    // the number of rows (deleted rows only make it larger: fewer walks).
    const { count, page } = listQueries(db, definition, request, conditions);
    const counted = (await count.executeTakeFirst()) as CountRow;
    const total = Number(counted.total);
    const read = (total > 0 ? quickSearchPage(db, dialect, definition, request, conditions, total, Number(counted.top ?? 0)) : undefined) ?? page;
    return [total, (await read.execute()) as Row[]];
  }
  const { count, page } = compiledListQueries(db, definition, request, conditions);
  // Side by side on PostgreSQL, where each takes its own pooled connection; one after the other on
  // SQLite's single connection, where the second would only wait for the first.
  if (dialect === 'postgres') {
    const [counted, stored] = await Promise.all([db.executeQuery<CountRow>(count), db.executeQuery<Row>(page)]);
    return [Number(counted.rows[0].total), stored.rows];
  }
  const [counted] = (await db.executeQuery<CountRow>(count)).rows;
  return [Number(counted.total), (await db.executeQuery<Row>(page)).rows];
}

/** Unfiltered lists' statements by database, resource and order (`JSON` of the order's terms: a few per resource, its sortable columns each way). */
const unfilteredLists = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, Map<string, { count: CompiledQuery; page: CompiledQuery }>>>();

/**
 * A list request's two statements, compiled. An unfiltered list (opening a list, paging through it: what
 * a back office asks most) has the same statements at every page, compiled once per resource and order;
 * the request only puts in its limit and offset, their only parameters.
 */
function compiledListQueries(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): { count: CompiledQuery; page: CompiledQuery } {
  if (conditions.length > 0) {
    const { count, page } = listQueries(db, definition, request, conditions);
    return { count: count.compile(), page: page.compile() };
  }
  let byDefinition = unfilteredLists.get(db);
  if (!byDefinition) unfilteredLists.set(db, (byDefinition = new WeakMap()));
  let byOrder = byDefinition.get(definition);
  if (!byOrder) byDefinition.set(definition, (byOrder = new Map()));
  const order = JSON.stringify(request.order);
  let compiled = byOrder.get(order);
  if (!compiled) {
    const { count, page } = listQueries(db, definition, request, conditions);
    compiled = { count: count.compile(), page: page.limit(-1).offset(-2).compile() };
    if (compiled.page.parameters.join() !== '-1,-2') throw new Error(`list of ${definition.id}: unexpected parameters ${compiled.page.parameters.join()}`);
    byOrder.set(order, compiled);
  }
  return { count: compiled.count, page: { ...compiled.page, parameters: [request.limit, offsetOf(request)] } };
}

/** `index`: a page of rows with the total and the menu remark. */
export async function listRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions): Promise<ListData<Row>> {
  const request = parseListRequest(operator.app, definition, query, options.timeZone);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  const [total, stored] = await countAndPage(operator, definition, request, conditions);
  return {
    list: await presentRows(operator, definition, hooks, stored, options.view ?? 'list'),
    total,
    remark: await remarkOf(operator, definition, options.translate),
  };
}

/**
 * Every row of a filtered list in its order, page by page (the CSV export): the list's search, quick
 * search, order and data limit, without its paging.
 */
export async function* allListRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions, pageSize = 500): AsyncGenerator<Row[]> {
  const request = parseListRequest(operator.app, definition, { ...query, page: 1, limit: pageSize }, options.timeZone);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  for (let page = 1; ; page++) {
    const stored = (await pageQuery(dynamicDb(operator.app.db), definition, { ...request, page, all: false }, conditions).execute()) as Row[];
    if (stored.length > 0) yield await presentRows(operator, definition, hooks, stored, 'list');
    if (stored.length < pageSize) return;
  }
}

/** Every row in order, for tree resources: nested by the parent field when no filter is applied. */
export async function treeRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions & { nest: boolean }): Promise<Row[]> {
  const tree = definition.list.tree;
  const request = parseListRequest(operator.app, definition, { ...query, page: undefined, limit: undefined }, options.timeZone);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  let listQuery = applyConditions(dynamicDb(operator.app.db).selectFrom(definition.table).selectAll(), conditions);
  for (const term of definition.list.defaultSort) listQuery = listQuery.orderBy(term.field, term.direction);
  const rows = await presentRows(operator, definition, hooks, (await listQuery.execute()) as Row[], options.view ?? 'list');
  if (!tree || !options.nest || request.conditions.length > 0) return rows;
  // As BuildAdmin's Tree::assembleChild: every top-level node carries `children`, possibly empty (§6.2).
  return nestRows(rows, definition.primaryKey, tree.parentField).map((root) => ({ ...root, children: root.children ?? [] }));
}

/** Assemble rows into `children` by parent id; rows whose parent is not present become roots. */
export function nestRows(rows: Row[], key: string, parentField: string): Row[] {
  const byId = new Map(rows.map((row) => [String(row[key]), { ...row } as Row]));
  const roots: Row[] = [];
  for (const row of rows) {
    const node = byId.get(String(row[key])) as Row;
    const parent = byId.get(String(row[parentField]));
    if (parent && parent !== node) ((parent.children ??= []) as Row[]).push(node);
    else roots.push(node);
  }
  return roots;
}

/** A nested tree flattened in display order, the label prefixed with box-drawing glyphs by depth. */
export function flattenTree(nodes: Row[], labelField: string, depth = 0, ancestorsLast: boolean[] = []): Row[] {
  return nodes.flatMap((node, index) => {
    const last = index === nodes.length - 1;
    const { children, ...row } = node;
    if (depth > 0) {
      const rails = ancestorsLast.slice(1).map((ancestorLast) => (ancestorLast ? '    ' : '│   ')).join('');
      row[labelField] = `${'    '}${rails}${last ? '└' : '├'}${String(row[labelField])}`;
    }
    const below = Array.isArray(children) ? flattenTree(children as Row[], labelField, depth + 1, [...ancestorsLast, last]) : [];
    return [row, ...below];
  });
}

async function findStored(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown): Promise<Row> {
  const db = dynamicDb(operator.app.db);
  const key = definition.fields.find((field) => field.name === definition.primaryKey) as FieldDefinition;
  if (id === undefined || id === null || id === '' || typeof id === 'object') throw errors.parameterEmpty(definition.primaryKey);
  if (key.wireType === 'integer' && !/^\d{1,15}$/.test(String(id))) throw errors.recordNotFound();
  const row = (await db.selectFrom(definition.table).selectAll().where(definition.primaryKey, '=', toStorage(key, id)).executeTakeFirst()) as Row | undefined;
  if (!row) throw errors.recordNotFound();
  const conditions = await accessConditions(operator, definition, hooks);
  if (conditions.length) {
    const visible = await applyConditions(db.selectFrom(definition.table).select(definition.primaryKey), conditions)
      .where(definition.primaryKey, '=', row[definition.primaryKey])
      .executeTakeFirst();
    if (!visible) throw errors.noPermission();
  }
  return row;
}

/** `edit` GET: one row for the form. */
export async function readRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown): Promise<Row> {
  const stored = await findStored(operator, definition, hooks, id);
  const [row] = await presentRows(operator, definition, hooks, [stored], 'edit');
  return row;
}

/** `x-unique` fields: no other row may hold the same non-empty value. */
export async function checkUnique(trx: DynamicDb, definition: ResourceDefinition, values: Row, id?: unknown): Promise<void> {
  for (const field of definition.fields) {
    if (!field.unique || !field.storage || !(field.name in values)) continue;
    const value = values[field.name];
    if (value === '' || value === null || value === undefined) continue;
    let query = trx.selectFrom(definition.table).select(definition.primaryKey).where(field.name, '=', toStorage(field, value));
    if (id !== undefined) query = query.where(definition.primaryKey, '<>', id);
    if (await query.executeTakeFirst()) throw errors.alreadyExists(field.title, field.name);
  }
}

/**
 * Required references (a survey's provider, a member's group) must name a row that exists: an id typed
 * or kept from a deleted row would otherwise be saved and shown as a bare number.
 */
async function checkReferences(operator: Operator, trx: DynamicDb, definition: ResourceDefinition, values: Row): Promise<void> {
  const required = (definition.rowSchema.required ?? []) as string[];
  for (const field of definition.fields) {
    const ref = field.ref;
    if (!ref || ref.many || !field.storage || !required.includes(field.name) || !(field.name in values)) continue;
    const related = operator.app.resources.get(ref.resource);
    const keyField = related?.fields.find((candidate) => candidate.name === ref.key);
    if (!related || !keyField) continue;
    const found = await trx.selectFrom(related.table).select(ref.key).where(ref.key, '=', toStorage(keyField, values[field.name])).executeTakeFirst();
    if (!found) throw errors.referenceMissing(field.title, field.name);
  }
}

function checkTransitions(definition: ResourceDefinition, existing: Row, values: Row): void {
  for (const field of definition.fields) {
    if (!field.transitions || !(field.name in values)) continue;
    const from = String(existing[field.name]);
    const to = String(values[field.name]);
    if (from === to) continue;
    if (!(field.transitions[from] ?? []).includes(to)) throw errors.invalidTransition(field.title, valueLabel(field, from), valueLabel(field, to));
  }
}

/** `add`: validate, hooks, insert, in one transaction. Returns the new row's id. */
export async function addRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, input: Row): Promise<number | string> {
  if (Object.keys(input).length === 0) throw errors.parameterEmpty();
  const values = validateInput(definition, input, 'add');
  return inTransaction(operator, async (scoped, trx) => {
    const write: WriteContext = { mode: 'add', definition, values, trx };
    await checkReferences(scoped, trx, definition, values);
    await checkUnique(trx, definition, values);
    await hooks.beforeWrite?.(scoped, write);
    const limit = definition.dataLimit;
    if (limit && operator.identity?.area === 'admin' && limit.field !== definition.primaryKey && !(limit.field in write.values)) {
      write.values[limit.field] = operator.identity.id;
    }
    const row = completeRow(definition, write.values);
    delete row[definition.primaryKey];
    if (definition.primaryKey in write.values) row[definition.primaryKey] = write.values[definition.primaryKey];
    const inserted = (await trx.insertInto(definition.table).values(row).returning(definition.primaryKey).executeTakeFirst()) as Row | undefined;
    if (!inserted) throw errors.noRowsAdded();
    write.id = inserted[definition.primaryKey] as number | string;
    await hooks.afterWrite?.(scoped, write);
    return write.id;
  });
}

/** `edit` POST: only supplied columns change; unknown and read-only keys are ignored. */
export async function editRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, input: Row): Promise<void> {
  const id = input[definition.primaryKey];
  return inTransaction(operator, async (scoped, trx) => {
    const existing = await findStored(scoped, definition, hooks, id);
    const values = validateInput(definition, input, 'edit');
    const write: WriteContext = { mode: 'edit', definition, values, existing, id: existing[definition.primaryKey] as number | string, trx };
    checkTransitions(definition, rowFromStorage(definition, existing), values);
    await checkReferences(scoped, trx, definition, values);
    await checkUnique(trx, definition, values, existing[definition.primaryKey]);
    await hooks.beforeWrite?.(scoped, write);
    const changes = rowToStorage(definition, write.values);
    delete changes[definition.primaryKey];
    await recordSensitiveChanges(scoped, trx, definition, existing, changes);
    const stamp = definition.timestamps.update;
    let update = trx.updateTable(definition.table).where(definition.primaryKey, '=', existing[definition.primaryKey]);
    if (stamp) {
      const loaded = loadedUpdateTime(input[stamp], await scoped.app.config.timeZone());
      const current = Number(existing[stamp] ?? 0);
      if (loaded !== undefined && loaded !== current) throw errors.staleRecord(current);
      // The guard holds against a save that commits between the read above and this write, too.
      if (loaded !== undefined) update = update.where(stamp, existing[stamp] === null ? 'is' : '=', existing[stamp] ?? null);
      // Each save moves the time on, so a form loaded in the same second as another save still sees it.
      changes[stamp] = Math.max(nowSeconds(), current + 1);
    }
    if (Object.keys(changes).length > 0) {
      const result = await update.set(changes).executeTakeFirst();
      if (stamp && Number(result.numUpdatedRows) === 0) throw errors.staleRecord(Number(existing[stamp] ?? 0));
    }
    await hooks.afterWrite?.(scoped, write);
  });
}

/**
 * The `update_time` an edit form loaded (seconds, or the wall-clock text in the site's zone), so a save
 * over someone else's is refused; undefined when the client sent none (BuildAdmin's forms may not).
 */
function loadedUpdateTime(value: unknown, timeZone: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return typeof value === 'string' ? parseLocalDateTime(value, timeZone) : undefined;
}

/** `del`: rows within the data limit are snapshotted to the recycle bin, then deleted. */
export async function deleteRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, ids: unknown): Promise<number> {
  const key = definition.fields.find((field) => field.name === definition.primaryKey) as FieldDefinition;
  const list = Array.isArray(ids) ? ids : undefined;
  if (!list || list.length === 0 || list.length > 1000 || list.some((id) => id === null || typeof id === 'object' || String(id).length > 64)) throw errors.parameterError();
  const wanted = list.filter((id) => key.wireType !== 'integer' || /^\d{1,15}$/.test(String(id))).map((id) => toStorage(key, id));
  if (wanted.length === 0) return 0;
  return inTransaction(operator, async (scoped, trx) => {
    const conditions = await accessConditions(scoped, definition, hooks);
    const rows = (await applyConditions(trx.selectFrom(definition.table).selectAll(), conditions)
      .where(definition.primaryKey, 'in', wanted)
      .execute()) as Row[];
    const remove = { definition, rows, trx };
    const targets = hooks.beforeDelete ? await hooks.beforeDelete(scoped, remove) : rows;
    if (targets.length === 0) return 0;
    await recordRecycle(scoped, trx, definition, hooks, targets);
    const result = await trx.deleteFrom(definition.table).where(definition.primaryKey, 'in', targets.map((row) => row[definition.primaryKey])).executeTakeFirst();
    await hooks.afterDelete?.(scoped, { ...remove, rows: targets });
    return Number(result.numDeletedRows);
  });
}

/** `sortable`: swap the weigh of two rows. */
export async function sortRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown, targetId: unknown): Promise<void> {
  const weigh = definition.list.weighField;
  if (!weigh) throw errors.parameterError();
  await inTransaction(operator, async (scoped, trx) => {
    const row = await findStored(scoped, definition, hooks, id);
    const target = await findStored(scoped, definition, hooks, targetId);
    if (Number(row[weigh]) === Number(target[weigh])) throw errors.sortWeightsEqual();
    const update = (key: unknown, value: unknown) => trx.updateTable(definition.table).set({ [weigh]: value }).where(definition.primaryKey, '=', key).execute();
    await update(row[definition.primaryKey], target[weigh]);
    await update(target[definition.primaryKey], row[weigh]);
  });
}
