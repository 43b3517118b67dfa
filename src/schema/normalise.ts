import type {
  TreeList,
  ColumnStorage, FieldDefinition, FieldUi, MenuDefinition, ResourceDefinition, Row, SortTerm, WireType,
  DataLimitMode, IndexDefinition,
} from './definition.js';
import { embeddedColumns } from './definition.js';
import type { SearchOperator } from '../contract/search.js';
import { languagesWritten, TextResolver, type RawText, type TextSources } from './local-text.js';
import { compilePattern, PatternError } from './pattern.js';
import type { TagColor } from './meta-schema.js';

/** A schema file as written, after it passed the meta-schema. */
export interface RawResourceSchema {
  $id: string;
  title: RawText;
  type: 'object';
  required?: string[];
  properties: Record<string, RawFieldSchema>;
  'x-table': string;
  'x-renamedFrom'?: string;
  'x-primaryKey'?: string;
  'x-controller'?: string;
  'x-menu'?: { name?: string; parent?: string | { name: string; title: RawText; icon?: string; weigh?: number }; title: RawText; icon?: string; weigh?: number; buttons?: string[] };
  'x-list'?: { quickSearch?: string[]; defaultSort?: string; weighField?: string; tree?: TreeList; indexes?: { filter: string | string[]; sort: string }[] };
  'x-dataLimit'?: false | { mode: DataLimitMode; field?: string };
  'x-indexes'?: { columns: string[]; unique?: boolean }[];
  'x-timestamps'?: boolean;
  'x-seed'?: Row[];
  [keyword: string]: unknown;
}

interface RawFieldSchema {
  type: WireType | [WireType | 'null', WireType | 'null'];
  title?: RawText;
  description?: RawText;
  enum?: (string | number)[];
  default?: unknown;
  format?: string;
  maxLength?: number;
  readOnly?: boolean;
  writeOnly?: boolean;
  items?: { type?: string; enum?: unknown[]; maxLength?: number };
  'x-renamedFrom'?: string;
  'x-unique'?: boolean | 'when-set';
  'x-patternMessage'?: string;
  'x-storage'?: 'text' | 'json' | 'csv' | 'virtual';
  'x-ref'?: { resource: string; label?: string; key?: string; many?: boolean; as?: string; fields?: string[] };
  'x-ui'?: RawFieldUi;
  'x-transitions'?: Record<string, string[]>;
  [keyword: string]: unknown;
}

/** `x-ui` as written: an option label is a text, or a text with its chip colour. */
type RawFieldUi = Omit<FieldUi, 'options' | 'colors' | 'columns'> & {
  options?: Record<string, string | { 'zh-cn'?: string; en?: string; color?: TagColor }>;
  columns?: { key?: RawText; value?: RawText };
};

/** Problems found while normalising; each names the JSON path inside the file. */
export class SchemaError extends Error {
  constructor(readonly file: string, readonly path: string, detail: string) {
    super(`${file}: ${path || '/'}: ${detail}`);
    this.name = 'SchemaError';
  }
}

const VARCHAR_LIMIT = 2000;

function wireTypeOf(raw: RawFieldSchema): { wireType: WireType; nullable: boolean } {
  if (Array.isArray(raw.type)) {
    const wireType = raw.type.find((item) => item !== 'null') as WireType;
    return { wireType, nullable: true };
  }
  return { wireType: raw.type, nullable: false };
}

function storageOf(raw: RawFieldSchema, wireType: WireType): ColumnStorage | null {
  const declared = raw['x-storage'];
  if (declared === 'virtual') return null;
  switch (wireType) {
    case 'integer':
      return { type: 'bigint' };
    case 'number':
      return { type: 'real' };
    case 'boolean':
      return { type: 'boolean' };
    case 'array':
    case 'object':
      return { type: declared === 'csv' ? 'csv' : 'json' };
    case 'string': {
      if (raw.format === 'money') return { type: 'money' };
      if (declared === 'text') return { type: 'text' };
      if (raw.format === 'date') return { type: 'varchar', length: 10 };
      const enumLength = raw.enum ? Math.max(...raw.enum.map((value) => String(value).length)) : undefined;
      const length = raw.maxLength ?? enumLength;
      if (length !== undefined && length <= VARCHAR_LIMIT) return { type: 'varchar', length: Math.max(length, 1) };
      return { type: 'text' };
    }
  }
}

