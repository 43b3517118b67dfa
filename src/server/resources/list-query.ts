import { sql, type Expression, type SqlBool } from 'kysely';
import type { Condition, Eb } from '../db/condition.js';
import { normaliseOperator, type SearchOperator } from '../../contract/search.js';
import { embeddedColumns, type FieldDefinition, type ResourceDefinition, type SortTerm } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { ftsPhrase, indexableTerm, textIndexKey, textIndexName } from '../db/text-index.js';
import type { AnySelect } from '../db/connection.js';
import { toStorage } from '../db/values.js';
import { errors } from '../errors.js';
import type { Identity } from '../auth/identity.js';
import { mayReadList } from './access.js';
import { columnOrder } from './order-index.js';
import { parseLocalDateTime } from '../../contract/site-time.js';

/**
 * Translation of `index` query parameters (docs/wire-contract.md#index, #search-operators) into SQL conditions. Every field name is
 * looked up in the schema before it reaches SQL; values are always bound parameters.
 */

const MAX_LIMIT = 1000;
const UNLIMITED = 999_999;
const MAX_QUICK_SEARCH = 200;
/** Operators that hold a column to a range, which an index on the column reads. */
const RANGE_OPERATORS: ReadonlySet<SearchOperator> = new Set(['RANGE', '>', '>=', '<', '<=']);


/**
 * A quick search whose page is read one of two ways once the count says how many rows match: every
 * match, then sorted; or along the order's index, testing each row until the page is full.
 */
interface TextMatch {
  /** the text searched for */
  term: string;
  /** the quick search among the list's conditions */
  condition: Condition;
  /**
   * SQLite, when every field is a column of the list's own table: `ids` selects the keys of the matching
   * rows (one FTS5 table per field, united) and `condition` is the key among them, read by key;
   * `walking` is the same test kept off the key (`+key`), so SQLite walks the order's index instead.
   * (PostgreSQL tests the fields themselves: its trigram indexes serve ILIKE.)
   */
  keys?: { ids(from: Pick<Eb, 'selectFrom'>): AnySelect; walking: Condition };
}

export interface ListRequest {
  page: number;
  limit: number;
  /** no paging: `initValue` lookups and tree lists */
  all: boolean;
  order: SortTerm[];
  conditions: Condition[];
  /** set when the quick search is among `conditions` as a TextMatch */
  textMatch?: TextMatch;
  /**
   * Set when `conditions` is a single `search[]` equality on a column of the list's own table: the
   * column and the value as compared with it (the total may then be a count kept per value).
   */
  equals?: { condition: Condition; column: string; value: unknown };
  /**
   * Set when `conditions` are `search[]` tests on the list's own columns alone, each `=`, `IN` or a
   * range: the columns held to one value (an `IN` of one value among them) and to a range, and the same
   * tests kept off the columns' indexes (`+column`), with which SQLite walks the order's index instead
   * of reading the matches by the filter's (resources/list-plan.ts, `filteredPage`).
   */
  filters?: { equal: string[]; range: string[]; walking: Condition[] };
  /**
   * What `conditions` and `order` were made from (the quick search, `search[]`, the order, the
   * `initValue` lookup and the time zone), as text: two requests with the same shape have the same
   * statements but for their limit and offset.
   */
  shape: string;
}

interface ColumnTarget {
  field: FieldDefinition;
  /** set for `relation.field`: the condition is a sub-select on the related table */
  relation?: { local: FieldDefinition; definition: ResourceDefinition };
}

/**
 * The column a search names, when the operator may search it. Write-only columns (password hashes,
 * salts) never are: a LIKE on them is an oracle. Nor is a related row's column the list does not carry
 * to this operator (`relation.column` beyond the key, label and `x-ref.fields`, or any column of a
 * resource they may not read): searching it would read what the list withholds, one guess at a time.
 */
function searchTarget(app: AppContext, definition: ResourceDefinition, name: string, reader: Identity | undefined): ColumnTarget | undefined {
  const parts = name.split('.');
  if (parts.length === 1 || (parts.length === 2 && parts[0] === definition.table)) {
    const field = definition.fields.find((item) => item.name === parts[parts.length - 1] && item.storage && !item.writeOnly);
    return field ? { field } : undefined;
  }
  if (parts.length !== 2) return undefined;
  const local = definition.fields.find((item) => item.ref?.as === parts[0] && !item.ref.many && item.storage);
  const related = local?.ref ? app.resources.get(local.ref.resource) : undefined;
  if (!local?.ref || !related || !mayReadList(reader, related) || !embeddedColumns(local.ref).includes(parts[1])) return undefined;
  const field = related.fields.find((item) => item.name === parts[1] && item.storage && !item.writeOnly);
  return field ? { field, relation: { local, definition: related } } : undefined;
}

