import type { Operator, ResourceHooks, RowView } from '../../app-context.js';
import { dynamicDb } from '../../db/connection.js';
import { sql } from 'kysely';
import type { ListData } from '../../../contract/envelope.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { accessConditions } from '../access.js';
import { COMBINED_TOTAL, compiledCombinedQuickSearch, compiledListQueries, compiledRowCount, filteredListPage, filterNeedsCount, listQueries, pageQuery, quickSearchPage, walksOrderIndex } from '../list-plan.js';
import type { Condition } from '../../db/condition.js';
import { parseListRequest, type ListRequest } from '../list-query.js';
import { presentRows } from '../present.js';

/** `index`: a page of rows with its total and the menu's remark; and every row of a list, for the CSV export. */

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

type CountRow = { total: number | string; top?: number | null };

/** How many rows a quick-search term matched, and about how many rows its table had, when last searched. */
interface MatchSize {
  matches: number;
  rows: number;
}

/** The last terms' sizes of each resource, per database; past this many terms a resource's start over. */
const REMEMBERED_TERMS = 1_000;
const matchSizes = new WeakMap<object, WeakMap<ResourceDefinition, Map<string, MatchSize>>>();

function matchSizesOf(db: object, definition: ResourceDefinition): Map<string, MatchSize> {
  let byDefinition = matchSizes.get(db);
  if (!byDefinition) matchSizes.set(db, (byDefinition = new WeakMap()));
  let sizes = byDefinition.get(definition);
  if (!sizes) byDefinition.set(definition, (sizes = new Map()));
  return sizes;
}

function rememberSize(sizes: Map<string, MatchSize>, term: string, size: MatchSize): void {
  if (sizes.size >= REMEMBERED_TERMS && !sizes.has(term)) sizes.clear();
  sizes.set(term, size);
}

/**
 * A quick search whose term was searched before: its last size settles how the page is read, and the
 * total comes in the same statement as the page (or beside it, on PostgreSQL's walk), which spares the
 * count's own round. The size only chooses the way: the total is always counted now. None when the
 * term is new, something else filters too, or the page is past the last match (then counted apart).
 */
async function knownQuickSearch(db: ReturnType<typeof dynamicDb>, dialect: 'sqlite' | 'postgres', definition: ResourceDefinition, request: ListRequest, conditions: Condition[], sizes: Map<string, MatchSize>): Promise<[number, Row[]] | undefined> {
  const match = request.textMatch;
  const known = match && conditions.length === 1 && conditions[0] === match.condition ? sizes.get(match.term) : undefined;
  if (!match || !known || known.matches === 0) return undefined;
  const walk = walksOrderIndex(dialect, known.matches, request.page * request.limit, known.rows);
  const combined = compiledCombinedQuickSearch(db, dialect, definition, request, conditions, walk);
  if (combined) {
    const rows = (await db.executeQuery<Row>(combined)).rows;
    if (rows.length === 0) return undefined;
    const total = Number(rows[0][COMBINED_TOTAL]);
    rememberSize(sizes, match.term, { matches: total, rows: known.rows });
    return [total, rows];
  }
  if (dialect !== 'postgres' || !walk) return undefined;
  // PostgreSQL walking the order's index: the list's own page, its count beside it on another connection.
  const { count, page } = listQueries(db, definition, request, conditions);
  const [counted, rows] = await Promise.all([count.executeTakeFirst() as Promise<CountRow>, page.execute() as Promise<Row[]>]);
  const total = Number(counted.total);
  rememberSize(sizes, match.term, { matches: total, rows: Number(counted.top ?? 0) });
  return [total, rows];
}

async function countAndPage(operator: Operator, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): Promise<[number, Row[]]> {
  const db = dynamicDb(operator.app.db);
  const dialect = operator.app.handle.dialect;
  if (request.textMatch && !request.all) {
    const sizes = matchSizesOf(db, definition);
    const known = await knownQuickSearch(db, dialect, definition, request, conditions, sizes);
    if (known) return known;
    // A quick search: the count first, which settles how the page is read. The largest key stands for
    // the number of rows (deleted rows only make it larger: fewer walks).
    const { count, page } = listQueries(db, definition, request, conditions);
    const counted = (await count.executeTakeFirst()) as CountRow;
    const total = Number(counted.total);
    if (conditions.length === 1 && conditions[0] === request.textMatch.condition) rememberSize(sizes, request.textMatch.term, { matches: total, rows: Number(counted.top ?? 0) });
    const read = (total > 0 ? quickSearchPage(db, dialect, definition, request, conditions, total, Number(counted.top ?? 0)) : undefined) ?? page;
    return [total, (await read.execute()) as Row[]];
  }
  // Only the request's own conditions (no data limit or scope of the operator's): compiled once per shape.
  const shaped = conditions.length === request.conditions.length;
  const { count, page } = compiledListQueries(db, definition, request, conditions, shaped);
  // Side by side on PostgreSQL, where each takes its own pooled connection; one after the other on
  // SQLite's single connection, where the second would only wait for the first.
  let counted: CountRow | undefined;
  let stored: Row[];
  if (dialect === 'postgres') {
    const [countRows, pageRows] = await Promise.all([db.executeQuery<CountRow>(count), db.executeQuery<Row>(page)]);
    [counted, stored] = [countRows.rows[0], pageRows.rows];
  } else {
    [counted] = (await db.executeQuery<CountRow>(count)).rows;
    if (filterNeedsCount(dialect, definition, request, conditions)) {
      // No index reads the filter in this order: the count settles which way the page is read.
      counted ??= (await listQueries(db, definition, request, conditions).count.executeTakeFirst()) as CountRow;
      const total = Number(counted.total);
      if (total === 0) return [0, []];
      const [table] = (await db.executeQuery<CountRow>(compiledRowCount(db, definition))).rows;
      const read = filteredListPage(db, dialect, definition, request, conditions, total, Number(table?.total ?? total)) ?? page;
      return [total, (await db.executeQuery<Row>(read)).rows];
    }
    stored = (await db.executeQuery<Row>(page)).rows;
  }
  // A kept count not made yet (a table made outside the migrations, a column not counted before): counted.
  counted ??= (await listQueries(db, definition, request, conditions).count.executeTakeFirst()) as CountRow;
  return [Number(counted.total), stored];
}

/** `index`: a page of rows with the total and the menu remark. */
export async function listRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions): Promise<ListData<Row>> {
  const request = parseListRequest(operator.app, definition, query, options.timeZone, operator.identity);
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
  const request = parseListRequest(operator.app, definition, { ...query, page: 1, limit: pageSize }, options.timeZone, operator.identity);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  for (let page = 1; ; page++) {
    const stored = (await pageQuery(dynamicDb(operator.app.db), definition, { ...request, page, all: false }, conditions).execute()) as Row[];
    if (stored.length > 0) yield await presentRows(operator, definition, hooks, stored, 'list');
    if (stored.length < pageSize) return;
  }
}