function zeroValue(wireType: WireType, storage: ColumnStorage | null): unknown {
  if (storage?.type === 'money') return '0.00';
  switch (wireType) {
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'string':
      return '';
  }
}

/** Option labels and chip colours of an enum field, each label in every language. */
function normaliseUi(raw: RawFieldUi | undefined, name: string, texts: TextResolver): FieldUi {
  const { options: rawOptions, columns: rawColumns, ...rest } = raw ?? {};
  const ui: FieldUi = { ...rest };
  if (rawColumns) ui.columns = normaliseColumns(rawColumns, name, texts);
  if (!rawOptions) return ui;
  const options: Record<string, FieldDefinition['title']> = {};
  const colors: Record<string, TagColor> = {};
  for (const [value, label] of Object.entries(rawOptions)) {
    const { color, ...text } = typeof label === 'string' ? { color: undefined } : label;
    options[value] = texts.text(typeof label === 'string' ? label : text, `/properties/${name}/x-ui/options/${value}`, ['fields', name, 'options', value], value);
    if (color) colors[value] = color;
  }
  return { ...ui, options, ...(Object.keys(colors).length > 0 ? { colors } : {}) };
}

/** The column titles of an `array` widget, each in every language. */
function normaliseColumns(raw: { key?: RawText; value?: RawText }, name: string, texts: TextResolver): FieldUi['columns'] {
  const columns: NonNullable<FieldUi['columns']> = {};
  for (const side of ['key', 'value'] as const) {
    const text = raw[side];
    if (text !== undefined) columns[side] = texts.text(text, `/properties/${name}/x-ui/columns/${side}`, ['fields', name, 'columns', side], side);
  }
  return columns;
}

/**
 * A field's pattern must be one the linear check reads (`pattern.ts`): refused where it is saved (a schema
 * file at start-up, a module, a designed schema, a quick task's form), naming the field.
 */
function checkPattern(file: string, name: string, source: string): void {
  try {
    compilePattern(source);
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    throw new SchemaError(file, `/properties/${name}/pattern`, `the pattern of "${name}" cannot be used: ${error.message}`);
  }
}

function normaliseField(file: string, name: string, raw: RawFieldSchema, texts: TextResolver): FieldDefinition {
  const { wireType, nullable } = wireTypeOf(raw);
  const storage = storageOf(raw, wireType);
  if (raw.format === 'money' && wireType !== 'string') {
    throw new SchemaError(file, `/properties/${name}/format`, 'format "money" needs type "string" (amounts travel as "12.50")');
  }
  if (raw.format === 'percent' && wireType !== 'integer') {
    throw new SchemaError(file, `/properties/${name}/format`, 'format "percent" needs type "integer" (a rate is stored and travels in basis points, 1500 = 15 %)');
  }
  if (raw['x-storage'] === 'csv' && wireType !== 'array') {
    throw new SchemaError(file, `/properties/${name}/x-storage`, '"csv" storage needs type "array"');
  }
  if (typeof raw.pattern === 'string') checkPattern(file, name, raw.pattern);
  const ref = raw['x-ref'];
  if (ref?.fields && !ref.as) throw new SchemaError(file, `/properties/${name}/x-ref/fields`, '"fields" needs "as": only a relation carries its row');
  const help = texts.text(raw.description, `/properties/${name}/description`, ['fields', name, 'help']);
  return {
    name,
    title: texts.text(raw.title, `/properties/${name}/title`, ['fields', name, 'title'], name),
    ...(help.en !== '' ? { help } : {}),
    wireType,
    storage,
    nullable,
    default: raw.default !== undefined ? raw.default : nullable ? null : zeroValue(wireType, storage),
    enum: raw.enum,
    format: raw.format,
    itemType: raw.items?.type as FieldDefinition['itemType'],
    readOnly: raw.readOnly === true,
    writeOnly: raw.writeOnly === true,
    unique: raw['x-unique'] === true || raw['x-unique'] === 'when-set',
    uniqueWhenSet: raw['x-unique'] === 'when-set',
    patternMessage: raw['x-patternMessage'],
    renamedFrom: raw['x-renamedFrom'],
    ref: ref
      ? { resource: ref.resource, label: ref.label ?? 'name', key: ref.key ?? 'id', many: ref.many ?? wireType === 'array', as: ref.as, fields: ref.fields ?? [] }
      : undefined,
    ui: normaliseUi(raw['x-ui'], name, texts),
    transitions: raw['x-transitions'],
  };
}