function resolveField(app: AppContext, definition: ResourceDefinition, name: unknown, reader: Identity | undefined): ColumnTarget {
  if (typeof name !== 'string' || name.length > 100) throw errors.unknownField(String(name).slice(0, 100));
  const target = searchTarget(app, definition, name, reader);
  if (!target) throw errors.unknownField(name);
  return target;
}

function isNumeric(field: FieldDefinition): boolean {
  return field.storage?.type === 'bigint' || field.storage?.type === 'real' || field.storage?.type === 'money' || field.storage?.type === 'boolean';
}

/** A search value as the column stores it; numeric columns refuse text that is not a number. */
function columnValue(field: FieldDefinition, value: unknown): unknown {
  if (value === null || typeof value === 'object') throw errors.invalidSearchValue(field.title);
  const text = String(value).trim();
  if (isNumeric(field)) {
    // Whole-number columns take whole numbers in range: PostgreSQL refuses `1.5` or 20 digits for a bigint.
    const whole = field.storage?.type === 'bigint' || field.storage?.type === 'boolean';
    if (!(whole ? /^-?\d{1,15}$/ : /^-?\d{1,13}(\.\d{1,6})?$/).test(text)) throw errors.invalidSearchValue(field.title);
    return toStorage(field, text);
  }
  if (text.length > 1000) throw errors.invalidSearchValue(field.title);
  return text;
}

