import type { LocalText } from '../../../../schema/local-text.js';
import { TAG_COLORS, type TagColor } from '../../../../contract/value-tags.js';
import { isOneOf, isRecord } from '../../../../contract/checks.js';

/**
 * The designer's working copy of a module: the table and its fields in the shape `crud.Crud/preview` and
 * `generate` read (BuildAdmin's `table` and `fields`, with our keys: both labels, enum options with
 * colours, the menu's place). The server turns it into a schema; nothing here is code.
 */

type Bilingual = { 'zh-cn': string; en: string };

/** A chip colour the designer offers: one the schemas accept, '' for none (drawn as `default`). */
type OptionColor = Exclude<TagColor, 'default'> | '';

/** An enum value's labels and chip colour. */
export interface OptionDesign {
  value: string;
  'zh-cn': string;
  en: string;
  color: OptionColor;
}

export interface FieldDraft {
  /** stable key of the row while its name is edited */
  key: string;
  name: string;
  /** the name it has in the running module, when it has one (a different `name` renames it, data kept) */
  originalName?: string;
  designType: DesignType;
  label: Bilingual;
  required: boolean;
  unique: boolean;
  /** the default as typed; empty is none */
  defaultValue: string;
  /** a format the value must have: email, url, mobile, or none */
  format: (typeof FIELD_FORMATS)[number];
  maxLength: number;
  options: OptionDesign[];
  remoteTable: string;
  remoteField: string;
  inList: boolean;
  sortable: boolean;
  /** the list's search operator, '' for none */
  operator: string;
  inForm: boolean;
}

export interface TableDraft {
  name: string;
  title: Bilingual;
  comment: string;
  /** rule name of the menu directory the module's menu goes under, '' for the one named by the table's prefix */
  menuParent: string;
  /** the title of the directory made for the table's prefix (`shop` of `shop_goods`) when it does not exist yet */
  menuDirTitle: Bilingual;
  icon: string;
  quickSearch: string[];
  sortField: string;
  sortOrder: 'asc' | 'desc';
}

export interface DesignDraft {
  table: TableDraft;
  fields: FieldDraft[];
  /** where the design came from: a new module, an existing table, or a module from the log */
  source: 'create' | 'db' | 'log';
}

/** The formats a text field may be checked for ('' none). */
export const FIELD_FORMATS = ['', 'email', 'url', 'mobile'] as const;

/** The field types the designer offers, as the server names them. */
export const DESIGN_TYPES = [
  'string', 'textarea', 'editor', 'number', 'float', 'money', 'switch', 'radio', 'checkbox', 'select', 'selects', 'date', 'datetime', 'time', 'year',
  'image', 'images', 'file', 'files', 'icon', 'city', 'color', 'weigh', 'remoteSelect', 'remoteSelects', 'timestamp', 'pk',
] as const;
export type DesignType = (typeof DESIGN_TYPES)[number];

/** Types whose values are a list of choices (with labels and colours). */
export const CHOICE_TYPES: ReadonlySet<DesignType> = new Set(['radio', 'checkbox', 'select', 'selects']);
/** Choice types that hold one value: their default is one of their options. */
export const SINGLE_CHOICE_TYPES: ReadonlySet<DesignType> = new Set(['radio', 'select']);
export const REMOTE_TYPES: ReadonlySet<DesignType> = new Set(['remoteSelect', 'remoteSelects']);
/** Types kept as text of a length the designer chooses. */
export const SIZED_TYPES: ReadonlySet<DesignType> = new Set(['string']);

/** Search operators a list column can offer. */
export const OPERATORS = ['', '=', '<>', '>', '>=', '<', '<=', 'LIKE', 'NOT LIKE', 'RANGE', 'FIND_IN_SET', 'IN', 'NULL'] as const;

/** The message key of each operator's name (`crud.operators.<key>`). */
export const OPERATOR_KEYS: Readonly<Record<(typeof OPERATORS)[number], string>> = {
  '': 'none', '=': 'eq', '<>': 'ne', '>': 'gt', '>=': 'egt', '<': 'lt', '<=': 'elt', LIKE: 'like', 'NOT LIKE': 'notLike', RANGE: 'range', FIND_IN_SET: 'findInSet', IN: 'in', NULL: 'null',
};