function parseSort(text: string): SortTerm[] {
  return text.split(';').map((term) => {
    const [field, direction] = term.split(',');
    return { field, direction: direction === 'asc' ? 'asc' : 'desc' };
  });
}

/** `auth.Admin` → `auth/admin`, the permission path of a controller. */
function controllerPathOf(controller: string): string {
  return controller.replace(/\./g, '/').toLowerCase();
}

/** `user.MoneyLog` → `user/moneyLog`, the menu name and route path BuildAdmin's client expects. */
export function menuNameOf(controller: string): string {
  const path = controller.replace(/\./g, '/');
  const cut = path.lastIndexOf('/') + 1;
  return path.slice(0, cut) + path.charAt(cut).toLowerCase() + path.slice(cut + 1);
}

/** The permission nodes a menu gets when its schema lists no `buttons`: the generic actions its list offers. */
function defaultButtons(list: RawResourceSchema['x-list'] = {}): string[] {
  return ['index', 'add', 'edit', 'del', ...(list.weighField ? ['sortable'] : []), ...(list.tree ? [] : ['export'])];
}

/** The actions every resource controller answers (`resources/resource-controller.ts`), each a permission node. */
const RESOURCE_ACTIONS = ['index', 'add', 'edit', 'del', 'sortable', 'export'];

/** The rule names of a menu (with its buttons) and of a controller's address (with its actions), lower-case. */
function ruleNames(menu: { name: string; buttons: readonly string[] } | undefined, controllerPath: string | undefined): string[] {
  const names: string[] = [];
  if (menu) names.push(menu.name, ...menu.buttons.map((button) => `${menu.name}/${button}`));
  if (controllerPath) names.push(controllerPath, ...[...new Set([...(menu?.buttons ?? []), ...RESOURCE_ACTIONS])].map((action) => `${controllerPath}/${action}`));
  return [...new Set(names.map((name) => name.toLowerCase()))];
}

/**
 * The admin rule names a schema claims, lower-case (rules are matched in any case): its menu rule and a node
 * per button under it, its controller's address and a node per action under that. Whoever else holds one
 * of them would share the schema's permissions, so another module, a design or the platform holding one is
 * a clash. Read defensively: a package's schema may not have passed the meta-schema yet.
 */
export function claimedRuleNames(raw: Record<string, unknown>): string[] {
  const controller = typeof raw['x-controller'] === 'string' ? raw['x-controller'] : undefined;
  const list = typeof raw['x-list'] === 'object' && raw['x-list'] !== null ? raw['x-list'] : {};
  const menu = typeof raw['x-menu'] === 'object' && raw['x-menu'] !== null ? (raw['x-menu'] as Record<string, unknown>) : undefined;
  const buttons = Array.isArray(menu?.buttons) ? menu.buttons.filter((button): button is string => typeof button === 'string') : defaultButtons(list);
  const menuName = typeof menu?.name === 'string' ? menu.name : menu && controller ? menuNameOf(controller) : undefined;
  return ruleNames(menuName ? { name: menuName, buttons } : undefined, controller ? controllerPathOf(controller) : undefined);
}

/** The same for a running schema. */
export function definitionRuleNames(definition: ResourceDefinition): string[] {
  return ruleNames(definition.menu, definition.controllerPath);
}

/**
 * The row schema without our keywords: for validators and types. Titles and help are the English
 * texts, as JSON Schema annotations are single strings.
 */
