import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';
import { MAX_FILTER_ORDER_INDEXES, normaliseResource, SchemaError } from '../../../src/schema/normalise.js';

/**
 * The indexes a list needs are derived from each schema: the default and weigh orders with the
 * primary key as tie-break, references, tree parents, equality/list/range filters, unique fields; a
 * plain index another one begins with is not kept twice. Lists may be ordered only by indexed columns.
 */

const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));
const byId = (id: string) => definitions.find((definition) => definition.id === id) as ResourceDefinition;
const shown = (definition: ResourceDefinition) =>
  definition.indexes.map((index) => `${index.unique ? (index.whenSet ? 'unique-when-set ' : 'unique ') : ''}${index.columns.map((column) => (index.descending?.includes(column) ? `${column} desc` : column)).join('+')}`).sort();

describe('derived indexes', () => {
  it('gives the member list its filters, references and unique logins', () => {
    expect(shown(byId('system/user'))).toEqual(
      [
        'create_time+id', 'join_time+id', 'last_login_time+id', 'update_time+id', 'wall_member_id+id',
        // each filter with the default order (the key), then the other sortable columns up to the cap
        ...['gender', 'group_id', 'status', 'teamid'].flatMap((filter) => ['id', 'join_time+id', 'last_login_time+id', 'update_time+id'].map((order) => `${filter}+${order}`)),
        'unique username', 'unique-when-set email', 'unique-when-set mobile', 'unique-when-set wall_member_id',
      ].sort(),
    );
  });

  it('gives a tree its parent and its weigh order with the key as tie-break', () => {
    // The default order `weigh,desc;id,asc` runs two ways: its indexes keep the key descending, read backward.
    expect(shown(byId('system/admin_rule'))).toEqual(
      ['create_time+id', 'pid+create_time+id', 'pid+id', 'pid+name+id', 'pid+update_time+id', 'pid+weigh+id', 'pid+weigh+id desc', 'status+create_time+id', 'status+id', 'status+name+id', 'status+update_time+id', 'status+weigh+id', 'status+weigh+id desc', 'unique name', 'update_time+id', 'weigh+id', 'weigh+id desc'],
    );
  });

  it('leads an index per filter and order with each equality filter, so a filtered list is read in order', () => {
    // survey: weigh order; `provider_id` is a reference, `status` an `=` filter; `create_time` a range filter, also sortable
    expect(shown(byId('survey/survey'))).toEqual(['create_time+id', 'provider_id+create_time+id', 'provider_id+id', 'provider_id+weigh+id', 'status+create_time+id', 'status+id', 'status+weigh+id', 'weigh+id']);
    // a range filter gets an index of its own, the key breaking ties
    expect(shown(byId('system/user'))).toContain('join_time+id');
  });

  it('lets a list be ordered only by a column an index serves with the key as tie-break', () => {
    // `status` leads `status+weigh+id`, which does not give `status, id` order: not sortable
    expect(byId('system/admin_rule').list.sortable).toEqual(['id', 'name', 'weigh', 'update_time', 'create_time']);
    expect(byId('system/admin').list.sortable).toContain('status');
  });

  it('lets every column be sorted that BuildAdmin\'s stock screens offer to sort (sortable: custom in its views)', () => {
    const offered: Record<string, string[]> = {
      'system/admin': ['create_time', 'last_login_time'],
      'system/admin_log': ['create_time'],
      'system/attachment': ['last_upload_time', 'quote', 'size'],
      'system/security_data_recycle': ['create_time', 'update_time'],
      'system/security_data_recycle_log': ['create_time'],
      'system/security_sensitive_data': ['create_time', 'update_time'],
      'system/security_sensitive_data_log': ['create_time'],
      'system/user_group': ['create_time', 'update_time'],
      'system/user_money_log': ['after', 'before', 'create_time', 'money'],
      'system/user_score_log': ['after', 'before', 'create_time', 'score'],
      'system/user': ['create_time', 'last_login_time'],
    };
    const refused = Object.entries(offered).flatMap(([id, columns]) => columns.filter((column) => !byId(id).list.sortable.includes(column)).map((column) => `${id}.${column}`));
    expect(refused).toEqual([]);
  });

  it('keeps one index where a longer one begins with the same column', () => {
    // `user_id` (a reference) is served by the declared `user_id + id`.
    const participation = shown(byId('survey/participation'));
    expect(participation).toContain('user_id+id');
    expect(participation).not.toContain('user_id');
  });

  it('makes every default order and weigh order of every schema start with an index', () => {
    for (const definition of definitions) {
      const leading = new Set([definition.primaryKey, ...definition.indexes.map((index) => index.columns[0])]);
      const first = definition.list.defaultSort[0]?.field;
      expect(leading.has(first), `${definition.id} orders by ${first}`).toBe(true);
      if (definition.list.weighField) expect(leading.has(definition.list.weighField), `${definition.id} weigh`).toBe(true);
      if (definition.list.tree) expect(leading.has(definition.list.tree.parentField), `${definition.id} tree`).toBe(true);
      for (const field of definition.fields) {
        if (field.ref && !field.ref.many && field.storage) expect(leading.has(field.name), `${definition.id}.${field.name} reference`).toBe(true);
        if (field.storage && ['=', 'IN', 'RANGE'].includes(String(field.ui.search)) && field.name !== definition.primaryKey) {
          expect(leading.has(field.name), `${definition.id}.${field.name} filter`).toBe(true);
        }
      }
      expect(definition.list.sortable.every((name) => leading.has(name))).toBe(true);
    }
  });

  it('stops at the cap of filter × order indexes beyond the default and weigh orders, and makes those x-list.indexes names', () => {
    const schema = (list: Record<string, unknown> = {}) => normaliseResource('wide/item.json', {
      $id: 'wide/item',
      title: 'Wide item',
      type: 'object',
      'x-table': 'wide_item',
      'x-list': { defaultSort: 'create_time,desc', ...list },
      properties: {
        id: { type: 'integer', readOnly: true },
        code: { type: 'string', maxLength: 20, 'x-unique': true, 'x-ui': { search: '=' } },
        ...Object.fromEntries(['a', 'b', 'c', 'd'].map((name) => [name, { type: 'integer', 'x-ui': { search: '=' } }])),
        ...Object.fromEntries(['p', 'q', 'r', 's'].map((name) => [name, { type: 'integer', 'x-ui': { sortable: true } }])),
        create_time: { type: ['integer', 'null'], readOnly: true },
      },
    });
    const filters = ['a', 'b', 'c', 'd'];
    const shownOf = (list?: Record<string, unknown>) => shown(schema(list));
    const indexes = shownOf();
    // every filter with the default order, always
    for (const filter of filters) expect(indexes).toContain(`${filter}+create_time+id`);
    // then the key and the sortable columns, the filters in turn, up to the cap (the unique `code` leads none: one row at most)
    const combined = indexes.filter((index) => /^[abcd]\+/.test(index) && !index.includes('create_time'));
    expect(combined).toHaveLength(MAX_FILTER_ORDER_INDEXES);
    expect(combined).toEqual(expect.arrayContaining(['a+p+id', 'd+p+id', 'a+q+id', 'd+q+id', 'a+r+id', 'd+r+id']));
    expect(indexes).not.toContain('a+s+id');
    expect(indexes.filter((index) => index.startsWith('code+'))).toEqual(['code+create_time+id']);
    // a combination past the cap, named by the schema; several filters lead one index together
    const named = shownOf({ indexes: [{ filter: 'a', sort: 's' }, { filter: ['b', 'c'], sort: 's' }] });
    expect(named).toContain('a+s+id');
    expect(named).toContain('b+c+s+id');
  });

  it('refuses an x-list.indexes entry whose filter or order a list cannot be asked for', () => {
    const withIndexes = (indexes: unknown) => () => normaliseResource('wide/item.json', {
      $id: 'wide/item',
      title: 'Wide item',
      type: 'object',
      'x-table': 'wide_item',
      'x-list': { indexes } as never,
      properties: {
        id: { type: 'integer', readOnly: true },
        a: { type: 'integer', 'x-ui': { search: '=' } },
        note: { type: 'string', maxLength: 20 },
        p: { type: 'integer', 'x-ui': { sortable: true } },
      },
    });
    expect(withIndexes([{ filter: 'note', sort: 'p' }])).toThrow(SchemaError);
    expect(withIndexes([{ filter: 'note', sort: 'p' }])).toThrow(/x-list\/indexes\/0\/filter.*"note" is not a stored field filtered with/);
    expect(withIndexes([{ filter: ['a', 'missing'], sort: 'p' }])).toThrow(/x-list\/indexes\/0\/filter\/1/);
    expect(withIndexes([{ filter: 'a', sort: 'note' }])).toThrow(/x-list\/indexes\/0\/sort.*cannot be ordered by "note"/);
    expect(withIndexes([{ filter: 'a', sort: 'p' }])).not.toThrow();
  });
});
