import { mkdirSync, writeFileSync } from 'node:fs';
import { namedPath } from '../safe-paths.js';
import type { SourceColumn } from './buildadmin-source.js';

/**
 * A schema draft for a table of the imported database we know nothing about (a fork's own table): one
 * property per column, typed from the MySQL column type, titled from the column comment. The draft is a
 * complete schema, written outside `schemas/` so start-up never loads it; moved into `schemas/imported/`
 * it gives the table a list and form in the back office, and the next import run copies its rows.
 */

/** The `$id` area of drafts: `imported/<table>`. Only tables of such schemas get their rows from a later import. */
export const DRAFT_AREA = 'imported';

function pascal(name: string): string {
  return name
    .split('_')
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

function titleOf(column: SourceColumn): Record<string, string> {
  const comment = column.comment.split(/[:：]/)[0].trim();
  return { 'zh-cn': comment || column.name, en: column.name };
}

/** The property of one column: type, enum values, length. */
function propertyOf(column: SourceColumn): Record<string, unknown> {
  const type = column.type.toLowerCase();
  const nullable = (base: string) => (column.nullable ? [base, 'null'] : base);
  const property: Record<string, unknown> = { title: titleOf(column) };
  const enumMatch = /^(?:enum|set)\((.*)\)$/.exec(type);
  if (/^(tiny|small|medium|big)?int\b/.test(type) || /^(integer|year)\b/.test(type)) {
    property.type = nullable('integer');
  } else if (/^(decimal|numeric|float|double|real)\b/.test(type)) {
    property.type = nullable('number');
  } else if (enumMatch) {
    const values = [...enumMatch[1].matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1].replace(/''/g, "'"));
    property.type = nullable('string');
    property.enum = column.nullable ? [...values, null] : values;
  } else {
    property.type = nullable('string');
    const length = /^(?:var)?char\((\d+)\)/.exec(type);
    if (length) property.maxLength = Number(length[1]);
  }
  property['x-ui'] = { list: true };
  return property;
}

/** The draft schema of `table` as an object. */
function draftOf(table: string, columns: SourceColumn[]): Record<string, unknown> {
  const properties: Record<string, unknown> = { id: { type: 'integer', title: 'ID', readOnly: true, 'x-ui': { list: true, search: '=' } } };
  for (const column of columns) if (column.name !== 'id') properties[column.name] = propertyOf(column);
  return {
    $id: `${DRAFT_AREA}/${table}`,
    title: { 'zh-cn': table, en: table },
    type: 'object',
    'x-table': table,
    'x-controller': `imported.${pascal(table)}`,
    properties,
  };
}

/**
 * Write the draft of `table` into `dir` and return the file's path. A table whose name is not plain (letters,
 * digits and `_`: MySQL accepts `/` and `.` in a quoted name) gets no draft: its name would make a path
 * elsewhere, and no schema could name its table.
 */
export function schemaDraft(table: string, columns: SourceColumn[], dir: string): string | undefined {
  const path = namedPath(dir, [table], '.json');
  if (!path) return undefined;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, `${JSON.stringify(draftOf(table, columns), null, 2)}\n`);
  return path;
}