function rowSchemaOf(raw: RawResourceSchema, title: string, fields: FieldDefinition[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(raw.properties)) {
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(field)) if (!key.startsWith('x-')) clean[key] = value;
    const normalised = fields.find((item) => item.name === name);
    if (normalised && field.title !== undefined) clean.title = normalised.title.en;
    if (normalised?.help) clean.description = normalised.help.en;
    properties[name] = clean;
  }
  return { $id: raw.$id, title, type: 'object', required: raw.required ?? [], properties, additionalProperties: false };
}

/** Every text of a schema its screens show, as written: its title, menu titles, and each field's title, help and option labels. */
function shownTextsOf(raw: RawResourceSchema): (RawText | undefined)[] {
  const menu = raw['x-menu'];
  const texts: (RawText | undefined)[] = [raw.title, menu?.title, typeof menu?.parent === 'object' ? menu.parent.title : undefined];
  for (const field of Object.values(raw.properties)) {
    texts.push(field.title, field.description);
    for (const label of Object.values(field['x-ui']?.options ?? {})) {
      if (typeof label === 'string') texts.push(label);
      else texts.push({ 'zh-cn': label['zh-cn'], en: label.en });
    }
  }
  return texts;
}

/**
 * Fill defaults and derive everything the engine and the screens need, once. `sources` give the texts
 * a schema leaves to its locale files and the shared glossary (see `TextResolver`).
 */
