import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';
import { SchemaError } from '../../../src/schema/normalise.js';

const PROJECT_SCHEMAS = resolve(import.meta.dirname, '../../../schemas');

const temporaryDirs: string[] = [];
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Write `schemas/<area>/<name>.json` files (objects as JSON, strings as-is) into a fresh directory; returns its `schemas` dir. */
function schemaDir(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'chidao-schemas-'));
  temporaryDirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, 'schemas', path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return join(root, 'schemas');
}

/** A small valid resource; `extra` is merged at the top level, `fields` into `properties`. */
function resource(id: string, extra: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
  return {
    $id: id,
    title: 'Thing',
    type: 'object',
    'x-table': id.split('/').pop(),
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string', maxLength: 50 },
      ...fields,
    },
    ...extra,
  };
}

/** Load and return the SchemaError it throws (fails the test when nothing is thrown). */
function loadError(dir: string): SchemaError {
  try {
    loadResourceDefinitions(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaError);
    return error as SchemaError;
  }
  throw new Error('expected loadResourceDefinitions to throw a SchemaError');
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFilesUnder(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

describe('the project schemas', () => {
  const definitions = loadResourceDefinitions(PROJECT_SCHEMAS);

  it('all load, one definition per file, each $id being the file path under schemas/', () => {
    const expected = jsonFilesUnder(PROJECT_SCHEMAS).map((path) => relative(PROJECT_SCHEMAS, path).replace(/\\/g, '/').replace(/\.json$/, ''));
    expect(definitions.map((definition) => definition.id).sort()).toEqual(expected.sort());
    expect(definitions.map((definition) => definition.id)).toContain('system/admin');
  });

  it('give every resource a table, a primary key among its fields and a row schema without x- keywords', () => {
    for (const definition of definitions) {
      expect(definition.table, definition.id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(definition.fields.map((field) => field.name), definition.id).toContain(definition.primaryKey);
      expect(JSON.stringify(definition.rowSchema), definition.id).not.toContain('"x-');
      expect(definition.rowSchema.additionalProperties, definition.id).toBe(false);
    }
  });

  it('turn x-unique into a unique index (admin usernames), and "when-set" into one over set values (emails)', () => {
    const admin = definitions.find((definition) => definition.id === 'system/admin');
    expect(admin?.indexes).toContainEqual({ columns: ['username'], unique: true });
    expect(admin?.indexes).toContainEqual({ columns: ['email'], unique: true, whenSet: true });
    expect(admin?.indexes).toContainEqual({ columns: ['mobile'], unique: true, whenSet: true });
  });
});

describe('a broken schema is reported with its file and JSON path', () => {
  it('a tree select\'s selectable value that its column cannot hold, naming the path', () => {
    const tree = (value: string) => ({ 'x-list': { tree: { parentField: 'pid', labelField: 'name', selectable: { field: 'status', value } } } });
    const fields = { pid: { type: 'integer' }, status: { type: 'string', enum: ['0', '1'] } };
    const error = loadError(schemaDir({ 'demo/item.json': resource('demo/item', tree('on'), fields) }));
    expect(error.message).toBe('schemas/demo/item.json: /x-list/tree/selectable/value: "on" is not a value of "status"');
    expect(() => loadResourceDefinitions(schemaDir({ 'demo/item.json': resource('demo/item', tree('1'), fields) }))).not.toThrow();
  });

  it('unknown x- keyword at the top level', () => {
    const dir = schemaDir({ 'demo/item.json': resource('demo/item', { 'x-uii': { list: true } }) });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/x-uii');
    expect(error.message).toBe('schemas/demo/item.json: /x-uii: unknown x- keyword "x-uii"');
  });

  it('unknown x- keyword inside a property (a typo of x-ui)', () => {
    const dir = schemaDir({ 'demo/item.json': resource('demo/item', {}, { title: { type: 'string', 'x-uii': { list: true } } }) });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/title/x-uii');
    expect(error.message).toContain('schemas/demo/item.json: /properties/title/x-uii:');
    expect(error.message).toContain('unknown x- keyword "x-uii"');
  });

  it('misspelt field type, naming the bad value', () => {
    const dir = schemaDir({ 'demo/item.json': resource('demo/item', {}, { name: { type: 'strnig' } }) });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/name/type');
    expect(error.message).toContain('schemas/demo/item.json: /properties/name/type:');
    expect(error.message).toContain('"strnig"');
  });

  it('unknown widget in x-ui, naming the bad value', () => {
    const dir = schemaDir({ 'demo/item.json': resource('demo/item', {}, { name: { type: 'string', 'x-ui': { widget: 'slider' } } }) });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/name/x-ui/widget');
    expect(error.message).toContain('schemas/demo/item.json: /properties/name/x-ui/widget: invalid value "slider"');
  });

  it('x-ref to a resource that does not exist', () => {
    const dir = schemaDir({
      'demo/item.json': resource('demo/item', {}, { owner_id: { type: 'integer', 'x-ref': { resource: 'demo/owner' } } }),
    });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/owner_id/x-ref/resource');
    expect(error.message).toBe('schemas/demo/item.json: /properties/owner_id/x-ref/resource: unknown resource "demo/owner"');
  });

  it('x-ref resource that is not a schema id at all', () => {
    const dir = schemaDir({
      'demo/item.json': resource('demo/item', {}, { owner_id: { type: 'integer', 'x-ref': { resource: 'Owner' } } }),
    });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/owner_id/x-ref/resource');
    expect(error.message).toContain('schemas/demo/item.json: /properties/owner_id/x-ref/resource:');
  });

  it('x-ref label that is not a field of the referenced resource', () => {
    const dir = schemaDir({
      'demo/owner.json': resource('demo/owner'),
      'demo/item.json': resource('demo/item', {}, {
        owner_id: { type: 'integer', 'x-ref': { resource: 'demo/owner', label: 'nickname' } },
      }),
    });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/properties/owner_id/x-ref/label');
    expect(error.message).toBe('schemas/demo/item.json: /properties/owner_id/x-ref/label: "demo/owner" has no field "nickname"');
  });

  it('x-ref label, fields or quick search that would carry more than the relation may', () => {
    const owner = resource('demo/owner', {}, { nickname: { type: 'string', maxLength: 50 }, secret: { type: 'string', maxLength: 50, writeOnly: true } });
    const cases: [Record<string, unknown>, Record<string, unknown>, string, string][] = [
      [{ label: 'secret', as: 'owner' }, {}, '/properties/owner_id/x-ref/label', '"demo/owner" field "secret" is write-only: it never leaves the server'],
      [{ label: 'name', as: 'owner', fields: ['nickname', 'secret'] }, {}, '/properties/owner_id/x-ref/fields/1', '"demo/owner" field "secret" is write-only: it never leaves the server'],
      [{ label: 'name', fields: ['nickname'] }, {}, '/properties/owner_id/x-ref/fields', '"fields" needs "as": only a relation carries its row'],
      [{ label: 'name', as: 'owner' }, { 'x-list': { quickSearch: ['owner.nickname'] } }, '/x-list/quickSearch/0', '"nickname" is not carried by relation "owner" (its key, label or x-ref.fields)'],
    ];
    for (const [ref, extra, path, detail] of cases) {
      const dir = schemaDir({ 'demo/owner.json': owner, 'demo/item.json': resource('demo/item', extra, { owner_id: { type: 'integer', 'x-ref': { resource: 'demo/owner', ...ref } } }) });
      expect(loadError(dir).message).toBe(`schemas/demo/item.json: ${path}: ${detail}`);
    }
    const dir = schemaDir({
      'demo/owner.json': owner,
      'demo/item.json': resource('demo/item', { 'x-list': { quickSearch: ['owner.nickname'] } }, { owner_id: { type: 'integer', 'x-ref': { resource: 'demo/owner', label: 'name', as: 'owner', fields: ['nickname'] } } }),
    });
    const item = loadResourceDefinitions(dir).find((definition) => definition.id === 'demo/item');
    expect(item?.fields.find((field) => field.name === 'owner_id')?.ref).toMatchObject({ label: 'name', as: 'owner', fields: ['nickname'] });
  });

  it('the same x-ref with an existing label loads', () => {
    const dir = schemaDir({
      'demo/owner.json': resource('demo/owner'),
      'demo/item.json': resource('demo/item', {}, { owner_id: { type: 'integer', 'x-ref': { resource: 'demo/owner', label: 'name' } } }),
    });
    const item = loadResourceDefinitions(dir).find((definition) => definition.id === 'demo/item');
    expect(item?.fields.find((field) => field.name === 'owner_id')?.ref).toMatchObject({ resource: 'demo/owner', label: 'name', key: 'id', many: false, fields: [] });
  });

  it('$id that does not match the file path', () => {
    const dir = schemaDir({ 'demo/item.json': resource('demo/items') });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('/$id');
    expect(error.message).toContain('schemas/demo/item.json: /$id:');
    expect(error.message).toContain('"demo/item"');
  });

  it('a file that is not valid JSON', () => {
    const dir = schemaDir({
      'demo/good.json': resource('demo/good'),
      'demo/item.json': '{ "$id": "demo/item", "title": "Item", }',
    });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/demo/item.json');
    expect(error.path).toBe('');
    expect(error.message).toMatch(/^schemas\/demo\/item\.json: \/: not valid JSON: /);
  });

  it('a file in a nested area names its full path', () => {
    const dir = schemaDir({ 'shop/order/line.json': resource('shop/order/line', { 'x-uii': {} }) });
    const error = loadError(dir);
    expect(error.file).toBe('schemas/shop/order/line.json');
    expect(error.message).toContain('schemas/shop/order/line.json: /x-uii:');
  });
});
