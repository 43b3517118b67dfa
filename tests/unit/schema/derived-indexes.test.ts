import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * The indexes a list needs are derived from each schema: the default and weigh orders with the
 * primary key as tie-break, references, tree parents, equality/list/range filters, unique fields; a
 * plain index another one begins with is not kept twice. Lists may be ordered only by indexed columns.
 */

const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));
const byId = (id: string) => definitions.find((definition) => definition.id === id) as ResourceDefinition;
const shown = (definition: ResourceDefinition) => definition.indexes.map((index) => `${index.unique ? (index.whenSet ? 'unique-when-set ' : 'unique ') : ''}${index.columns.join('+')}`).sort();

describe('derived indexes', () => {
  it('gives the member list its filters, references and unique logins', () => {
    expect(shown(byId('system/user'))).toEqual(
      ['create_time', 'gender+id', 'group_id+id', 'join_time', 'last_login_time+id', 'status+id', 'teamid+id', 'unique username', 'unique-when-set email', 'unique-when-set mobile', 'unique-when-set wall_member_id', 'update_time', 'wall_member_id+id'].sort(),
    );
  });

  it('gives a tree its parent and its weigh order with the key as tie-break', () => {
    expect(shown(byId('system/admin_rule'))).toEqual(['create_time', 'pid+weigh+id', 'status+weigh+id', 'unique name', 'update_time', 'weigh+id']);
  });

  it('leads an index per list order with each equality filter, so a filtered list is read in order', () => {
    // survey: weigh order; `provider_id` is a reference, `status` an `=` filter
    expect(shown(byId('survey/survey'))).toEqual(['create_time', 'provider_id+weigh+id', 'status+weigh+id', 'weigh+id']);
    // a range filter gets an index of its own
    expect(shown(byId('system/user'))).toContain('join_time');
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
});