export function normaliseResource(file: string, raw: RawResourceSchema, sources: TextSources = {}): ResourceDefinition {
  const texts = new TextResolver(file, sources, languagesWritten(shownTextsOf(raw), sources.locale));
  const title = texts.text(raw.title, '/title', ['title'], raw.$id);
  const fields = Object.entries(raw.properties).map(([name, field]) => normaliseField(file, name, field, texts));
  const names = new Set(fields.map((field) => field.name));
  const primaryKey = raw['x-primaryKey'] ?? 'id';
  if (!names.has(primaryKey)) throw new SchemaError(file, '/x-primaryKey', `primary key "${primaryKey}" is not a property`);
  const mustExist = (path: string, field: string) => {
    const column = field.includes('.') ? undefined : field;
    if (column !== undefined && !names.has(column)) throw new SchemaError(file, path, `unknown field "${field}"`);
  };
  for (const name of raw.required ?? []) mustExist('/required', name);

  const list = raw['x-list'] ?? {};
  const quickSearch = list.quickSearch ?? [primaryKey];
  quickSearch.forEach((field, index) => mustExist(`/x-list/quickSearch/${index}`, field));
  const defaultSort = parseSort(list.defaultSort ?? `${primaryKey},desc`);
  defaultSort.forEach((term) => mustExist('/x-list/defaultSort', term.field));
  // Ties are broken by the key, so pages never repeat or skip a row.
  if (!defaultSort.some((term) => term.field === primaryKey)) defaultSort.push({ field: primaryKey, direction: defaultSort[0].direction });
  if (list.weighField) mustExist('/x-list/weighField', list.weighField);
  if (list.tree) {
    mustExist('/x-list/tree/parentField', list.tree.parentField);
    mustExist('/x-list/tree/labelField', list.tree.labelField);
    const selectable = list.tree.selectable;
    if (selectable) {
      mustExist('/x-list/tree/selectable/field', selectable.field);
      const allowed = raw.properties[selectable.field]?.enum;
      if (allowed && !allowed.map(String).includes(selectable.value)) {
        throw new SchemaError(file, '/x-list/tree/selectable/value', `"${selectable.value}" is not a value of "${selectable.field}"`);
      }
    }
  }

  const controller = raw['x-controller'];
  const controllerPath = controller ? controllerPathOf(controller) : undefined;
  let menu: MenuDefinition | undefined;
  const rawMenu = raw['x-menu'];
  if (rawMenu) {
    if (!controllerPath && !rawMenu.name) throw new SchemaError(file, '/x-menu', 'a menu needs "name" or "x-controller"');
    const buttons = rawMenu.buttons ?? defaultButtons(list);
    const parent = rawMenu.parent;
    menu = {
      name: rawMenu.name ?? menuNameOf(controller as string),
      parent: typeof parent === 'object' ? parent.name : parent,
      ...(typeof parent === 'object'
        ? { parentDirectory: { title: texts.text(parent.title, '/x-menu/parent/title', ['menu', 'parent'], parent.name), icon: parent.icon ?? 'fa fa-folder', weigh: parent.weigh ?? 0 } }
        : {}),
      title: texts.text(rawMenu.title, '/x-menu/title', ['menu', 'title']),
      icon: rawMenu.icon ?? 'fa fa-circle-o',
      weigh: rawMenu.weigh ?? 0,
      buttons,
    };
  }

  const rawLimit = raw['x-dataLimit'];
  const dataLimit = rawLimit ? { mode: rawLimit.mode, field: rawLimit.field ?? 'admin_id' } : false;
  if (dataLimit) mustExist('/x-dataLimit/field', dataLimit.field);

  const indexes = (raw['x-indexes'] ?? []).map((index, position): IndexDefinition => {
    index.columns.forEach((column, i) => mustExist(`/x-indexes/${position}/columns/${i}`, column));
    return { columns: index.columns, unique: index.unique ?? false };
  });
  indexes.push(...listIndexes(fields, primaryKey, { defaultSort, weighField: list.weighField, tree: list.tree }));
  const listOrders = { defaultSort, weighField: list.weighField };
  indexes.push(...filterListOrderIndexes(fields, primaryKey, listOrders));
  // Which columns a list may be ordered by is settled by these indexes; the filter × order ones below serve those orders.
  const sortable = sortableColumns(fields, primaryKey, dedupeIndexes([...indexes, ...uniqueIndexes(fields)]));
  // A column sortable by an index of its own alone (`x-indexes`) gets the key as tie-break, which PostgreSQL would sort in.
  // (A unique column that is always set has no ties: its own index gives the order.)
  const tieless = new Set(fields.filter((field) => field.unique && !field.uniqueWhenSet && !field.nullable).map((field) => field.name));
  for (const column of sortable) if (column !== primaryKey && !tieless.has(column)) indexes.push(orderIndex([], columnOrder(column), primaryKey));
  const named = (list.indexes ?? []).map((entry, position): IndexDefinition => {
    const path = `/x-list/indexes/${position}`;
    const filters = Array.isArray(entry.filter) ? entry.filter : [entry.filter];
    filters.forEach((name, i) => {
      const field = fields.find((item) => item.name === name);
      if (!field || !field.storage || !equalityFiltered(field)) throw new SchemaError(file, Array.isArray(entry.filter) ? `${path}/filter/${i}` : `${path}/filter`, `"${name}" is not a stored field filtered with "=", "IN" or a reference`);
    });
    if (!sortable.includes(entry.sort)) throw new SchemaError(file, `${path}/sort`, `the list cannot be ordered by "${entry.sort}" (sortable: ${sortable.join(', ')})`);
    return orderIndex(filters, columnOrder(entry.sort), primaryKey);
  });
  indexes.push(...named, ...filterOrderIndexes(fields, primaryKey, sortable, listOrders));
  indexes.push(...uniqueIndexes(fields));
  for (const field of fields) {
    const transitions = field.transitions;
    if (transitions) {
      if (!field.enum) throw new SchemaError(file, `/properties/${field.name}/x-transitions`, 'transitions need an enum');
      for (const [from, targets] of Object.entries(transitions)) {
        for (const value of [from, ...targets]) {
          if (!field.enum.map(String).includes(value)) {
            throw new SchemaError(file, `/properties/${field.name}/x-transitions/${from}`, `"${value}" is not one of the enum values`);
          }
        }
      }
    }
    if (field.ui.search) void (field.ui.search satisfies SearchOperator);
  }

  const withTimestamps = raw['x-timestamps'] !== false;
  const kept = dedupeIndexes(indexes);
  return {
    id: raw.$id,
    title,
    table: raw['x-table'],
    renamedFrom: raw['x-renamedFrom'],
    primaryKey,
    controller,
    controllerPath,
    fields,
    list: { quickSearch, defaultSort, weighField: list.weighField, tree: list.tree, sortable },
    menu,
    dataLimit,
    indexes: kept,
    timestamps: {
      create: withTimestamps && names.has('create_time') ? 'create_time' : undefined,
      update: withTimestamps && names.has('update_time') ? 'update_time' : undefined,
    },
    seed: raw['x-seed'] ?? [],
    textGaps: texts.gaps,
    rowSchema: rowSchemaOf(raw, title.en, fields),
  };
}

