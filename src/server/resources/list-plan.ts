import { sql, type CompiledQuery } from 'kysely';
import type { ResourceDefinition } from '../../schema/definition.js';
import type { AnySelect, DynamicDb, DialectName } from '../db/connection.js';
import { ROW_COUNT_DELTA_TABLE, ROW_COUNT_TABLE, VALUE_COUNT_DELTA_TABLE, VALUE_COUNT_TABLE } from '../db/system-tables.js';
import { countedColumns } from '../db/value-counter.js';
import { applyConditions } from './access.js';
import { BoundedMap } from '../bounded-map.js';
import type { Condition } from '../db/condition.js';
import type { ListRequest } from './list-query.js';
import { indexGivesOrder } from './order-index.js';

/**
 * How a list page is read: its statements, and for a quick search which of two ways reads the page
 * cheaper. The costs below were measured with `npm run bench:api` on 100,000 rows; change them only
 * with a new measurement. tests/unit/resources/list-plan.test.ts pins the choices.
 */

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
export function pageQuery(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): AnySelect {
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

/** The column in which `combinedQuickSearch` gives the total beside each row of the page. */
export const COMBINED_TOTAL = '__list_total';

/**
 * A quick search's page and its total in one statement, the matches found once for both (the count
 * and the page would otherwise each search the text indexes), read the way `walk` says
 * (`walksOrderIndex`). Only for a quick search that is the list's only condition; each row carries the
 * total in `COMBINED_TOTAL`, so a page past the last match tells no total. None when not applicable:
 *   - SQLite: the matching keys from the text indexes, materialized; the page reads them by key then
 *     sorts, or walks the order's index testing each row's key;
 *   - PostgreSQL, reading every match (not `walk`): the matching rows materialized, counted and sorted.
 *     Its walk is the list's own statement, which needs the count beside it, not inside it.
 */
function combinedQuickSearch(db: DynamicDb, dialect: DialectName, definition: ResourceDefinition, request: ListRequest, conditions: Condition[], walk: boolean): AnySelect | undefined {
  const match = request.textMatch;
  if (!match || request.all || conditions.length !== 1 || conditions[0] !== match.condition) return undefined;
  if (definition.fields.some((field) => field.name === COMBINED_TOTAL)) return undefined;
  if (dialect === 'postgres') {
    if (walk) return undefined;
    const matched = db.with((cte) => cte('matched').materialized(), (inner) => applyConditions(inner.selectFrom(definition.table).selectAll(), conditions));
    return requestedPage(
      matched
        .selectFrom('matched')
        .selectAll('matched')
        .select((eb) => eb.selectFrom('matched').select((inner) => inner.fn.countAll().as('total')).as(COMBINED_TOTAL)),
      request,
    );
  }
  const keys = match.keys;
  if (!keys) return undefined;
  const matched = db.with((cte) => cte('matched(key)').materialized(), (inner) => keys.ids(inner));
  const key = walk ? sql`+${sql.ref(definition.primaryKey)}` : sql.ref(definition.primaryKey);
  return requestedPage(
    matched
      .selectFrom(definition.table)
      .selectAll(definition.table)
      .select((eb) => eb.selectFrom('matched').select((inner) => inner.fn.countAll().as('total')).as(COMBINED_TOTAL))
      .where((eb) => eb(key, 'in', eb.selectFrom('matched').select('key'))),
    request,
  );
}

/** Combined quick-search statements by database, resource, way of reading and the request's shape. */
const combinedLists = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, BoundedMap<string, CompiledQuery | null>>>();

/** `combinedQuickSearch` compiled once per shape and way of reading, the request putting in its limit and offset. */
export function compiledCombinedQuickSearch(db: DynamicDb, dialect: DialectName, definition: ResourceDefinition, request: ListRequest, conditions: Condition[], walk: boolean): CompiledQuery | undefined {
  if (!request.textMatch || request.all || conditions.length !== 1 || conditions[0] !== request.textMatch.condition) return undefined;
  const compiled = compiledOnce(combinedLists, db, definition, `${walk ? 'walk' : 'sort'}:${request.shape}`, FILTERED_SHAPES, () => {
    const combined = combinedQuickSearch(db, dialect, definition, request, conditions, walk);
    return combined ? (pagingLast(combined.limit(-1).offset(-2).compile()) ?? null) : null;
  });
  return compiled ? withPaging(compiled, request) : undefined;
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

export function walksOrderIndex(dialect: DialectName, matches: number, wanted: number, rows: number): boolean {
  return matches * matches * SORTED_MATCH_COST[dialect] > wanted * rows;
}

/**
 * The exact total of an unfiltered list: the table's row count the database keeps (db/row-counter.ts),
 * one lookup however many rows; no row when the table's counter is not made yet (then count).
 */
function rowCountQuery(db: DynamicDb, definition: ResourceDefinition): AnySelect {
  // The count row plus the changes not folded into it yet (PostgreSQL's; none on SQLite).
  const pending = db.selectFrom(ROW_COUNT_DELTA_TABLE).where('table_name', '=', definition.table).select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('delta'), eb.lit(0)).as('delta'));
  return db
    .selectFrom(ROW_COUNT_TABLE)
    .where('table_name', '=', definition.table)
    .select((eb) => eb(eb.ref('row_total'), '+', pending).as('total'));
}

