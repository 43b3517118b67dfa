import type {
  ColumnStorage, FieldDefinition, FieldUi, MenuDefinition, ResourceDefinition, Row, SortTerm, WireType,
  DataLimitMode, IndexDefinition,
} from './definition.js';
import { embeddedColumns } from './definition.js';
import type { SearchOperator } from '../contract/search.js';
import { TextResolver, type RawText, type TextSources } from './local-text.js';
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
  'x-list'?: { quickSearch?: string[]; defaultSort?: string; weighField?: string; tree?: { parentField: string; labelField: string } };
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
type RawFieldUi = Omit<FieldUi, 'options' | 'colors'> & { options?: Record<string, string | { 'zh-cn'?: string; en?: string; color?: TagColor }> };

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
  if (!raw?.options) return { ...raw } as FieldUi;
  const options: Record<string, FieldDefinition['title']> = {};
  const colors: Record<string, TagColor> = {};
  for (const [value, label] of Object.entries(raw.options)) {
    const { color, ...text } = typeof label === 'string' ? { color: undefined } : label;
    options[value] = texts.text(typeof label === 'string' ? label : text, `/properties/${name}/x-ui/options/${value}`, ['fields', name, 'options', value], value);
    if (color) colors[value] = color;
  }
  return { ...raw, options, ...(Object.keys(colors).length > 0 ? { colors } : {}) };
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
  const list = (typeof raw['x-list'] === 'object' && raw['x-list'] !== null ? raw['x-list'] : {}) as RawResourceSchema['x-list'];
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

/**
 * Fill defaults and derive everything the engine and the screens need, once. `sources` give the texts
 * a schema leaves to its locale files and the shared glossary (see `TextResolver`).
 */
export function normaliseResource(file: string, raw: RawResourceSchema, sources: TextSources = {}): ResourceDefinition {
  const texts = new TextResolver(file, sources);
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
  for (const field of fields) {
    if (field.unique && field.storage) indexes.push(field.uniqueWhenSet ? { columns: [field.name], unique: true, whenSet: true } : { columns: [field.name], unique: true });
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
    list: { quickSearch, defaultSort, weighField: list.weighField, tree: list.tree, sortable: sortableColumns(fields, primaryKey, kept) },
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

/**
 * The indexes a list needs, derived from the schema so nobody has to write them: the default
 * order and the weigh order (each with the primary key as tie-break, as the list orders), the tree's
 * parent, every column marked `x-ui.sortable`, and the filters. A column filtered by equality (a
 * reference, `=`, `IN`) leads one index per list order, `(column, order…, key)`, so a filtered list is
 * read in order rather than sorted; a range filter gets its own index. Unique fields get theirs
 * elsewhere; `x-indexes` adds anything else.
 */
function listIndexes(fields: FieldDefinition[], primaryKey: string, list: { defaultSort: SortTerm[]; weighField?: string; tree?: { parentField: string } }): IndexDefinition[] {
  const stored = new Set(fields.filter((field) => field.storage).map((field) => field.name));
  const ordered = (columns: string[]): IndexDefinition[] => {
    const leading = columns.filter((column) => column !== primaryKey && stored.has(column));
    return leading.length > 0 ? [{ columns: [...leading, primaryKey], unique: false }] : [];
  };
  const orders = [list.defaultSort.map((term) => term.field)];
  if (list.weighField) orders.push([list.weighField]);
  const indexes = orders.flatMap(ordered);
  if (list.tree && stored.has(list.tree.parentField)) indexes.push({ columns: [list.tree.parentField], unique: false });
  for (const field of fields) {
    if (!field.storage || field.name === primaryKey) continue;
    if (field.ui.sortable === true) indexes.push(...ordered([field.name]));
    const search = String(field.ui.search ?? '');
    if ((field.ref && !field.ref.many) || EQUALITY_OPERATORS.has(search)) {
      indexes.push(...orders.map((order) => ({ columns: [field.name, ...order.filter((column) => column !== field.name && column !== primaryKey && stored.has(column)), primaryKey], unique: false })));
    } else if (RANGE_OPERATORS.has(search)) {
      indexes.push({ columns: [field.name], unique: false });
    }
  }
  return indexes;
}

/**
 * Columns a list may be ordered by: the primary key, and a column an index serves with the key as
 * tie-break (`(column)` or `(column, key)`), so a page is read in order; `x-ui.sortable: false` opts one out.
 */
function sortableColumns(fields: FieldDefinition[], primaryKey: string, indexes: IndexDefinition[]): string[] {
  const served = new Set([primaryKey, ...indexes.filter((index) => index.columns.length === 1 || (index.columns.length === 2 && index.columns[1] === primaryKey)).map((index) => index.columns[0])]);
  return fields.filter((field) => field.storage && !field.writeOnly && served.has(field.name) && field.ui.sortable !== false).map((field) => field.name);
}

/**
 * One index per column list, the strictest (unique over every row, then unique where set, then plain);
 * a plain index whose columns begin another index is dropped, as that one serves it.
 */
function dedupeIndexes(indexes: IndexDefinition[]): IndexDefinition[] {
  const strictness = (index: IndexDefinition) => (!index.unique ? 0 : index.whenSet ? 1 : 2);
  const seen = new Map<string, IndexDefinition>();
  for (const index of indexes) {
    const key = index.columns.join(',');
    const existing = seen.get(key);
    if (!existing || strictness(index) > strictness(existing)) seen.set(key, index);
  }
  const all = [...seen.values()];
  const covered = (index: IndexDefinition) =>
    !index.unique && all.some((other) => other !== index && !other.whenSet && other.columns.length > index.columns.length && index.columns.every((column, i) => other.columns[i] === column));
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