/** Filters an index on the column serves: equality and lists lead a composite index, ranges stand alone. */
const EQUALITY_OPERATORS: ReadonlySet<string> = new Set(['=', 'IN']);
const RANGE_OPERATORS: ReadonlySet<string> = new Set(['RANGE', '>', '>=', '<', '<=']);

/** A column a list filters by equality: a reference, or searched with `=` or `IN`. */
function equalityFiltered(field: FieldDefinition): boolean {
  return Boolean(field.ref && !field.ref.many) || EQUALITY_OPERATORS.has(String(field.ui.search ?? ''));
}

/** The unique indexes of unique fields (over every row, or over the rows where the value is set). */
function uniqueIndexes(fields: FieldDefinition[]): IndexDefinition[] {
  return fields.filter((field) => field.unique && field.storage).map((field) => (field.uniqueWhenSet ? { columns: [field.name], unique: true, whenSet: true } : { columns: [field.name], unique: true }));
}

/**
 * `(filter…, order…, key)`: the filters' rows in the order, each order column once, the key last as
 * tie-break. In an order of mixed directions (`weigh,desc;id,asc`) a column the other way round from
 * the first is stored descending, so that the index read backward gives the order.
 */
function orderIndex(filters: string[], order: SortTerm[], primaryKey: string, stored?: ReadonlySet<string>): IndexDefinition {
  const leading = [...new Set(filters)];
  const terms = order.filter((term) => term.field !== primaryKey && !leading.includes(term.field) && (!stored || stored.has(term.field)));
  const key = order.find((term) => term.field === primaryKey) ?? { field: primaryKey, direction: order[0]?.direction ?? 'desc' };
  const all = [...terms, key];
  const descending = all.filter((term) => term.direction !== all[0].direction).map((term) => term.field);
  return { columns: [...leading, ...all.map((term) => term.field)], unique: false, ...(descending.length > 0 ? { descending } : {}) };
}

/** A sortable column's order, as a list asks for it (the key breaking ties the same way). */
function columnOrder(column: string): SortTerm[] {
  return [{ field: column, direction: 'desc' }];
}

/**
 * How many `(filter, order, key)` indexes a table gets for the orders other than its default and weigh
 * orders (which every equality filter always leads one for). Each index is written on every insert and
 * update of a row, so a table with many filters and sortable columns gets the first ones in this order:
 * the columns marked `x-ui.sortable: true` as the schema lists them, then the key, then the other sortable
 * columns (a range-filtered column, then a unique one), then the filtered ones; each with every filter in turn (a
 * unique filter but one: its value is on one row at most). A request shape left
 * without an index is read the cheaper of two ways by the filter's measured number of rows
 * (src/server/resources/list-plan.ts), and named at start-up; `x-list.indexes` adds any the schema needs.
 */
export const MAX_FILTER_ORDER_INDEXES = 12;

/** The columns filtered by equality, but the key. */
function equalityFilters(fields: FieldDefinition[], primaryKey: string): string[] {
  return fields.filter((field) => field.storage && field.name !== primaryKey && equalityFiltered(field)).map((field) => field.name);
}

/** The default order and the weigh order. */
function listOrdersOf(list: { defaultSort: SortTerm[]; weighField?: string }): SortTerm[][] {
  return [list.defaultSort, ...(list.weighField ? [columnOrder(list.weighField)] : [])];
}

