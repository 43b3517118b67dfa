import { designedIdOf } from '../../contract/designed-modules.js';
import { normaliseOperator } from '../../contract/search.js';
import type { FieldDefinition, ResourceDefinition, Row } from '../../schema/definition.js';
import { RENDERS } from '../../schema/meta-schema.js';
import { widgetOf } from '../../schema/widget-of.js';
import { createValueCheck, type SchemaIssue } from '../../schema/value-checker.js';
import { isKeptName } from '../../schema/portable.js';
import { errors, type ApiError } from '../errors.js';
import { isSystemTable } from '../db/system-tables.js';
import { TAG_COLORS } from '../../contract/value-tags.js';
import type { LocalText } from '../../schema/local-text.js';
import { isOneOf, isRecord } from '../../contract/checks.js';

/**
 * BuildAdmin's CRUD design (the `table` and `fields` its `design.vue` posts to `crud.Crud/generate`) read
 * as a resource schema: every design type becomes one of our field types and widgets, a few are refused
 * because they mean nothing here. A design is only ever data: names are checked against a strict
 * pattern, and nothing in it becomes code or a path.
 */

export { DESIGNED_AREA, designedIdOf } from '../../contract/designed-modules.js';

/** A design's table part (BuildAdmin's keys, and ours: `title`, `menu`). */
interface TableDesign {
  name: string;
  comment: string;
  /** both labels of the module; BuildAdmin sends only `comment` */
  title?: { 'zh-cn'?: string; en?: string };
  quickSearchField: string[];
  defaultSortField: string;
  defaultSortType: string;
  formFields: string[];
  columnFields: string[];
  /** BuildAdmin: `Yes` rebuilds the table (its data may go); here it confirms a migration that could lose data */
  rebuild: string;
  /** BuildAdmin's renames, removals and additions since the design was loaded */
  designChange: { type: string; oldName?: string; newName?: string }[];
  /**
   * where the menu goes: a menu directory's rule name, its icon and weigh; `parentTitle` names the directory
   * made for the table's prefix when no `parent` is given (`shop_goods` goes under a new directory `shop`)
   */
  menu?: { parent?: string; icon?: string; weigh?: number; parentTitle?: { 'zh-cn'?: string; en?: string } };
}

/** A design's field (BuildAdmin's keys, and ours: `label`, `options`, `unique`). */
interface FieldDesign {
  name: string;
  type: string;
  dataType: string;
  length: number;
  precision: number;
  default: unknown;
  defaultType: string;
  null: boolean;
  primaryKey: boolean;
  unsigned: boolean;
  autoIncrement: boolean;
  comment: string;
  designType: string;
  table: Row;
  form: Row;
  label?: { 'zh-cn'?: string; en?: string };
  /** enum values with their labels and chip colours (BuildAdmin writes them in the comment) */
  options?: Record<string, { 'zh-cn'?: string; en?: string; color?: string }>;
  unique?: boolean | 'when-set';
}

/** Table and field names: what BuildAdmin's screen allows, lower-case (our schemas are snake_case). */
const NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Words a table or field may not be named (SQL keywords, which would need quoting everywhere a person writes SQL). */
const RESERVED_WORDS = new Set([
  'all', 'alter', 'and', 'any', 'as', 'asc', 'between', 'by', 'case', 'check', 'column', 'constraint', 'create', 'cross', 'current_date',
  'current_time', 'current_timestamp', 'current_user', 'default', 'delete', 'desc', 'distinct', 'drop', 'else', 'end', 'except', 'exists',
  'false', 'fetch', 'for', 'foreign', 'from', 'full', 'grant', 'group', 'having', 'in', 'index', 'inner', 'insert', 'intersect', 'into', 'is',
  'join', 'key', 'left', 'like', 'limit', 'natural', 'not', 'null', 'offset', 'on', 'or', 'order', 'outer', 'primary', 'references', 'right',
  'select', 'session_user', 'set', 'table', 'then', 'to', 'true', 'union', 'unique', 'update', 'user', 'using', 'values', 'when', 'where', 'with',
]);


/** Design types that mean nothing here, with the message that says why. */
const REFUSED_TYPES: Readonly<Record<string, (field: LocalText) => ApiError>> = {
  spk: errors.snowflakeKeyRefused,
  password: errors.passwordFieldRefused,
};

