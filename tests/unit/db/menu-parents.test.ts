import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkResources } from '../../../src/schema/check.js';
import { readSchemaFiles } from '../../../src/schema/load-files.js';
import { SchemaError } from '../../../src/schema/normalise.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { checkMenuParents } from '../../../src/server/db/seed.js';

/**
 * `x-menu.parent` must name a menu: a rule of the database (on a new one, a row of the rule table's seed),
 * another schema's menu, or a directory a schema declares with the object form. Anything else stops
 * start-up before a table is made, naming the file and the JSON path, instead of putting the entry at the
 * top level without a word.
 */

const files = readSchemaFiles(join(import.meta.dirname, '../../../schemas'));

/** A small schema of area `demo` with the menu `menu`. */
function gadget(name: string, menu: Record<string, unknown>): Record<string, unknown> {
  return {
    $id: `demo/${name}`,
    title: 'Gadget',
    type: 'object',
    'x-table': `demo_${name}`,
    'x-controller': `demo.${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    'x-menu': { title: 'Gadgets', ...menu },
    properties: { id: { type: 'integer', readOnly: true } },
  };
}

/** The project's schemas with `extra`, checked as a set as start-up checks them before their menus' parents. */
function withProject(...extra: Record<string, unknown>[]) {
  return checkResources([...files, ...extra.map((raw) => ({ file: `schemas/${String(raw.$id)}.json`, raw }))]);
}

let handle: DatabaseHandle;

beforeEach(() => {
  handle = openDatabase('sqlite::memory:');
});

afterEach(async () => {
  await handle.close();
});

describe('a menu parent', () => {
  it('that names no menu is a schema error naming the file, the JSON path and the parent', async () => {
    const refusal = checkMenuParents(handle, withProject(gadget('orphan', { parent: 'nowhere' })));
    await expect(refusal).rejects.toBeInstanceOf(SchemaError);
    await expect(refusal).rejects.toMatchObject({
      file: 'schemas/demo/orphan.json',
      path: '/x-menu/parent',
      message: expect.stringContaining('the parent menu "nowhere" does not exist'),
    });
  });

  it('names the file a design gives, when the schema is not in schemas/', async () => {
    const definitions = withProject(gadget('orphan', { parent: 'Nowhere/else' }));
    await expect(
      checkMenuParents(handle, definitions, { 'demo/orphan': 'demo/orphan (designed in the back office)' }),
    ).rejects.toThrow(
      'demo/orphan (designed in the back office): /x-menu/parent: the parent menu "Nowhere/else" does not exist',
    );
  });

  it('may be a seeded rule in any letter case, another schema’s menu, or a directory declared in the object form', async () => {
    const definitions = withProject(
      gadget('seeded', { parent: 'AUTH' }),
      gadget('shelf', { parent: 'demo/rack' }),
      gadget('rack', {
        parent: { name: 'library', title: { 'zh-cn': '图书馆', en: 'Library' }, icon: 'fa fa-book', weigh: 40 },
      }),
      gadget('desk', { parent: 'library' }),
    );
    await expect(checkMenuParents(handle, definitions)).resolves.toBeUndefined();
  });

  it('is looked up among the rules of the database once it has its rule table, not the seed', async () => {
    // the rule table's schema and the gadgets: the project's other menus are not what this is about
    const ruleTableAnd = (...extra: Record<string, unknown>[]) =>
      withProject(...extra).filter(
        (definition) => definition.table === 'admin_rule' || definition.id.startsWith('demo/'),
      );
    const ruleMenu = ruleTableAnd().find((definition) => definition.table === 'admin_rule')?.menu?.name;
    await sql`CREATE TABLE admin_rule (id integer primary key, name text)`.execute(handle.db);
    await sql`INSERT INTO admin_rule (name) VALUES ('custom/area'), (${ruleMenu})`.execute(handle.db);
    await expect(
      checkMenuParents(handle, ruleTableAnd(gadget('kept', { parent: 'custom/area' }))),
    ).resolves.toBeUndefined();
    // the seed's rules are not in this database: a parent naming one of them names no menu here
    await expect(checkMenuParents(handle, ruleTableAnd(gadget('lost', { parent: 'auth' })))).rejects.toMatchObject({
      file: 'schemas/demo/lost.json',
      path: '/x-menu/parent',
    });
  });
});