/**
 * Chip colours of enum values: exactly the colours a schema accepts (`TAG_COLORS`), so every colour offered
 * can be generated; '' is none, the neutral `default`. Each has a name under `crud.colors.<color or default>`.
 */
export const OPTION_COLORS: readonly OptionColor[] = ['', ...TAG_COLORS.filter((color): color is Exclude<TagColor, 'default'> => color !== 'default')];

/** A stored colour as the designer offers it: one it does not offer (or `default`) is none. */
function optionColorOf(value: unknown): OptionColor {
  return isOneOf(OPTION_COLORS, value) ? value : '';
}

/** Table and field names the server accepts: lower-case letters, digits and `_`, starting with a letter. */
export const NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * The list filter a new field starts with: a key, a date or a time by range, text by its words, a choice by
 * its value (one of several by any of them), so the list of a designed module can be filtered by what a
 * person looks for without a setting; the designer can take any of them away.
 */
const DEFAULT_OPERATORS: Partial<Readonly<Record<DesignType, (typeof OPERATORS)[number]>>> = {
  pk: 'RANGE', string: 'LIKE',
  radio: '=', select: '=', switch: '=', checkbox: 'FIND_IN_SET', selects: 'FIND_IN_SET',
  date: 'RANGE', datetime: 'RANGE', timestamp: 'RANGE', year: 'RANGE',
};

let counter = 0;
function nextKey(): string {
  counter += 1;
  return `f${counter}`;
}

/** A sensible start for a field of a type: its list column, search and form flags. */
export function newField(designType: DesignType, name = '', label: Bilingual = { 'zh-cn': '', en: '' }): FieldDraft {
  const readOnly = designType === 'pk' || designType === 'timestamp';
  return {
    key: nextKey(), name, designType, label, required: false, unique: false, defaultValue: '', format: '', maxLength: 255,
    options: CHOICE_TYPES.has(designType) ? [{ value: 'a', 'zh-cn': '', en: '', color: '' }, { value: 'b', 'zh-cn': '', en: '', color: '' }] : [],
    remoteTable: '', remoteField: '',
    inList: !['textarea', 'editor', 'images', 'files'].includes(designType),
    sortable: ['pk', 'number', 'float', 'money', 'date', 'datetime', 'timestamp', 'weigh'].includes(designType),
    operator: DEFAULT_OPERATORS[designType] ?? '',
    inForm: !readOnly,
  };
}

/** A new module: its key and the two timestamps every module keeps. */
export function scratchDesign(): DesignDraft {
  return {
    source: 'create',
    table: { name: '', title: { 'zh-cn': '', en: '' }, comment: '', menuParent: '', menuDirTitle: { 'zh-cn': '', en: '' }, icon: 'fa fa-circle-o', quickSearch: [], sortField: 'id', sortOrder: 'desc' },
    fields: [
      newField('pk', 'id', { 'zh-cn': 'ID', en: 'ID' }),
      newField('timestamp', 'create_time', { 'zh-cn': '创建时间', en: 'Created' }),
      newField('timestamp', 'update_time', { 'zh-cn': '修改时间', en: 'Updated' }),
    ],
  };
}