function likePattern(value: unknown, field: FieldDefinition): string {
  if (value === null || typeof value === 'object') throw errors.invalidSearchValue(field.title);
  const text = String(value);
  if (text.length > 1000) throw errors.invalidSearchValue(field.title);
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function listValues(field: FieldDefinition, value: unknown): unknown[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? String(value).split(',') : undefined;
  if (!items || items.length === 0 || items.length > 1000) throw errors.invalidSearchValue(field.title);
  return items.map((item) => columnValue(field, item));
}

interface ConditionOptions {
  dialect: AppContext['handle']['dialect'];
  timeZone: string;
}

function textOf(column: Expression<unknown>, field: FieldDefinition) {
  return isNumeric(field) ? sql`CAST(${column} AS TEXT)` : column;
}

function likeExpression(dialect: ConditionOptions['dialect'], column: Expression<unknown>, field: FieldDefinition, pattern: string, negate: boolean) {
  const operator = sql.raw(`${negate ? 'NOT ' : ''}${dialect === 'postgres' ? 'ILIKE' : 'LIKE'}`);
  return sql<SqlBool>`${textOf(column, field)} ${operator} ${pattern} ESCAPE '\\'`;
}

/** One `search[]` entry → a condition on the main table. */
function searchCondition(target: ColumnTarget, operator: SearchOperator, rawValue: unknown, render: unknown, options: ConditionOptions, offIndex = false): Condition {
  const { field } = target;
  // A related field is tested inside the sub-select on its own table (`wrapRelation`), so by its bare name too.
  // `offIndex`: `+column` (SQLite), the same value with no index to read it by, so the list walks its order's index.
  const column = (eb: Eb): Expression<unknown> => (offIndex ? sql`+${eb.ref(field.name)}` : eb.ref(field.name));
  const datetime = render === 'datetime';
  const time = (text: unknown): number => {
    const seconds = parseLocalDateTime(String(text), options.timeZone);
    if (seconds === undefined) throw errors.invalidSearchValue(field.title);
    return seconds;
  };

  let build: (eb: Eb) => Expression<SqlBool>;
  if (datetime && operator !== 'RANGE' && operator !== 'NOT RANGE' && operator !== 'NULL' && operator !== 'NOT NULL') {
    const seconds = time(rawValue);
    build = (eb) => eb(column(eb), '=', seconds);
  } else {
    switch (operator) {
      case '=':
      case '<>':
      case '>':
      case '>=':
      case '<':
      case '<=': {
        const value = columnValue(field, rawValue);
        build = (eb) => eb(column(eb), operator, value);
        break;
      }
      case 'LIKE':
      case 'NOT LIKE': {
        const pattern = likePattern(rawValue, field);
        build = (eb) => likeExpression(options.dialect, column(eb), field, pattern, operator === 'NOT LIKE');
        break;
      }
      case 'IN':
      case 'NOT IN': {
        const values = listValues(field, rawValue);
        build = (eb) => eb(column(eb), operator === 'IN' ? 'in' : 'not in', values);
        break;
      }
      case 'RANGE':
      case 'NOT RANGE': {
        if (typeof rawValue !== 'string' && typeof rawValue !== 'number') throw errors.invalidSearchValue(field.title);
        const text = String(rawValue);
        if (datetime && !text.includes(',')) return () => sql<SqlBool>`1 = 1`;
        const [fromText = '', toText = ''] = text.split(',');
        if (text.split(',').length > 2) throw errors.invalidSearchValue(field.title);
        const convert = (part: string) => (datetime ? time(part) : columnValue(field, part));
        const from = fromText.trim() === '' ? undefined : convert(fromText);
        const to = toText.trim() === '' ? undefined : convert(toText);
        const negate = operator === 'NOT RANGE';
        build = (eb) => {
          if (from !== undefined && to !== undefined) {
            const between = eb.between(column(eb), from, to);
            return negate ? eb.not(between) : between;
          }
          if (to !== undefined) return eb(column(eb), negate ? '>' : '<=', to);
          if (from !== undefined) return eb(column(eb), negate ? '<' : '>=', from);
          return sql<SqlBool>`1 = 1`;
        };
        break;
      }
      case 'NULL':
        build = (eb) => eb(column(eb), 'is', null);
        break;
      case 'NOT NULL':
        build = (eb) => eb(column(eb), 'is not', null);
        break;
      case 'FIND_IN_SET': {
        const values = (Array.isArray(rawValue) ? rawValue : [rawValue]).map((item) => {
          if (item === null || typeof item === 'object' || String(item).includes(',')) throw errors.invalidSearchValue(field.title);
          return `%,${String(item).replace(/[\\%_]/g, (char) => `\\${char}`)},%`;
        });
        build = (eb) => eb.and(values.map((pattern) => sql<SqlBool>`(',' || ${textOf(column(eb), field)} || ',') LIKE ${pattern} ESCAPE '\\'`));
        break;
      }
    }
  }
  return wrapRelation(target, build);
}

/** A condition on a related table becomes `local_fk IN (SELECT key FROM related WHERE …)`. */
function wrapRelation(target: ColumnTarget, build: Condition): Condition {
  const relation = target.relation;
  if (!relation) return build;
  const ref = relation.local.ref;
  if (!ref) return build;
  return (eb) => eb(eb.ref(relation.local.name), 'in', eb.selectFrom(relation.definition.table).select(ref.key).where(build));
}

function positiveInteger(value: unknown, fallback: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  const text = String(value);
  if (typeof value === 'object' || !/^\d{1,9}$/.test(text)) return undefined;
  const number = Number(text);
  return number >= 1 ? number : undefined;
}

/**
 * Parse and check `page`, `limit`, `order`, `quickSearch`, `search[]`, `initKey`/`initValue`.
 * `reader` is the operator's identity: the related resources it may read are searchable (`searchTarget`).
 */
export function parseListRequest(app: AppContext, definition: ResourceDefinition, query: Record<string, unknown>, timeZone: string, reader: Identity | undefined): ListRequest {
  const page = positiveInteger(query.page, 1);
  const limit = positiveInteger(query.limit, 10);
  if (page === undefined || limit === undefined || limit > MAX_LIMIT) throw errors.invalidPaging(MAX_LIMIT);
  const options: ConditionOptions = { dialect: app.handle.dialect, timeZone };
  const conditions: Condition[] = [];
  let textMatch: TextMatch | undefined;
  let equals: ListRequest['equals'];
  let quickFields: string[] = [];
  // The request's own column tests an index can read (`ListRequest.filters`); undefined once another condition joins them.
  let filters: ListRequest['filters'] | undefined = { equal: [], range: [], walking: [] };

  const quick = query.quickSearch;
  if (quick !== undefined && quick !== '') {
    if (typeof quick !== 'string' && typeof quick !== 'number') throw errors.invalidQuickSearch();
    const text = String(quick);
    if (text.length > MAX_QUICK_SEARCH) throw errors.invalidQuickSearch();
    const pattern = likePattern(text, definition.fields[0]);
    // A related column the operator may not read drops out of the quick search (none left: nothing matches).
    quickFields = definition.list.quickSearch.filter((name) => searchTarget(app, definition, name, reader));
    const targets = quickFields.map((name) => resolveField(app, definition, name, reader));
    // SQLite answers from each column's FTS5 trigram table; PostgreSQL's planner uses the pg_trgm index itself.
    const tableOf = (target: ColumnTarget) => target.relation?.definition ?? definition;
    const ftsOf = (target: ColumnTarget) => {
      const table = tableOf(target);
      return options.dialect === 'sqlite' && indexableTerm(text) && app.textIndexed.has(textIndexKey(table.table, target.field.name)) ? textIndexName(table.table, target.field.name) : undefined;
    };
    const matching = (from: Pick<Eb, 'selectFrom'>, fts: string) => from.selectFrom(fts).select('rowid').where(sql<SqlBool>`${sql.table(fts)} MATCH ${ftsPhrase(text)}`);
    const indexes = targets.map(ftsOf);
    // A resource whose column is stored in another form than it is shown (a title stored as its key) finds the rows itself.
    const shownMatch = app.controllers.forResource(definition.id)?.hooks?.quickSearch?.(app, text);
    if (!shownMatch && targets.length > 0 && targets.every((target, index) => !target.relation && indexes[index])) {
      // One list of keys for all fields: the rows are then read by key once each, in a single pass.
      const ids = (from: Pick<Eb, 'selectFrom'>) => (indexes as string[]).map((fts) => matching(from, fts)).reduce((united, next) => united.union(next));
      textMatch = {
        term: text,
        condition: (eb) => eb(eb.ref(definition.primaryKey), 'in', ids(eb)),
        keys: { ids, walking: (eb) => eb(sql`+${eb.ref(definition.primaryKey)}`, 'in', ids(eb)) },
      };
      conditions.push(textMatch.condition);
    } else {
      const matchOf = (target: ColumnTarget, fts: string | undefined): Condition => {
        if (fts) return (inner) => inner(inner.ref(tableOf(target).primaryKey), 'in', matching(inner, fts));
        return (inner) => likeExpression(options.dialect, inner.ref(target.field.name), target.field, pattern, false);
      };
      const condition: Condition = shownMatch ?? ((eb) => eb.or(targets.map((target, index) => wrapRelation(target, matchOf(target, indexes[index]))(eb))));
      // SQLite's planner has no statistics to go by: it reads such a search the same way every time.
      if (options.dialect === 'postgres') textMatch = { term: text, condition };
      conditions.push(condition);
    }
  }

  const search = query.search;
  if (search !== undefined && search !== '') {
    const entries = Array.isArray(search) ? search : typeof search === 'object' && search !== null ? Object.values(search) : undefined;
    if (!entries || entries.length > 50) throw errors.parameterError();
    for (const entry of entries) {
      if (typeof entry !== 'object' || entry === null) throw errors.parameterError();
      const { field, val, operator, render } = entry as Record<string, unknown>;
      // Entries missing field, val or operator are ignored (docs/wire-contract.md#index).
      if (field === undefined || val === undefined || operator === undefined) continue;
      if (typeof operator !== 'string') throw errors.parameterError();
      const canonical = normaliseOperator(operator);
      if (!canonical) continue;
      const target = resolveField(app, definition, field, reader);
      const condition = searchCondition(target, canonical, val, render, options);
      conditions.push(condition);
      const column = target.field.name;
      if (filters && !target.relation && (canonical === '=' || canonical === 'IN' || RANGE_OPERATORS.has(canonical))) {
        if (canonical === '=' || (canonical === 'IN' && listValues(target.field, val).length === 1)) filters.equal.push(column);
        else if (canonical !== 'IN') filters.range.push(column);
        filters.walking.push(searchCondition(target, canonical, val, render, options, true));
      } else {
        filters = undefined;
      }
      // (A date-time's `=` compares the seconds it reads the value as, not the value.)
      if (canonical === '=' && !target.relation && render !== 'datetime') equals = { condition, column: target.field.name, value: columnValue(target.field, val) };
    }
  }

  let all = false;
  const initValue = query.initValue;
  const hasInit = initValue !== undefined && initValue !== '' && !(Array.isArray(initValue) && initValue.length === 0);
  if (hasInit) {
    const target = resolveField(app, definition, query.initKey === undefined || query.initKey === '' ? definition.primaryKey : query.initKey, reader);
    const operator = normaliseOperator(String(query.initOperator ?? 'IN')) ?? 'IN';
    conditions.push(searchCondition(target, operator, initValue, undefined, options));
    all = true;
    filters = undefined;
  }

  // The quick search's fields too: operators who may read different relations get different statements.
  const shape = JSON.stringify([quick ?? '', quickFields, search ?? '', query.order ?? '', hasInit ? [query.initKey ?? '', query.initOperator ?? '', initValue] : '', timeZone]);
  const single = equals && conditions.length === 1 && conditions[0] === equals.condition ? { equals } : {};
  const own = filters && filters.walking.length > 0 && filters.walking.length === conditions.length ? { filters } : {};
  return { page, limit: all ? UNLIMITED : limit, all, order: parseOrder(definition, query.order), conditions, ...(textMatch ? { textMatch } : {}), ...single, ...own, shape };
}

/**
 * `"field,asc|desc"` on a column an index serves (`list.sortable`); another stored column is refused, as
 * ordering by it would sort the whole table; anything unreadable falls back to the default order.
 */
function parseOrder(definition: ResourceDefinition, order: unknown): SortTerm[] {
  if (typeof order === 'string') {
    const [field, direction, extra] = order.split(',');
    const column = definition.fields.find((item) => item.name === field && item.storage && !item.writeOnly);
    if (column && (direction === 'asc' || direction === 'desc') && extra === undefined) {
      if (!definition.list.sortable.includes(field)) throw errors.notSortable(column.title);
      return columnOrder(definition, field, direction);
    }
  }
  return definition.list.defaultSort;
}
