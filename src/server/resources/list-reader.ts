import type { AppContext } from '../app-context.js';
import type { Condition } from '../db/condition.js';
import { dynamicDb } from '../db/connection.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { COMBINED_TOTAL, compiledCombinedQuickSearch, compiledListQueries, compiledRowCount, filteredListPage, filterNeedsCount, listQueries, quickSearchPage, walksOrderIndex } from './list-plan.js';
import type { ListRequest } from './list-query.js';

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

/**
 * A list's total and its page of stored rows, read the way the planner (`list-plan.ts`) chooses for this
 * request: the one call the `index` operation makes, so the quick-search sizes it remembers stay here.
 */
export async function readListPage(app: AppContext, definition: ResourceDefinition, request: ListRequest, conditions: Condition[]): Promise<[number, Row[]]> {
  const db = dynamicDb(app.db);
  const dialect = app.handle.dialect;
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
