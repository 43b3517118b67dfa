import type { Language } from '../contract/headers.js';
import type { SearchOperator } from '../contract/search.js';
import { sameText, type LocalText, type TextGap } from './local-text.js';
import type { TagColor } from './meta-schema.js';
import type { ValueTag } from '../contract/value-tags.js';

/** A row as it travels on the wire or sits in a table: column name → value. */
export type Row = Record<string, unknown>;

export type WireType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** How a field is kept in SQL. Integers are 64-bit everywhere; money is integer cents. */
type ColumnType = 'bigint' | 'real' | 'varchar' | 'text' | 'money' | 'json' | 'csv' | 'boolean';

export interface ColumnStorage {
  type: ColumnType;
  /** varchar length */
  length?: number;
}

interface FieldRef {
  /** `$id` of the referenced schema */
  resource: string;
  /** column shown as the option label */
  label: string;
  /** column of the referenced table that this field holds (default its primary key) */
  key: string;
  many: boolean;
  /**
   * relation name: when set, list rows carry the related row under this key, cut to `embeddedColumns`
   * (only its key for an operator who may not read the related resource), and `as.<column>` is searchable
   */
  as?: string;
  /** columns of the related row carried beside its key and label (`x-ref.fields`) */
  fields: string[];
}

/** The columns of a related row a list carries under `as`: its key, its label and the `x-ref.fields`. */
export function embeddedColumns(ref: Pick<FieldRef, 'key' | 'label' | 'fields'>): string[] {
  return [...new Set([ref.key, ref.label, ...ref.fields])];
}

export interface FieldUi {
  widget?: string;
  render?: string;
  /** a list column: `true` shown, `'optional'` offered in the list's column chooser (and exported) but hidden until picked */
  list?: boolean | 'optional';
  /** operator offered by the list filter */
  search?: SearchOperator;
  /** labels of enum values: value → text */
  options?: Record<string, LocalText>;
  /** chip colours of enum values: value → colour */
  colors?: Record<string, TagColor>;
  /** widget `array`: the titles of its key and value columns (default "Key" and "Value") */
  columns?: { key?: LocalText; value?: LocalText };
  /** extra widget settings, passed through to the client */
  [setting: string]: unknown;
}

export interface FieldDefinition {
  name: string;
  title: LocalText;
  /** help shown under the input (the schema's `description`) */
  help?: LocalText;
  wireType: WireType;
  /** null when the field is virtual (computed or handled by a hook) */
  storage: ColumnStorage | null;
  nullable: boolean;
  default: unknown;
  enum?: readonly (string | number)[];
  format?: string;
  /** element type of array fields */
  itemType?: 'string' | 'integer' | 'number';
  /** ignored on input */
  readOnly: boolean;
  /** never sent to clients */
  writeOnly: boolean;
  /** no two rows share a non-empty value: checked on add and edit, and enforced by a unique index */
  unique: boolean;
  /** `x-unique: "when-set"`: the index covers only rows where the value is set, so many may be empty */
  uniqueWhenSet: boolean;
  /** message key shown when `pattern` fails */
  patternMessage?: string;
  renamedFrom?: string;
  ref?: FieldRef;
  ui: FieldUi;
  /** allowed moves of an enum value: from → to[] */
  transitions?: Readonly<Record<string, readonly string[]>>;
}

export interface MenuDefinition {
  /** rule name and route path, e.g. `auth/admin` */
  name: string;
  /** rule name of the parent menu directory, e.g. `auth` */
  parent?: string;
  /** the parent directory to create when no rule has the parent's name yet (a new area such as `survey`) */
  parentDirectory?: { title: LocalText; icon: string; weigh: number };
  title: LocalText;
  icon: string;
  weigh: number;
  /** permission nodes below the menu: `<name>/<button>` */
  buttons: string[];
}

export type DataLimitMode = 'parent' | 'allAuth' | 'allAuthAndOthers' | 'personal' | number;

export interface IndexDefinition {
  columns: string[];
  unique: boolean;
  /** partial: only rows whose columns are all set (not null, not '') count */
  whenSet?: true;
  /** columns stored in descending order (for an order of mixed directions, which reads the index backward) */
  descending?: string[];
}

export interface SortTerm {
  field: string;
  direction: 'asc' | 'desc';
}

/** `x-list.tree`: rows nested under their parent; a tree select offers only the `selectable` ones. */
export interface TreeList {
  parentField: string;
  labelField: string;
  /** a tree select (a parent picker) lists only rows whose `field` holds `value`, e.g. enabled groups */
  selectable?: { field: string; value: string };
}

export interface ResourceDefinition {
  /** `$id`, e.g. `system/admin` */
  id: string;
  title: LocalText;
  table: string;
  renamedFrom?: string;
  primaryKey: string;
  /** URL segment, e.g. `auth.Admin`; absent for tables without an API */
  controller?: string;
  /** permission path, e.g. `auth/admin` */
  controllerPath?: string;
  fields: FieldDefinition[];
  list: {
    quickSearch: string[];
    defaultSort: SortTerm[];
    weighField?: string;
    /** tree resources answer `index` unpaginated with nested `children` */
    tree?: TreeList;
    /** columns a list may be ordered by: those an index leads with, the primary key first */
    sortable: string[];
  };
  menu?: MenuDefinition;
  dataLimit: false | { mode: DataLimitMode; field: string };
  indexes: IndexDefinition[];
  timestamps: { create?: string; update?: string };
  seed: Row[];
  /** texts a language borrowed from the other (the server keeps them for `npm run gen`; clients get none) */
  textGaps: TextGap[];
  /** the JSON Schema of one row on the wire, without our keywords: for validators and type generation */
  rowSchema: Record<string, unknown>;
}

/** Fields a client may write: stored or virtual, not read-only. */
export function writableFields(definition: ResourceDefinition): FieldDefinition[] {
  return definition.fields.filter((field) => !field.readOnly);
}

export function fieldOf(definition: ResourceDefinition, name: string): FieldDefinition | undefined {
  return definition.fields.find((field) => field.name === name);
}

/**
 * What a person reads for a value of a field: its enum label (from `x-ui.options`, in every language),
 * or the value itself when the field has none.
 */
export function valueLabel(field: FieldDefinition | undefined, value: unknown): LocalText {
  const text = value === null || value === undefined ? '' : String(value);
  return field?.ui.options?.[text] ?? sameText(text);
}


/**
 * Every labelled value of a field, in one language: what an answer sends a page that is not drawn from
 * definitions (the member's records), so its chips read and colour as the back office's do.
 */
export function valueTags(field: FieldDefinition, lang: Language): Record<string, ValueTag> {
  return Object.fromEntries(
    Object.entries(field.ui.options ?? {}).map(([value, label]) => {
      const color = field.ui.colors?.[value];
      return [value, color ? { label: label[lang], color } : { label: label[lang] }];
    }),
  );
}

/** The titles schemas give their menus and the menu directories they create, by lower-cased rule name. */
export function schemaMenuTitles(definitions: Iterable<ResourceDefinition>): Map<string, LocalText> {
  const titles = new Map<string, LocalText>();
  for (const { menu } of definitions) {
    if (!menu) continue;
    titles.set(menu.name.toLowerCase(), menu.title);
    if (menu.parent && menu.parentDirectory) titles.set(menu.parent.toLowerCase(), menu.parentDirectory.title);
  }
  return titles;
}