/** Validators of BuildAdmin's form that our field types already enforce, and those that add a format. */
const IMPLIED_VALIDATORS = new Set(['number', 'integer', 'float', 'date', 'time', 'datetime', 'year']);
const FORMAT_VALIDATORS: Readonly<Record<string, string>> = { email: 'email', url: 'uri', mobile: 'mobile' };

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text).filter(Boolean) : typeof value === 'string' && value ? value.split(',') : [];
}

/** Check a table name: the pattern, no SQL keyword, no table of the platform. */
export function checkTableName(name: unknown): string {
  const table = text(name);
  if (!NAME.test(table) || RESERVED_WORDS.has(table)) throw errors.tableNameNotAllowed(table);
  if (isSystemTable(table) || isKeptName(table)) throw errors.tableReserved(table);
  return table;
}

/**
 * A field as the designer's screen names it, in each language: its label with its name, `状态 (status)`,
 * or the name alone when it has no label. Every refusal about a field names it so.
 */
export function fieldWords(field: { name: string; label?: { 'zh-cn'?: string; en?: string }; comment?: string }): LocalText {
  const label = isRecord(field.label) ? field.label : {};
  // BuildAdmin's screen sends no label: its comment's title is what it shows
  const titled = parseComment(text(field.comment)).title.trim();
  const words = (...texts: unknown[]) => {
    const shown = texts.map((item) => text(item).trim()).find(Boolean) ?? '';
    return (shown && shown !== field.name ? `${shown.slice(0, 100)} (${field.name})` : field.name).slice(0, 150);
  };
  return { 'zh-cn': words(label['zh-cn'], label.en, titled), en: words(label.en, label['zh-cn'], titled) };
}

/** An enum option as the designer's screen names it: its label in each language, else its value. */
function optionWords(value: string, label: Row): LocalText {
  const zh = text(label['zh-cn']) || text(label.en) || value;
  const en = text(label.en) || text(label['zh-cn']) || value;
  return { 'zh-cn': zh.slice(0, 100), en: en.slice(0, 100) };
}

function checkFieldName(name: unknown): string {
  const field = text(name);
  if (!NAME.test(field) || RESERVED_WORDS.has(field)) throw errors.fieldNameNotAllowed(field);
  if (isKeptName(field)) throw errors.fieldNameKept(field);
  return field;
}

/** `test_build` → `test.Build` (BuildAdmin's controller for that table: `app/admin/controller/test/Build.php`). */
export function controllerOfTable(table: string): string {
  const parts = table.split('_').filter(Boolean);
  const last = parts.pop() as string;
  return [...parts, last.charAt(0).toUpperCase() + last.slice(1)].join('.');
}


/** A text in both languages from a label object, else from a plain text (Chinese or English, the glossary translates). */
function localText(label: unknown, fallback: string): string | { 'zh-cn'?: string; en?: string } {
  if (isRecord(label)) {
    const zh = text(label['zh-cn']).slice(0, 100);
    const en = text(label.en).slice(0, 100);
    if (zh || en) return { ...(zh ? { 'zh-cn': zh } : {}), ...(en ? { en } : {}) };
  }
  return fallback.slice(0, 100);
}

/** BuildAdmin's dictionary comment, `Title:value1=Label 1,value2=Label 2` (full-width punctuation too). */
function parseComment(comment: string): { title: string; options?: [string, string][] } {
  const normalised = comment.replace(/：/g, ':').replace(/，/g, ',');
  const colon = normalised.indexOf(':');
  if (colon < 0 || !normalised.includes('=')) return { title: comment };
  const options = normalised
    .slice(colon + 1)
    .split(',')
    .map((item) => item.split('='))
    .filter((pair) => pair.length === 2 && pair[0].trim() !== '')
    .map(([value, label]) => [value.trim(), label.trim()] as [string, string]);
  return { title: normalised.slice(0, colon).trim(), options };
}

function defaultOf(field: FieldDesign): { value?: unknown } {
  switch (field.defaultType) {
    case 'NULL':
      return { value: null };
    case 'EMPTY STRING':
      return { value: '' };
    case 'INPUT':
      return field.default === undefined || field.default === '' ? {} : { value: field.default };
    default:
      return {};
  }
}