/**
 * The exact total of a list filtered to one declared value of a column counted per value
 * (db/value-counter.ts): the count the database keeps for the value, one lookup however many rows hold
 * it; no row when the column's counter is not made yet (then count). None when the list filters
 * otherwise, or by a value its schema does not declare: the column may hold that value, and the kept
 * counts only know the declared ones for sure.
 */
function valueCountQuery(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): AnySelect | undefined {
  const equals = request.equals;
  if (!equals || conditions.length !== 1 || conditions[0] !== equals.condition) return undefined;
  const value = String(equals.value);
  if (!countedColumns(definition).some((column) => column.name === equals.column && column.values.includes(value))) return undefined;
  const key = { table_name: definition.table, column_name: equals.column, value };
  const matching = <Q extends AnySelect>(query: Q) => query.where('table_name', '=', key.table_name).where('column_name', '=', key.column_name).where('value', '=', key.value) as Q;
  // The count row plus the changes not folded into it yet (PostgreSQL's; none on SQLite).
  const pending = matching(db.selectFrom(VALUE_COUNT_DELTA_TABLE)).select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('delta'), eb.lit(0)).as('delta'));
  return matching(db.selectFrom(VALUE_COUNT_TABLE)).select((eb) => eb(eb.ref('row_total'), '+', pending).as('total'));
}

/** Unfiltered lists' statements by database, resource and order (`JSON` of the order's terms: a few per resource, its sortable columns each way). */
const unfilteredLists = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, Map<string, { count: CompiledQuery; page: CompiledQuery }>>>();

/**
 * Filtered lists' statements by database, resource and the request's shape, the shapes used longest ago
 * forgotten first. A shape holds the search's terms and values (an id list of any length among them), so
 * an operator typing searches makes a new one each time: kept per resource, 200 of them (each a count and
 * a page statement, a few kilobytes) are under a megabyte, and still hold the searches being paged through.
 */
const FILTERED_SHAPES = 200;
const filteredLists = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, BoundedMap<string, { count: CompiledQuery; page: CompiledQuery }>>>();

function compiledOnce<T>(cache: WeakMap<DynamicDb, WeakMap<ResourceDefinition, BoundedMap<string, T>>>, db: DynamicDb, definition: ResourceDefinition, key: string, limit: number, compile: () => T | undefined): T | undefined {
  let byDefinition = cache.get(db);
  if (!byDefinition) cache.set(db, (byDefinition = new WeakMap()));
  let byKey = byDefinition.get(definition);
  if (!byKey) byDefinition.set(definition, (byKey = new BoundedMap(limit)));
  let compiled = byKey.get(key);
  if (!compiled) {
    compiled = compile();
    if (!compiled) return undefined;
    byKey.set(key, compiled);
  }
  return compiled;
}

/**
 * Whether a filtered list's page is read one of two ways once its count says how many rows match: on
 * SQLite, for the request's own `=`, `IN` and range tests on its columns (`ListRequest.filters`) when no
 * index reads them in the list's order (`indexGivesOrder`: a combination the schema left without one,
 * an `IN` of several values, a range with another order). SQLite's planner has no statistics to guess the
 * matches by, and would otherwise read every match by the filter's index and sort them however many
 * there are. PostgreSQL's planner chooses between the same two ways by its statistics of the column,
 * which for these tests (unlike a text search's) follow the rows.
 */
export function filterNeedsCount(dialect: DialectName, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): boolean {
  const filters = request.filters;
  return dialect === 'sqlite' && !request.all && filters !== undefined && conditions.length === filters.walking.length && !indexGivesOrder(definition, filters.equal, filters.range, request.order);
}

/**
 * The cost on SQLite of reading one match by the filter's index and sorting it, against walking one
 * entry of the order's index and testing its row: 0.22–0.58 µs (the least per match when many match)
 * against 0.4 µs, measured on 100,000 rows, so about 0.6. The walk tests about wanted × rows / matches
 * rows; the slower way costs at most about sqrt(wanted × rows / 0.6) rows' work, 1,300 (under a
 * millisecond) for a page of 10 in 100,000 rows, 4,100 in 1,000,000.
 */
const SORTED_FILTER_MATCH_COST = 0.6;

export function walksOrderForFilter(matches: number, wanted: number, rows: number): boolean {
  return matches * matches * SORTED_FILTER_MATCH_COST > wanted * rows;
}