/** Every equality filter leads one index per list order (default, weigh), `(filter, order…, key)`. */
function filterListOrderIndexes(fields: FieldDefinition[], primaryKey: string, list: { defaultSort: SortTerm[]; weighField?: string }): IndexDefinition[] {
  const stored = new Set(fields.filter((field) => field.storage).map((field) => field.name));
  return listOrdersOf(list).flatMap((order) => equalityFilters(fields, primaryKey).map((filter) => orderIndex([filter], order, primaryKey, stored)));
}

/**
 * One index per equality filter and other order a list may be asked for (a sortable column), so a
 * filtered page is read in order from the index rather than sorted, up to `MAX_FILTER_ORDER_INDEXES`.
 */
function filterOrderIndexes(fields: FieldDefinition[], primaryKey: string, sortable: string[], list: { defaultSort: SortTerm[]; weighField?: string }): IndexDefinition[] {
  const orders = listOrdersOf(list);
  const known = new Set(filterListOrderIndexes(fields, primaryKey, list).map(indexKey));
  const marked = fields.filter((field) => field.ui.sortable === true).map((field) => field.name);
  const filters = equalityFilters(fields, primaryKey);
  const uniques = new Set(fields.filter((field) => field.unique).map((field) => field.name));
  const others = [...marked, primaryKey, ...sortable.filter((column) => !filters.includes(column) && !uniques.has(column)), ...sortable.filter((column) => !filters.includes(column)), ...sortable].filter((column, i, all) => sortable.includes(column) && all.indexOf(column) === i && !orders.some((order) => order.filter((term) => term.field !== primaryKey).length === 1 && order[0].field === column));
  // A unique column's value is on one row at most, which needs no order read from an index.
  const several = filters.filter((filter) => !uniques.has(filter));
  const more = others.flatMap((column) => several.filter((filter) => filter !== column).map((filter) => orderIndex([filter], columnOrder(column), primaryKey)));
  return more.filter((index) => !known.has(indexKey(index))).slice(0, MAX_FILTER_ORDER_INDEXES);
}

/**
 * The indexes an unfiltered list needs, derived from the schema so nobody has to write them: the
 * default order and the weigh order (each with the primary key as tie-break, as the list orders), the
 * tree's parent, every column marked `x-ui.sortable`, and a range filter's column. The columns filtered
 * by equality lead the indexes of `filterOrderIndexes`; unique fields get theirs from `uniqueIndexes`;
 * `x-indexes` and `x-list.indexes` add anything else.
 */
function listIndexes(fields: FieldDefinition[], primaryKey: string, list: { defaultSort: SortTerm[]; weighField?: string; tree?: { parentField: string } }): IndexDefinition[] {
  const stored = new Set(fields.filter((field) => field.storage).map((field) => field.name));
  const ordered = (order: SortTerm[]): IndexDefinition[] => (order.some((term) => term.field !== primaryKey && stored.has(term.field)) ? [orderIndex([], order, primaryKey, stored)] : []);
  const indexes = listOrdersOf(list).flatMap(ordered);
  if (list.tree && stored.has(list.tree.parentField)) indexes.push({ columns: [list.tree.parentField], unique: false });
  for (const field of fields) {
    if (!field.storage || field.name === primaryKey) continue;
    if (field.ui.sortable === true) indexes.push(...ordered(columnOrder(field.name)));
    // A range is read along the column, the key breaking ties: the list ordered by it is read in order too.
    if (!equalityFiltered(field) && RANGE_OPERATORS.has(String(field.ui.search ?? ''))) indexes.push(...ordered(columnOrder(field.name)));
  }
  return indexes;
}

/**
 * Columns a list may be ordered by: the primary key, and a column an index over every row serves with
 * the key as tie-break (`(column)` or `(column, key)`), so a page is read in order; `x-ui.sortable: false`
 * opts one out.
 */
function sortableColumns(fields: FieldDefinition[], primaryKey: string, indexes: IndexDefinition[]): string[] {
  // A partial index (unique where set) holds only some rows: it cannot give the whole list's order.
  const served = new Set([primaryKey, ...indexes.filter((index) => !index.whenSet && !index.descending && (index.columns.length === 1 || (index.columns.length === 2 && index.columns[1] === primaryKey))).map((index) => index.columns[0])]);
  return fields.filter((field) => field.storage && !field.writeOnly && served.has(field.name) && field.ui.sortable !== false).map((field) => field.name);
}