interface Built {
  property: Row;
  required: boolean;
  weigh: boolean;
  primaryKey: boolean;
}

/** The enum values and their labels: ours (`options`), else BuildAdmin's comment. */
function enumOf(field: FieldDesign): { values: string[]; labels: Row } {
  if (isRecord(field.options) && Object.keys(field.options).length > 0) {
    // no prototype: an option named `__proto__` stays an option, for the schema check to refuse
    const labels = Object.create(null) as Row;
    for (const [value, label] of Object.entries(field.options)) {
      if (!isRecord(label)) throw errors.fieldOptionsMissing(fieldWords(field));
      if (isKeptName(value)) throw errors.optionValueKept(fieldWords(field), value.slice(0, 40));
      const color = text(label.color);
      // the colours a schema accepts are the designer's list (`OPTION_COLORS`), so only a hand-made request gets here
      if (color && !isOneOf(TAG_COLORS, color)) throw errors.optionColorUnknown(fieldWords(field), optionWords(value, label));
      const entry: Row = {};
      for (const key of ['zh-cn', 'en', 'color'] as const) if (text(label[key])) entry[key] = text(label[key]).slice(0, 100);
      labels[value] = entry;
    }
    return { values: Object.keys(labels), labels };
  }
  const { options } = parseComment(text(field.comment));
  if (!options || options.length === 0) throw errors.fieldOptionsMissing(fieldWords(field));
  return { values: options.map(([value]) => value), labels: Object.fromEntries(options.map(([value, label]) => [value, label])) };
}

/** A related resource of a remote select, by the table BuildAdmin names. */
function remoteOf(field: FieldDesign, resources: ReadonlyMap<string, ResourceDefinition>): { resource: string; label: string; key?: string } {
  const table = text(field.form['remote-table']);
  const label = text(field.form['remote-field']);
  if (!table || !label) throw errors.remoteSelectIncomplete(fieldWords(field));
  const related = [...resources.values()].find((definition) => definition.table === table);
  if (!related) throw errors.remoteTableUnknown(fieldWords(field), table);
  if (!related.fields.some((item) => item.name === label && item.storage && !item.writeOnly)) throw errors.remoteFieldUnknown(fieldWords(field), related.title, label.slice(0, 60));
  const key = text(field.form['remote-pk']);
  return { resource: related.id, label, ...(key && key !== related.primaryKey ? { key } : {}) };
}

function multi(field: FieldDesign, key: string): boolean {
  const value = field.form[key];
  return value === true || value === 'true' || value === 1 || value === '1';
}

