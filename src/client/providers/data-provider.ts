import type { DataProvider, GetListParams, Identifier, RaRecord, SortPayload } from 'ra-core';
import { isRecord } from '../../contract/checks.js';
import type { ListData } from '../../contract/envelope.js';
import { normaliseOperator, type SearchCondition } from '../../contract/search.js';
import type { FieldDefinition, ResourceDefinition } from '../../schema/definition.js';
import { formatDateTime, toDate } from '../format/datetime.js';
import type { DownloadedFile, HttpClient, RequestOptions } from '../http/http-client.js';

/**
 * react-admin's data provider over the generic resource contract (docs/wire-contract.md#generic-resources, #list-requests):
 * getList/getMany/getManyReference → `index`, getOne → `GET edit`, create → `add`, update → `POST edit`,
 * delete → `DELETE del`, plus `sortable`. Requests run with `showErrorMessage: false` and
 * `showSuccessMessage: false`: react-admin itself notifies `error.message` for every failed query or
 * mutation and its own success messages, so toasting here would show everything twice.
 */

export interface ResourceEndpoint {
  /** controller URL ending in `/`, e.g. `/admin/auth.Admin/` */
  url: string;
  definition?: ResourceDefinition;
}

export type SortableDataProvider = DataProvider & {
  sortable(resource: string, params: { id: Identifier; targetId: Identifier }): Promise<{ data: null }>;
};

/** A resource's own action beyond the generic ones (`restore`, `rollback`, `info`...). */
interface ActionParams {
  /** JSON body; when given the action is POSTed */
  data?: Row;
  /** query string */
  params?: Record<string, unknown>;
  /** default POST with `data`, GET without */
  method?: 'GET' | 'POST';
  /** milliseconds before the request is abandoned, when the action may work longer than requests do */
  timeout?: number;
}

export type ActionDataProvider = DataProvider & {
  /** `<resource endpoint><name>`: resolves to the envelope's `data`, rejects with an `HttpError` */
  action<T = unknown>(resource: string, name: string, params?: ActionParams): Promise<{ data: T }>;
  /** `<resource endpoint>export`: the whole list as filtered and sorted, as a CSV file */
  exportCsv(resource: string, params: Pick<GetListParams, 'sort' | 'filter'>): Promise<DownloadedFile>;
};

/**
 * Extra options a caller may pass as `meta`:
 * - `params`: added to the query string of `index` (page-specific keys such as `isTree`);
 * - `select: true`: remote-select mode (`select=true`), which tree resources answer with flattened
 *   `options` labelled with box-drawing prefixes.
 */
interface ListMeta {
  params?: Record<string, unknown>;
  select?: boolean;
}

type Row = Record<string, unknown>;

/** The query string of an `index` call: react-admin's list parameters in the wire's words, plus a page's own `meta.params`. */
type ListQuery = Record<string, unknown> & { search?: SearchCondition[] };

/** What react-admin passes as `meta` (typed `any` there), read for the keys this provider knows. */
function listMetaOf(meta: unknown): ListMeta {
  if (!isRecord(meta)) return {};
  return { params: isRecord(meta.params) ? meta.params : undefined, select: meta.select === true };
}

/** A record react-admin hands over (its filter, a form's values, typed `any` there); anything else is an empty one. */
function rowOf(value: unknown): Row {
  return isRecord(value) ? value : {};
}

function isIdentifier(value: unknown): value is Identifier {
  return typeof value === 'string' || typeof value === 'number';
}

const QUIET: RequestOptions = { showErrorMessage: false, showSuccessMessage: false };

function primaryKey(definition: ResourceDefinition | undefined): string {
  return definition?.primaryKey ?? 'id';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** react-admin nests dotted filter sources (`group.name` → `{group: {name}}`): flatten them back. */
function flattenFilter(filter: Record<string, unknown>, prefix = ''): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(filter)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) entries.push(...flattenFilter(value, name));
    else entries.push([name, value]);
  }
  return entries;
}

function isDateTimeField(field: FieldDefinition | undefined): boolean {
  return field?.ui.render === 'datetime' || field?.ui.widget === 'datetime';
}

/**
 * A datetime filter value as the server's `render=datetime` expects it: `YYYY-MM-DD HH:mm:ss` in the
 * site's time zone. A bare date opens a range at 00:00:00 and closes it at 23:59:59 (docs/wire-contract.md#list-requests).
 */