type Row = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function bilingual(value: unknown, fallback: string): Bilingual {
  if (isRecord(value)) return { 'zh-cn': text(value['zh-cn']) || fallback, en: text(value.en) || fallback };
  return { 'zh-cn': fallback, en: fallback };
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** BuildAdmin's dictionary comment `Title:a=Label A,b=Label B` as options (full-width punctuation too). */
function optionsOfComment(comment: string): { title: string; options: OptionDesign[] } {
  const normalised = comment.replace(/：/g, ':').replace(/，/g, ',');
  const colon = normalised.indexOf(':');
  if (colon < 0 || !normalised.includes('=')) return { title: comment, options: [] };
  const options = normalised
    .slice(colon + 1)
    .split(',')
    .map((item) => item.split('='))
    .filter((pair) => pair.length === 2 && pair[0].trim() !== '')
    .map(([value, label]): OptionDesign => ({ value: value.trim(), 'zh-cn': label.trim(), en: label.trim(), color: '' }));
  return { title: normalised.slice(0, colon).trim(), options };
}

/** A field of a stored design or a table's column (BuildAdmin's field shape) as a draft. */
function fieldOfDesign(field: Row, table: Row, keepName: boolean): FieldDraft {
  const storedType = text(field.designType);
  const designType = isOneOf(DESIGN_TYPES, storedType) ? storedType : 'string';
  const form = isRecord(field.form) ? field.form : {};
  const list = isRecord(field.table) ? field.table : {};
  const name = text(field.name);
  const parsed = optionsOfComment(text(field.comment));
  const draft = newField(designType, name, bilingual(field.label, parsed.title || name));
  const validators = Array.isArray(form.validator) ? form.validator.map(text) : text(form.validator).split(',');
  const storedOptions = isRecord(field.options)
    ? Object.entries(field.options).map(([value, label]) => ({ value, 'zh-cn': text(isRecord(label) ? label['zh-cn'] : label), en: text(isRecord(label) ? label.en : label), color: optionColorOf(isRecord(label) ? label.color : '') }))
    : [];
  const columnFields = Array.isArray(table.columnFields) ? table.columnFields.map(text) : undefined;
  const formFields = Array.isArray(table.formFields) ? table.formFields.map(text) : undefined;
  const operator = text(list.operator);
  return {
    ...draft,
    originalName: keepName ? name : undefined,
    required: validators.includes('required'),
    unique: field.unique === true,
    defaultValue: text(field.defaultType) === 'INPUT' ? text(field.default) : '',
    format: (['email', 'url', 'mobile'] as const).find((format) => validators.includes(format)) ?? '',
    maxLength: Number(field.length) > 0 && Number(field.length) <= 2000 ? Number(field.length) : 255,
    options: storedOptions.length ? storedOptions : parsed.options.length ? parsed.options : draft.options,
    remoteTable: text(form['remote-table']),
    remoteField: text(form['remote-field']),
    inList: columnFields ? columnFields.includes(name) : draft.inList,
    sortable: list.sortable === undefined ? draft.sortable : list.sortable === 'custom' || truthy(list.sortable),
    operator: operator === '' || operator === 'false' ? (list.operator === undefined ? draft.operator : '') : operator,
    inForm: formFields ? formFields.includes(name) : draft.inForm,
  };
}

/**
 * A design from the log (`logStart`) or from a table's columns (`parseFieldData`): `keepNames` when the
 * fields are a running module's, so a changed name is sent as a rename that keeps the column's data.
 */
export function designOf(source: DesignDraft['source'], table: Row, fields: Row[], keepNames: boolean): DesignDraft {
  const name = text(table.name);
  const title = bilingual(table.title, text(table.comment) || name);
  const menu = isRecord(table.menu) ? table.menu : {};
  return {
    source,
    table: {
      name,
      title,
      comment: text(table.comment),
      menuParent: text(menu.parent),
      menuDirTitle: bilingual(menu.parentTitle, ''),
      icon: text(menu.icon) || 'fa fa-circle-o',
      quickSearch: Array.isArray(table.quickSearchField) ? table.quickSearchField.map(text) : [],
      sortField: text(table.defaultSortField) || 'id',
      sortOrder: text(table.defaultSortType) === 'asc' ? 'asc' : 'desc',
    },
    fields: fields.map((field) => fieldOfDesign(field, table, keepNames)),
  };
}

/** The server's (BuildAdmin's) `fields` entry of a draft. */
function fieldBody(field: FieldDraft): Row {
  const validator = [...(field.required ? ['required'] : []), ...(field.format ? [field.format] : [])];
  const choices = CHOICE_TYPES.has(field.designType);
  const many = field.designType === 'selects' || field.designType === 'remoteSelects';
  return {
    name: field.name,
    designType: field.designType,
    type: 'varchar',
    dataType: '',
    length: SIZED_TYPES.has(field.designType) ? field.maxLength : 255,
    precision: 0,
    default: field.defaultValue,
    defaultType: field.defaultValue === '' ? 'NONE' : 'INPUT',
    null: false,
    primaryKey: field.designType === 'pk',
    unsigned: false,
    autoIncrement: field.designType === 'pk',
    comment: field.label['zh-cn'] || field.label.en || field.name,
    label: field.label,
    ...(choices ? { options: Object.fromEntries(field.options.map((option) => [option.value, { 'zh-cn': option['zh-cn'] || option.value, en: option.en || option.value, ...(option.color ? { color: option.color } : {}) }])) } : {}),
    ...(field.unique ? { unique: true } : {}),
    ...(field.originalName && field.originalName !== field.name ? { renamedFrom: field.originalName } : {}),
    table: { operator: field.operator || 'false', sortable: field.sortable ? 'custom' : 'false' },
    form: {
      validator,
      ...(REMOTE_TYPES.has(field.designType) ? { 'remote-table': field.remoteTable, 'remote-field': field.remoteField, 'select-multi': many } : {}),
    },
  };
}

/** The prefix of a table name, the directory its menu goes under by name: `shop` of `shop_goods`, none for `goods`. */
export function prefixOf(table: string): string | undefined {
  const parts = table.split('_').filter(Boolean);
  return parts.length > 1 ? parts.slice(0, -1).join('/') : undefined;
}

/** The directory title as posted: only the languages typed, none when neither is. */
function dirTitle(table: TableDraft): Partial<Bilingual> | undefined {
  const zh = table.menuDirTitle['zh-cn'].trim();
  const en = table.menuDirTitle.en.trim();
  if (!zh && !en) return undefined;
  return { ...(zh ? { 'zh-cn': zh } : {}), ...(en ? { en } : {}) };
}

/** The body of `crud.Crud/preview` and `generate`. */
export function requestBodyOf(design: DesignDraft, confirm = false): Row {
  const { table, fields } = design;
  const names = new Set(fields.map((field) => field.name));
  return {
    type: design.source,
    table: {
      name: table.name,
      comment: table.comment || table.title['zh-cn'] || table.title.en,
      title: table.title,
      quickSearchField: table.quickSearch.filter((name) => names.has(name)),
      defaultSortField: names.has(table.sortField) ? table.sortField : '',
      defaultSortType: table.sortOrder,
      formFields: fields.filter((field) => field.inForm).map((field) => field.name),
      columnFields: fields.filter((field) => field.inList).map((field) => field.name),
      designChange: [],
      rebuild: 'No',
      menu: {
        ...(table.menuParent ? { parent: table.menuParent } : dirTitle(table) ? { parentTitle: dirTitle(table) } : {}),
        icon: table.icon,
      },
    },
    fields: fields.map(fieldBody),
    ...(confirm ? { confirm: 1 } : {}),
  };
}

/** A problem the designer can name before asking the server (the server checks everything again). */
type DraftProblem = { key: string; params?: Record<string, string> };

export function problemsOf(design: DesignDraft): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!NAME_PATTERN.test(design.table.name)) problems.push({ key: 'crud.problems.tableName' });
  const seen = new Set<string>();
  for (const field of design.fields) {
    if (!NAME_PATTERN.test(field.name)) problems.push({ key: 'crud.problems.fieldName', params: { name: field.name || '?' } });
    else if (seen.has(field.name)) problems.push({ key: 'crud.problems.fieldTwice', params: { name: field.name } });
    seen.add(field.name);
  }
  if (design.fields.filter((field) => field.designType === 'pk').length !== 1) problems.push({ key: 'crud.problems.primaryKey' });
  return problems;
}

/** A label of the design in the admin's language, else the other one. */
export function labelIn(label: Bilingual | LocalText, locale: string): string {
  if (typeof label === 'string') return label;
  return (locale === 'en' ? label.en || label['zh-cn'] : label['zh-cn'] || label.en) ?? '';
}
