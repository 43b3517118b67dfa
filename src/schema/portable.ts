import { backendViewPath } from '../contract/view-paths.js';
import type { ResourceDefinition } from './definition.js';
import { SchemaError } from './normalise.js';

/**
 * What makes a schema valid on both databases, checked before anything is written: a schema accepted on
 * SQLite is accepted on PostgreSQL too (a team moves with the same `schemas/`), and neither database, nor the
 * server's own lookups by name, refuses it halfway through making it live. Every schema goes through here:
 * the files at start-up, a design of the CRUD designer, a module's schemas.
 */

/** Column names a database keeps for itself: SQLite's row id and its aliases, PostgreSQL's system columns. */
const SYSTEM_COLUMNS = new Set(['rowid', '_rowid_', 'oid', 'ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid']);

/** Table names the databases keep for their catalogs (`sqlite_stat1`, `pg_stat_activity`). */
const CATALOG_PREFIXES = ['sqlite_', 'pg_'];

/**
 * Names every JavaScript object already answers (`constructor`, `__proto__`, `toString`, `hasOwnProperty`…,
 * and a function's `prototype`): as a field, a key or a value looked up by name they would read the
 * language's own members instead of the schema's.
 */
const PROTOTYPE_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** The largest whole number both databases' integer columns and JavaScript hold exactly. */
const INTEGER_RANGE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** Whether a database or JavaScript keeps `name` for itself, so no field or table may be called so. */
export function isKeptName(name: string): boolean {
  return SYSTEM_COLUMNS.has(name.toLowerCase()) || PROTOTYPE_NAMES.has(name);
}

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every key in `value` and every value an `enum` lists (the names looked up in objects), with its JSON path. */
function* namesIn(value: unknown, path: string): Generator<{ name: string; path: string }> {
  if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* namesIn(item, `${path}/${index}`);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}/${pointerPart(key)}`;
      yield { name: key, path: at };
      if (key === 'enum' && Array.isArray(item)) {
        for (const [index, option] of item.entries()) if (typeof option === 'string') yield { name: option, path: `${at}/${index}` };
      } else {
        yield* namesIn(item, at);
      }
    }
  }
}

function textLength(text: string): number {
  return Array.from(text).length;
}

/** Checks of one schema as written and normalised. */
export function checkPortableResource(file: string, raw: unknown, definition: ResourceDefinition): void {
  const refuse = (path: string, detail: string): never => {
    throw new SchemaError(file, path, detail);
  };
  for (const { name, path } of namesIn(raw, '')) {
    if (PROTOTYPE_NAMES.has(name)) refuse(path, `"${name}" is a name every JavaScript object has; choose another`);
  }
  const prefix = CATALOG_PREFIXES.find((start) => definition.table.toLowerCase().startsWith(start));
  if (prefix) refuse('/x-table', `table names starting with "${prefix}" belong to the database's own catalog`);
  for (const field of definition.fields) {
    if (field.storage && SYSTEM_COLUMNS.has(field.name.toLowerCase())) refuse(`/properties/${field.name}`, `"${field.name}" is a column name SQLite or PostgreSQL keeps for itself`);
    const fallback = field.default;
    if (field.wireType === 'integer' && typeof fallback === 'number' && !Number.isSafeInteger(fallback)) {
      refuse(`/properties/${field.name}/default`, `${fallback} is outside the whole numbers a column holds (${INTEGER_RANGE.min} to ${INTEGER_RANGE.max})`);
    }
  }
  const byName = new Map(definition.fields.map((field) => [field.name, field]));
  definition.list.quickSearch.forEach((name, index) => {
    if (!name.includes('.') && !byName.get(name)?.storage) refuse(`/x-list/quickSearch/${index}`, `"${name}" is not a column of the table, so it cannot be searched`);
  });
  const menu = definition.menu;
  if (menu) {
    if (!Number.isSafeInteger(menu.weigh)) refuse('/x-menu/weigh', `${menu.weigh} is outside the whole numbers a column holds (${INTEGER_RANGE.min} to ${INTEGER_RANGE.max})`);
    if (menu.parentDirectory && !Number.isSafeInteger(menu.parentDirectory.weigh)) {
      refuse('/x-menu/parent/weigh', `${menu.parentDirectory.weigh} is outside the whole numbers a column holds (${INTEGER_RANGE.min} to ${INTEGER_RANGE.max})`);
    }
  }
}

/**
 * Checks that need the whole set: a quick search through a relation names a column of the related table, and a
 * menu's texts fit the columns of the rule table (`admin_rule`), whose lengths its schema declares.
 */
export function checkPortableSet(entries: readonly { file: string; definition: ResourceDefinition }[]): void {
  const byId = new Map(entries.map((entry) => [entry.definition.id, entry.definition]));
  const rules = entries.find((entry) => entry.definition.table === 'admin_rule')?.definition;
  const limit = (column: string) => rules?.fields.find((field) => field.name === column)?.storage?.length;
  for (const { file, definition } of entries) {
    definition.list.quickSearch.forEach((name, index) => {
      if (!name.includes('.')) return;
      const [relation, column] = name.split('.');
      const target = byId.get(definition.fields.find((field) => field.ref?.as === relation)?.ref?.resource ?? '');
      if (target && !target.fields.some((field) => field.name === column && field.storage)) {
        throw new SchemaError(file, `/x-list/quickSearch/${index}`, `"${target.id}" has no column "${column}" to search`);
      }
    });
    const menu = definition.menu;
    if (!menu) continue;
    const texts: [string, string, string][] = [
      ['/x-menu/title', 'title', menu.title['zh-cn']],
      ['/x-menu/icon', 'icon', menu.icon],
      ['/x-menu/name', 'name', menu.name],
      ['/x-menu/name', 'path', menu.name],
      ['/x-menu/name', 'component', backendViewPath(menu.name)],
      ...menu.buttons.flatMap((button, index): [string, string, string][] => [
        [`/x-menu/buttons/${index}`, 'name', `${menu.name}/${button}`],
        [`/x-menu/buttons/${index}`, 'title', button],
      ]),
      ...(menu.parent && menu.parentDirectory
        ? ([
            ['/x-menu/parent/name', 'name', menu.parent],
            ['/x-menu/parent/title', 'title', menu.parentDirectory.title['zh-cn']],
            ['/x-menu/parent/icon', 'icon', menu.parentDirectory.icon],
          ] as [string, string, string][])
        : []),
    ];
    for (const [path, column, text] of texts) {
      const max = limit(column);
      if (max !== undefined && textLength(text) > max) throw new SchemaError(file, path, `"${text}" is longer than the ${max} characters a menu's ${column} may have`);
    }
  }
}