export function formatDateTimeValue(value: unknown, edge: 'start' | 'end' = 'start'): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text} ${edge === 'end' ? '23:59:59' : '00:00:00'}`;
    if (text === '' || /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return text;
  }
  // Anything else that is a date (a picker's Date, seconds) is written on the site zone's wall clock.
  return toDate(value) ? formatDateTime(value) : value;
}

/** One filter entry → a `search[]` condition, or undefined when it filters nothing. */
function searchCondition(key: string, value: unknown, definition: ResourceDefinition | undefined): SearchCondition | undefined {
  const at = key.lastIndexOf('@');
  const field = at > 0 ? key.slice(0, at) : key;
  const requested = at > 0 ? key.slice(at + 1) : undefined;
  // A list for a plain key (a multi-select filter) means membership.
  const operator = requested ? (normaliseOperator(requested) ?? requested.toUpperCase()) : Array.isArray(value) ? 'IN' : '=';
  const datetime = isDateTimeField(definition?.fields.find((item) => item.name === field));
  const render = datetime ? { render: 'datetime' } : {};

  if (operator === 'NULL' || operator === 'NOT NULL') {
    // A ticked checkbox; the server ignores the value (docs/wire-contract.md#search-operators).
    return value === true || value === 'true' || value === 1 || value === '1' ? { field, val: true, operator, ...render } : undefined;
  }
  if (operator === 'RANGE' || operator === 'NOT RANGE') {
    const [from, to] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value, undefined];
    if (isEmpty(from) && isEmpty(to)) return undefined;
    const side = (part: unknown, edge: 'start' | 'end') => (isEmpty(part) ? '' : String(datetime ? formatDateTimeValue(part, edge) : part));
    return { field, val: `${side(from, 'start')},${side(to, 'end')}`, operator, ...render };
  }
  if (isEmpty(value)) return undefined;
  const val = datetime && !Array.isArray(value) ? formatDateTimeValue(value) : value;
  return { field, val, operator, ...render };
}

/**
 * The `search[]` of a react-admin filter: key `field` → `=` (a list → `IN`), key `field@OPERATOR`
 * (`title@LIKE`, `create_time@RANGE`, `deleted_at@NULL`) → that operator; `q` is the quick search and
 * not part of it. Datetime fields get `render: 'datetime'`.
 */
export function buildSearch(filter: Record<string, unknown> | undefined, definition?: ResourceDefinition): SearchCondition[] {
  const conditions: SearchCondition[] = [];
  for (const [key, value] of flattenFilter(filter ?? {})) {
    if (key === 'q') continue;
    const condition = searchCondition(key, value, definition);
    if (condition) conditions.push(condition);
  }
  return conditions;
}

/** `{field: 'id', order: 'DESC'}` → `id,desc`; the synthetic `id` of a table keyed otherwise → its key. */
function buildOrder(sort: SortPayload | undefined, definition?: ResourceDefinition): string | undefined {
  if (!sort?.field) return undefined;
  const pk = primaryKey(definition);
  const syntheticId = sort.field === 'id' && pk !== 'id' && !definition?.fields.some((field) => field.name === 'id');
  return `${syntheticId ? pk : sort.field},${sort.order === 'DESC' ? 'desc' : 'asc'}`;
}

/** The query of an `index` call for react-admin's getList parameters. */
export function buildListQuery(params: Pick<GetListParams, 'pagination' | 'sort' | 'filter' | 'meta'>, definition?: ResourceDefinition): ListQuery {
  const meta = listMetaOf(params.meta);
  const filter = rowOf(params.filter);
  const query: ListQuery = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.limit = params.pagination.perPage;
  }
  const order = buildOrder(params.sort, definition);
  if (order) query.order = order;
  if (!isEmpty(filter.q)) query.quickSearch = filter.q;
  const search = buildSearch(filter, definition);
  if (search.length > 0) query.search = search;
  if (meta.select) query.select = true;
  return { ...query, ...(meta.params ?? {}) };
}

/** react-admin needs `id`: rows of a table keyed otherwise get it from the primary key, tree children too. */
function withId(row: Row, pk: string): RaRecord {
  const id = pk !== 'id' && row.id === undefined ? row[pk] : row.id;
  const children = Array.isArray(row.children) ? { children: row.children.filter(isRecord).map((child) => withId(child, pk)) } : {};
  // A row without a key (none comes from the server) gets an empty one: react-admin's ids are strings or numbers.
  return { ...row, ...children, id: isIdentifier(id) ? id : '' };
}

export function createDataProvider(client: HttpClient, resolve: (resource: string) => ResourceEndpoint): SortableDataProvider & ActionDataProvider {
  const endpoint = (resource: string) => {
    const found = resolve(resource);
    return { ...found, url: found.url.endsWith('/') ? found.url : `${found.url}/`, pk: primaryKey(found.definition) };
  };

  async function list(url: string, query: ListQuery, pk: string) {
    const { data } = await client.request<Partial<ListData<Row>> & { options?: Row[] }>(`${url}index`, { ...QUIET, params: query });
    const rows = data?.list ?? data?.options ?? [];
    // Tree resources answer without `total`: the whole tree is one page.
    return { data: rows.map((row) => withId(row, pk)), total: typeof data?.total === 'number' ? data.total : rows.length, meta: { remark: data?.remark ?? '' } };
  }

  async function readRow(url: string, pk: string, id: Identifier): Promise<RaRecord> {
    const { data } = await client.request<{ row: Row }>(`${url}edit`, { ...QUIET, params: { [pk]: id } });
    return withId(data.row, pk);
  }

  // react-admin types each method generic in the caller's record type, which no implementation can
  // satisfy without a cast; the rows are whatever the server sent, with `id` ensured.
  const provider = {
    async getList(resource, params) {
      const { url, definition, pk } = endpoint(resource);
      return list(url, buildListQuery(params, definition), pk);
    },

    async getOne(resource, params) {
      const { url, pk } = endpoint(resource);
      return { data: await readRow(url, pk, params.id) };
    },

    async getMany(resource, params) {
      const { url, pk } = endpoint(resource);
      if (params.ids.length === 0) return { data: [] };
      const meta = listMetaOf(params.meta);
      const { data } = await list(url, { initValue: params.ids, ...(meta.select ? { select: true } : {}), ...(meta.params ?? {}) }, pk);
      return { data };
    },

    async getManyReference(resource, params) {
      const { url, definition, pk } = endpoint(resource);
      const query = buildListQuery(params, definition);
      const search = [{ field: params.target, val: params.id, operator: '=' }, ...(query.search ?? [])];
      return list(url, { ...query, search }, pk);
    },

    async create(resource, params) {
      const { url, pk } = endpoint(resource);
      const data = rowOf(params.data);
      // `add` answers the new row's key (`{id: 5}`); the row is then read as the server stored it (trimmed,
      // escaped, with its defaults), or, without the right to read it, given as submitted with that key.
      const answer = await client.request<Row | null>(`${url}add`, { ...QUIET, method: 'POST', data });
      const key = answer.data?.[pk];
      if (typeof key !== 'number' && typeof key !== 'string') throw new Error(`${url}add answered no key`);
      return { data: await readRow(url, pk, key).catch(() => withId({ ...data, [pk]: key }, pk)) };
    },

    async update(resource, params) {
      const { url, definition, pk } = endpoint(resource);
      const body: Row = { ...rowOf(params.data), [pk]: params.id };
      if (definition?.list.tree) delete body.children;
      await client.request(`${url}edit`, { ...QUIET, method: 'POST', data: body });
      // Not read back (a GET the throttle counts): the screens that save refetch their list
      // (`refreshLists`), which brings the row as the server stored it, and an edit form reads it anew.
      return { data: withId({ ...rowOf(params.previousData), ...body, id: params.id }, pk) };
    },

    async updateMany(resource, params) {
      const { url, pk } = endpoint(resource);
      await Promise.all(params.ids.map((id) => client.request(`${url}edit`, { ...QUIET, method: 'POST', data: { ...rowOf(params.data), [pk]: id } })));
      return { data: params.ids };
    },

    async delete(resource, params) {
      const { url } = endpoint(resource);
      await client.request(`${url}del`, { ...QUIET, method: 'DELETE', params: { ids: [params.id] } });
      return { data: (params.previousData ?? { id: params.id }) };
    },

    async deleteMany(resource, params) {
      const { url } = endpoint(resource);
      if (params.ids.length === 0) return { data: [] };
      await client.request(`${url}del`, { ...QUIET, method: 'DELETE', params: { ids: params.ids } });
      return { data: params.ids };
    },

    async sortable(resource, params) {
      const { url } = endpoint(resource);
      await client.request(`${url}sortable`, { ...QUIET, method: 'POST', data: { id: params.id, targetId: params.targetId } });
      return { data: null };
    },

    async action<T = unknown>(resource: string, name: string, params: ActionParams = {}): Promise<{ data: T }> {
      const { url } = endpoint(resource);
      const method = params.method ?? (params.data !== undefined ? 'POST' : 'GET');
      const { data } = await client.request<T>(`${url}${name}`, { ...QUIET, method, params: params.params, data: params.data, timeout: params.timeout });
      return { data };
    },

    async exportCsv(resource: string, params: Pick<GetListParams, 'sort' | 'filter'>) {
      const { url, definition } = endpoint(resource);
      return client.download(`${url}export`, { params: buildListQuery({ sort: params.sort, filter: params.filter }, definition) });
    },
  } as SortableDataProvider & ActionDataProvider;
  return provider;
}