/** One field of the design as a schema property. */
function buildField(field: FieldDesign, table: TableDesign, resources: ReadonlyMap<string, ResourceDefinition>, renamedFrom: string | undefined): Built {
  const name = field.name;
  const parsed = parseComment(text(field.comment));
  const title = localText(field.label, parsed.title || name);
  const nullable = field.null === true;
  const typed = (type: string) => (nullable ? [type, 'null'] : type);
  const ui: Row = {};
  const property: Row = { title };
  let required = false;
  let weigh = false;
  let primaryKey = false;
  let designType = text(field.designType);
  // BuildAdmin's multiple choice switch turns a single design type into its plural.
  if (designType === 'select' && multi(field, 'select-multi')) designType = 'selects';
  if (designType === 'remoteSelect' && multi(field, 'select-multi')) designType = 'remoteSelects';
  if (designType === 'image' && multi(field, 'image-multi')) designType = 'images';
  if (designType === 'file' && multi(field, 'file-multi')) designType = 'files';
  const refusal = REFUSED_TYPES[designType];
  if (refusal) throw refusal(fieldWords(field));
  const length = Number(field.length) > 0 ? Math.min(Number(field.length), 2000) : 255;
  const choices = (widget: string, many: boolean) => {
    const { values, labels } = enumOf(field);
    ui.widget = widget;
    ui.options = labels;
    if (many) Object.assign(property, { type: 'array', items: { type: 'string', enum: values }, 'x-storage': 'csv', default: [] });
    else Object.assign(property, { type: typed('string'), enum: values, maxLength: Math.max(...values.map((value) => value.length), 1) });
    if (!ui.render) ui.render = many ? 'tags' : 'tag';
  };
  switch (designType) {
    case 'pk':
      Object.assign(property, { type: 'integer', readOnly: true });
      primaryKey = true;
      break;
    case 'weigh':
      Object.assign(property, { type: 'integer', default: 0 });
      ui.widget = 'weigh';
      weigh = true;
      break;
    case 'timestamp':
    case 'datetime':
      Object.assign(property, { type: ['integer', 'null'] });
      if (designType === 'timestamp' && ['create_time', 'update_time'].includes(name)) property.readOnly = true;
      else ui.widget = 'datetime';
      ui.render = 'datetime';
      break;
    case 'string':
      Object.assign(property, { type: typed('string'), maxLength: length });
      break;
    case 'textarea':
    case 'editor':
      Object.assign(property, { type: typed('string'), 'x-storage': 'text' });
      ui.widget = designType;
      break;
    case 'number':
      Object.assign(property, { type: typed('integer'), ...(field.unsigned ? { minimum: 0 } : {}) });
      break;
    case 'float':
      Object.assign(property, { type: typed('number'), ...(field.unsigned ? { minimum: 0 } : {}) });
      break;
    case 'money':
      Object.assign(property, { type: typed('string'), format: 'money' });
      break;
    case 'year':
      Object.assign(property, { type: typed('integer'), minimum: 1000, maximum: 9999 });
      ui.widget = 'year';
      break;
    case 'date':
    case 'time':
      Object.assign(property, { type: typed('string'), format: designType });
      break;
    case 'radio':
    case 'select':
    case 'enum':
      choices(designType === 'enum' ? 'select' : designType, false);
      break;
    case 'checkbox':
    case 'selects':
      choices(designType, true);
      break;
    case 'switch': {
      const labels = parseComment(text(field.comment)).options;
      Object.assign(property, { type: 'integer', enum: [0, 1] });
      ui.widget = 'switch';
      ui.render = 'switch';
      if (labels?.length) ui.options = Object.fromEntries(labels.filter(([value]) => value === '0' || value === '1'));
      break;
    }
    case 'image':
    case 'file':
    case 'icon':
    case 'city':
      Object.assign(property, { type: typed('string'), maxLength: 255 });
      ui.widget = designType;
      if (designType === 'image' || designType === 'icon') ui.render = designType;
      break;
    case 'images':
    case 'files':
      Object.assign(property, { type: 'array', items: { type: 'string' }, 'x-storage': 'csv', default: [] });
      ui.widget = designType;
      if (designType === 'images') ui.render = 'images';
      break;
    case 'color':
      Object.assign(property, { type: typed('string'), format: 'color' });
      ui.render = 'color';
      break;
    case 'array':
      Object.assign(property, { type: 'array', 'x-storage': 'json', default: [] });
      ui.widget = 'array';
      break;
    case 'remoteSelect':
      Object.assign(property, { type: typed('integer'), 'x-ref': remoteOf(field, resources) });
      break;
    case 'remoteSelects':
      Object.assign(property, { type: 'array', items: { type: 'integer' }, 'x-storage': 'csv', default: [], 'x-ref': { ...remoteOf(field, resources), many: true } });
      break;
    default:
      throw errors.unknownDesignType(fieldWords(field), designType);
  }
  const fallback = defaultOf(field);
  if ('value' in fallback && !primaryKey && property.readOnly !== true && (fallback.value !== null || Array.isArray(property.type))) {
    // the default is what every new record's form starts with: one the field itself would refuse is refused here
    const cast = castDefault(property, fallback.value);
    const issues: SchemaIssue[] = [];
    if (cast !== undefined) createValueCheck(property, name)(cast, '', issues);
    if (cast === undefined || issues.length) throw errors.defaultInvalid(fieldWords(field), String(fallback.value).slice(0, 60));
    property.default = cast;
  }

  for (const validator of list(field.form.validator)) {
    if (validator === 'required') required = !primaryKey && property.readOnly !== true;
    else if (FORMAT_VALIDATORS[validator] && !property.format) property.format = FORMAT_VALIDATORS[validator];
    else if (!IMPLIED_VALIDATORS.has(validator) && !FORMAT_VALIDATORS[validator]) throw errors.validatorUnsupported(fieldWords(field), validator);
  }
  if (table.columnFields.includes(name)) ui.list = true;
  if (!table.formFields.includes(name) && !primaryKey && property.readOnly !== true) ui.form = false;
  const operator = field.table.operator;
  if (operator !== undefined && operator !== false && operator !== 'false' && operator !== '') {
    const canonical = normaliseOperator(text(operator));
    if (!canonical) throw errors.operatorUnsupported(fieldWords(field), text(operator));
    ui.search = canonical;
  }
  if (field.table.sortable === 'custom' || field.table.sortable === true) ui.sortable = true;
  const render = text(field.table.render);
  if (render && render !== 'none' && isOneOf(RENDERS, render) && !ui.render) ui.render = render;
  const width = Number(field.table.width);
  if (Number.isInteger(width) && width > 0 && width < 2000) ui.width = width;
  if (field.unique === true || field.unique === 'when-set') property['x-unique'] = field.unique;
  if (renamedFrom) property['x-renamedFrom'] = renamedFrom;
  if (Object.keys(ui).length) property['x-ui'] = ui;
  return { property, required, weigh, primaryKey };
}