/** Whether `index` stores `column` descending. */
function descends(index: IndexDefinition, column: string): boolean {
  return index.descending?.includes(column) ?? false;
}

/** An index's columns, each with its direction, as text: two indexes with the same key are one. */
function indexKey(index: IndexDefinition): string {
  return index.columns.map((column) => (descends(index, column) ? `${column} desc` : column)).join(',');
}

/**
 * One index per column list, the strictest (unique over every row, then unique where set, then plain);
 * a plain index whose columns begin another index is dropped, as that one serves it.
 */
function dedupeIndexes(indexes: IndexDefinition[]): IndexDefinition[] {
  const strictness = (index: IndexDefinition) => (!index.unique ? 0 : index.whenSet ? 1 : 2);
  const seen = new Map<string, IndexDefinition>();
  for (const index of indexes) {
    const key = indexKey(index);
    const existing = seen.get(key);
    if (!existing || strictness(index) > strictness(existing)) seen.set(key, index);
  }
  const all = [...seen.values()];
  const covered = (index: IndexDefinition) =>
    !index.unique && all.some((other) => other !== index && !other.whenSet && other.columns.length > index.columns.length && index.columns.every((column, i) => other.columns[i] === column && descends(other, column) === descends(index, column)));
  return all.filter((index) => !covered(index));
}

/** Cross-file checks: references point at loaded schemas and their columns; names are unique. */
export function checkResourceSet(entries: { file: string; definition: ResourceDefinition }[]): void {
  const byId = new Map(entries.map((entry) => [entry.definition.id, entry]));
  const tables = new Map<string, string>();
  const controllers = new Map<string, string>();
  for (const { file, definition } of entries) {
    const clash = tables.get(definition.table);
    if (clash) throw new SchemaError(file, '/x-table', `table "${definition.table}" is also declared by ${clash}`);
    tables.set(definition.table, file);
    if (definition.controllerPath) {
      const other = controllers.get(definition.controllerPath);
      if (other) throw new SchemaError(file, '/x-controller', `controller "${definition.controller}" is also declared by ${other}`);
      controllers.set(definition.controllerPath, file);
    }
    for (const field of definition.fields) {
      if (!field.ref) continue;
      const target = byId.get(field.ref.resource);
      const path = `/properties/${field.name}/x-ref`;
      if (!target) throw new SchemaError(file, `${path}/resource`, `unknown resource "${field.ref.resource}"`);
      // A write-only column (a password hash, a salt) never leaves the server, not even as a label.
      const resource = field.ref.resource;
      const requireReadable = (column: string, at: string, stored = false) => {
        const found = target.definition.fields.find((item) => item.name === column);
        if (!found || (stored && !found.storage)) throw new SchemaError(file, at, `"${resource}" has no ${stored ? 'stored ' : ''}field "${column}"`);
        if (found.writeOnly) throw new SchemaError(file, at, `"${resource}" field "${column}" is write-only: it never leaves the server`);
      };
      requireReadable(field.ref.label, `${path}/label`);
      requireReadable(field.ref.key, `${path}/key`, true);
      field.ref.fields.forEach((column, index) => requireReadable(column, `${path}/fields/${index}`));
    }
    definition.list.quickSearch.forEach((name, index) => {
      const [relation, column] = name.split('.');
      if (column === undefined) return;
      const ref = definition.fields.find((field) => field.ref?.as === relation)?.ref;
      if (!ref) throw new SchemaError(file, `/x-list/quickSearch/${index}`, `unknown relation "${relation}"`);
      // What a list may be searched by, it also shows: a column of the related row the list carries.
      if (!embeddedColumns(ref).includes(column)) {
        throw new SchemaError(file, `/x-list/quickSearch/${index}`, `"${column}" is not carried by relation "${relation}" (its key, label or x-ref.fields)`);
      }
    });
  }
}