/**
 * The page of a filtered list no index reads in order (`filterNeedsCount`), read the way `walk` says
 * (`walksOrderForFilter`): along the order's index testing each row, the filter's tests kept off their
 * indexes (`+column`), or every match read by the filter's index then sorted, the order kept off its
 * index (`ORDER BY +column`).
 */
function filteredPage(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, walk: boolean): AnySelect {
  const filters = request.filters;
  if (!filters) return pageQuery(db, definition, request, request.conditions);
  if (walk) return pageQuery(db, definition, request, filters.walking);
  let page = applyConditions(db.selectFrom(definition.table).selectAll(), request.conditions);
  for (const term of request.order) page = page.orderBy(sql`+${sql.ref(term.field)}`, term.direction);
  return page.limit(request.limit).offset(offsetOf(request));
}

/** `filteredPage` statements by database, resource, way and the request's shape. */
const filteredPages = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, BoundedMap<string, CompiledQuery>>>();
const rowCounts = new WeakMap<DynamicDb, WeakMap<ResourceDefinition, BoundedMap<string, CompiledQuery>>>();

/** `filteredPage` compiled once per shape and way, the request putting in its limit and offset. */
function compiledFilteredPage(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, walk: boolean): CompiledQuery {
  const compiled = compiledOnce(filteredPages, db, definition, `${walk ? 'walk' : 'sort'}:${request.shape}`, FILTERED_SHAPES, () => pagingLast(filteredPage(db, definition, request, walk).limit(-1).offset(-2).compile()));
  return compiled ? withPaging(compiled, request) : filteredPage(db, definition, request, walk).compile();
}

/**
 * The page of a filtered list no index reads in order (`filterNeedsCount`), its filter having matched
 * `matches` of the table's `rows` rows: read the cheaper way (`walksOrderForFilter`). None when an
 * index reads the list in order, or on PostgreSQL: then the list's own page statement.
 */
export function filteredListPage(db: DynamicDb, dialect: DialectName, definition: ResourceDefinition, request: ListRequest, conditions: Condition[], matches: number, rows: number): CompiledQuery | undefined {
  if (!filterNeedsCount(dialect, definition, request, conditions)) return undefined;
  return compiledFilteredPage(db, definition, request, walksOrderForFilter(matches, request.page * request.limit, rows));
}

/** The statement of the table's kept row count (`rowCountQuery`), compiled once. */
export function compiledRowCount(db: DynamicDb, definition: ResourceDefinition): CompiledQuery {
  return compiledOnce(rowCounts, db, definition, 'rows', 1, () => rowCountQuery(db, definition).compile()) as CompiledQuery;
}

/** A page statement compiled with limit -1 and offset -2, which each request replaces with its own; none if they are not its last two parameters. */
function pagingLast(page: CompiledQuery): CompiledQuery | undefined {
  const parameters = page.parameters;
  return parameters.length >= 2 && parameters[parameters.length - 2] === -1 && parameters[parameters.length - 1] === -2 ? page : undefined;
}

function withPaging(page: CompiledQuery, request: ListRequest): CompiledQuery {
  return { ...page, parameters: [...page.parameters.slice(0, -2), request.limit, offsetOf(request)] };
}

/**
 * A list request's two statements, compiled. An unfiltered list's total is its table's kept row count,
 * a list filtered by its own request to one value of a counted column reads the count kept for the
 * value (`valueCountQuery`; a data limit or scope among the conditions changes the count: then counted).
 * An unfiltered list (opening a list, paging through it: what
 * a back office asks most) has the same statements at every page, compiled once per resource and order;
 * the request only puts in its limit and offset, their only parameters.
 */
export function compiledListQueries(db: DynamicDb, definition: ResourceDefinition, request: ListRequest, conditions: Condition[], shaped = false): { count: CompiledQuery; page: CompiledQuery } {
  if (conditions.length > 0) {
    // Conditions made from the request's shape alone (`shaped`: no data limit or scope of the operator
    // among them) give the same statements for the same shape: compiled once per shape.
    const compiled = shaped
      ? compiledOnce(filteredLists, db, definition, request.shape, FILTERED_SHAPES, () => {
          const { count, page } = listQueries(db, definition, request, conditions);
          const paged = pagingLast(page.limit(-1).offset(-2).compile());
          return paged && { count: (valueCountQuery(db, definition, request, conditions) ?? count).compile(), page: paged };
        })
      : undefined;
    if (compiled) return { count: compiled.count, page: withPaging(compiled.page, request) };
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
    const { page } = listQueries(db, definition, request, conditions);
    compiled = { count: rowCountQuery(db, definition).compile(), page: page.limit(-1).offset(-2).compile() };
    if (compiled.page.parameters.join() !== '-1,-2') throw new Error(`list of ${definition.id}: unexpected parameters ${compiled.page.parameters.join()}`);
    byOrder.set(order, compiled);
  }
  return { count: compiled.count, page: { ...compiled.page, parameters: [request.limit, offsetOf(request)] } };
}