/** A default as the field's wire type wants it (BuildAdmin sends every default as text). */
function castDefault(property: Row, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  if (type === 'integer' || type === 'number') {
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
  }
  if (type === 'array') return Array.isArray(value) ? value : String(value).split(',').filter(Boolean);
  return String(value);
}

/** The design's body, shaped: what BuildAdmin's screen posts, missing keys filled as it fills them. */
export function readDesign(body: Row): { table: TableDesign; fields: FieldDesign[] } {
  const table = body.table;
  const fields = body.fields;
  if (!isRecord(table) || !Array.isArray(fields) || fields.length === 0 || fields.length > 200 || !text(table.name)) {
    throw errors.designIncomplete();
  }
  const shaped: TableDesign = {
    name: text(table.name),
    comment: text(table.comment).slice(0, 100),
    title: isRecord(table.title) ? table.title : undefined,
    quickSearchField: list(table.quickSearchField),
    defaultSortField: text(table.defaultSortField),
    defaultSortType: text(table.defaultSortType) === 'asc' ? 'asc' : 'desc',
    formFields: list(table.formFields),
    columnFields: list(table.columnFields),
    rebuild: text(table.rebuild),
    designChange: Array.isArray(table.designChange) ? table.designChange.filter(isRecord).map((change) => ({ type: text(change.type), oldName: text(change.oldName), newName: text(change.newName) })) : [],
    menu: isRecord(table.menu)
      ? {
          parent: text(table.menu.parent) || undefined,
          icon: text(table.menu.icon) || undefined,
          weigh: Number.isInteger(Number(table.menu.weigh)) ? Number(table.menu.weigh) : undefined,
          parentTitle: isRecord(table.menu.parentTitle) ? { 'zh-cn': text(table.menu.parentTitle['zh-cn']), en: text(table.menu.parentTitle.en) } : undefined,
        }
      : undefined,
  };
  const shapedFields = fields.map((field) => {
    if (!isRecord(field)) throw errors.designIncomplete();
    return {
      ...(field as unknown as FieldDesign),
      name: text(field.name),
      designType: text(field.designType),
      comment: text(field.comment),
      table: isRecord(field.table) ? field.table : {},
      form: isRecord(field.form) ? field.form : {},
    };
  });
  return { table: shaped, fields: shapedFields };
}

/**
 * The resource schema of a design. `resources` are the running definitions (remote selects name a table
 * of one of them); `previous` is the live design of this table, whose fields a rename may come from.
 */
export function designToSchema(design: { table: TableDesign; fields: FieldDesign[] }, resources: ReadonlyMap<string, ResourceDefinition>, previous?: Row): Row {
  const { table, fields } = design;
  const name = checkTableName(table.name);
  const seen = new Set<string>();
  for (const field of fields) {
    const fieldName = checkFieldName(field.name);
    if (seen.has(fieldName)) throw errors.fieldTwice(fieldWords(field));
    seen.add(fieldName);
  }
  const before = isRecord(previous?.properties) ? previous.properties : {};
  const renames = new Map<string, string>();
  for (const change of table.designChange) {
    if (change.type === 'change-field-name' && change.oldName && change.newName && change.oldName in before) renames.set(change.newName, change.oldName);
  }
  const properties: Row = {};
  const required: string[] = [];
  let primaryKey: string | undefined;
  let weighField: string | undefined;
  for (const field of fields) {
    const renamedFrom = renames.get(field.name) ?? (typeof (field as { renamedFrom?: unknown }).renamedFrom === 'string' ? String((field as { renamedFrom?: unknown }).renamedFrom) : undefined);
    const built = buildField(field, table, resources, renamedFrom && renamedFrom in before && !seen.has(renamedFrom) ? renamedFrom : undefined);
    if (built.primaryKey) {
      if (primaryKey) throw errors.primaryKeyNeeded();
      primaryKey = field.name;
    }
    if (built.weigh) weighField ??= field.name;
    if (built.required) required.push(field.name);
    properties[field.name] = built.property;
  }
  if (!primaryKey) throw errors.primaryKeyNeeded();

  const comment = table.comment.endsWith('表') ? `${table.comment.slice(0, -1)}管理` : table.comment;
  const title = localText(table.title, comment || name);
  // the title and icon are the menu's, which the menu rules keep in columns of these lengths
  const limit = (column: string) => [...resources.values()].find((definition) => definition.table === 'admin_rule')?.fields.find((field) => field.name === column)?.storage?.length ?? Infinity;
  const controller = controllerOfTable(name);
  const path = controller.split('.').slice(0, -1);
  const menuParent = table.menu?.parent ?? (path.length ? path.join('/') : undefined);
  const parentIsNew = menuParent !== undefined && table.menu?.parent === undefined;
  // the directory made for the prefix: titled as the designer named it, else by the prefix itself
  const parentTitle = parentIsNew ? localText(table.menu?.parentTitle, menuParent) : undefined;
  const titles = [title, ...(parentTitle === undefined ? [] : [parentTitle])].flatMap((item) => (typeof item === 'string' ? [item] : Object.values(item)));
  if (titles.some((item) => [...item].length > limit('title'))) throw errors.designTitleTooLong(limit('title'));
  if ([...(table.menu?.icon ?? '')].length > limit('icon')) throw errors.designIconTooLong(limit('icon'));
  if (table.menu?.weigh !== undefined && !Number.isSafeInteger(table.menu.weigh)) throw errors.designWeighInvalid();
  const quickSearch = [...new Set([...table.quickSearchField.filter((field) => Object.hasOwn(properties, field)), primaryKey])];
  const sortField = table.defaultSortField && Object.hasOwn(properties, table.defaultSortField) ? table.defaultSortField : weighField ?? primaryKey;
  const schema: Row = {
    $id: designedIdOf(name),
    title,
    type: 'object',
    'x-table': name,
    ...(primaryKey !== 'id' ? { 'x-primaryKey': primaryKey } : {}),
    'x-controller': controller,
    'x-menu': {
      title,
      icon: table.menu?.icon ?? 'fa fa-circle-o',
      weigh: table.menu?.weigh ?? 0,
      // BuildAdmin's generator puts `test_build` under a directory `test`, made when missing
      ...(menuParent ? { parent: parentIsNew ? { name: menuParent, title: parentTitle ?? menuParent } : menuParent } : {}),
    },
    'x-list': { quickSearch, defaultSort: `${sortField},${table.defaultSortType}`, ...(weighField ? { weighField } : {}) },
    required,
    properties,
  };
  return schema;
}

/** A designType for a field of a running definition (BuildAdmin's names, for `parseFieldData` and `getTableFieldList`). */
export function designTypeOf(definition: ResourceDefinition, field: FieldDefinition): string {
  if (field.name === definition.primaryKey) return 'pk';
  if (field.name === definition.list.weighField) return 'weigh';
  if (field.name === definition.timestamps.create || field.name === definition.timestamps.update) return 'timestamp';
  const widget = widgetOf(field);
  if (widget === 'money') return 'money';
  if (widget === 'hidden') return 'string';
  return widget;
}
