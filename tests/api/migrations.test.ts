import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../src/schema/load-files.js';
import { dynamicDb, openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { DestructiveMigrationError, migrate } from '../../src/server/db/migrate.js';
import { foldRowCounts } from '../../src/server/db/row-counter.js';
import { VALUE_COUNT_TABLE } from '../../src/server/db/system-tables.js';
import { createTestDatabase, DATABASES } from '../support/test-server.js';

/**
 * Schema-derived migrations on a real SQLite file and a real PostgreSQL database: each test starts
 * from an empty database, migrates to a first version of `schemas/demo/item.json`, then edits it.
 */

const temporaryDirs: string[] = [];
afterAll(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Fields = Record<string, Record<string, unknown> | undefined>;

const BASE_FIELDS: Fields = {
  id: { type: 'integer', title: 'ID', readOnly: true },
  name: { type: 'string', title: 'Name', maxLength: 20 },
  sku: { type: 'string', title: 'SKU', maxLength: 30 },
  quantity: { type: 'integer', title: 'Quantity' },
};

/**
 * The definitions loaded from a temporary `schemas/demo/item.json`: the base fields with `changes`
 * applied (a field set to undefined is removed) and `extra` top-level keywords.
 */
function itemSchema(changes: Fields = {}, extra: Record<string, unknown> = {}): ResourceDefinition[] {
  const properties = Object.fromEntries(Object.entries({ ...BASE_FIELDS, ...changes }).filter(([, field]) => field !== undefined));
  const root = mkdtempSync(join(tmpdir(), 'chidao-migrate-'));
  temporaryDirs.push(root);
  const file = join(root, 'schemas/demo/item.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ $id: 'demo/item', title: 'Item', type: 'object', 'x-table': 'item', properties, ...extra }, null, 2));
  return loadResourceDefinitions(join(root, 'schemas'));
}

describe.each(DATABASES)('migrations on %s', (kind) => {
  let database: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle;

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    handle = openDatabase(database.url);
  });

  afterEach(async () => {
    await handle.close();
    await database.drop();
  });

  const rows = () => dynamicDb(handle.db).selectFrom('item').selectAll().orderBy('id').execute();
  const insert = (values: Record<string, unknown>) => dynamicDb(handle.db).insertInto('item').values(values).execute();

  async function columns(): Promise<Record<string, string>> {
    const table = (await handle.db.introspection.getTables()).find((item) => item.name === 'item');
    return Object.fromEntries((table?.columns ?? []).map((column) => [column.name, column.dataType]));
  }

  /** Declared varchar length of a column on PostgreSQL (SQLite does not enforce lengths). */
  async function postgresLength(column: string): Promise<number | null> {
    const result = await sql<{ length: number | null }>`
      SELECT character_maximum_length AS length FROM information_schema.columns
      WHERE table_name = 'item' AND column_name = ${column}`.execute(handle.db);
    return result.rows[0]?.length ?? null;
  }

  async function indexNames(): Promise<string[]> {
    const result = kind === 'sqlite'
      ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item'`.execute(handle.db)
      : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'item'`.execute(handle.db);
    return result.rows.map((row) => row.name);
  }

  /** A migrated table with two rows in it. */
  async function migratedWithRows() {
    await migrate(handle, itemSchema());
    await insert({ name: 'Lamp', sku: 'LMP-1', quantity: 5 });
    await insert({ name: 'Desk', sku: 'DSK-1', quantity: 2 });
    return rows();
  }

  it('creates the table of a new schema, with an auto-increment id', async () => {
    const result = await migrate(handle, itemSchema());
    expect(result.created).toEqual(['item']);
    expect(result.changes).toContain('created table item');
    expect(Object.keys(await columns()).sort()).toEqual(['id', 'name', 'quantity', 'sku']);
    await insert({ name: 'Lamp', sku: 'LMP-1', quantity: 5 });
    await insert({ name: 'Desk', sku: 'DSK-1', quantity: 2 });
    expect(await rows()).toEqual([
      { id: 1, name: 'Lamp', sku: 'LMP-1', quantity: 5 },
      { id: 2, name: 'Desk', sku: 'DSK-1', quantity: 2 },
    ]);
  });

  it('changes nothing when run again with the same schemas', async () => {
    await migrate(handle, itemSchema());
    expect(await migrate(handle, itemSchema())).toEqual({ created: [], changes: [] });
  });

  it('adds a new column: existing rows keep their data and get the default', async () => {
    const before = await migratedWithRows();
    const result = await migrate(handle, itemSchema({
      colour: { type: 'string', maxLength: 10, default: 'red' },
      weight: { type: 'integer' },
    }));
    expect(result.created).toEqual([]);
    expect(result.changes).toEqual(['added column item.colour', 'added column item.weight']);
    expect(await rows()).toEqual(before.map((row) => ({ ...row, colour: 'red', weight: 0 })));
    expect(await migrate(handle, itemSchema({ colour: { type: 'string', maxLength: 10, default: 'red' }, weight: { type: 'integer' } })))
      .toEqual({ created: [], changes: [] });
  });

  it('widens a varchar so longer values fit', async () => {
    await migratedWithRows();
    const long = 'L'.repeat(40);
    if (kind === 'postgres') await expect(insert({ name: long })).rejects.toThrow(/too long/);

    const result = await migrate(handle, itemSchema({ name: { type: 'string', title: 'Name', maxLength: 50 } }));
    expect(result.changes).toEqual(['widened column item.name to varchar(50)']);
    if (kind === 'postgres') expect(await postgresLength('name')).toBe(50);
    await insert({ name: long, sku: 'LONG-1' });
    expect((await rows()).map((row) => row.name)).toEqual(['Lamp', 'Desk', long]);
  });

  it('renames a column declared with x-renamedFrom and keeps its data', async () => {
    const before = await migratedWithRows();
    const result = await migrate(handle, itemSchema({ name: undefined, title: { type: 'string', maxLength: 20, 'x-renamedFrom': 'name' } }));
    expect(result.changes).toEqual(['renamed column item.name → title']);
    expect(Object.keys(await columns())).not.toContain('name');
    expect(await rows()).toEqual(before.map(({ name, ...row }) => ({ ...row, title: name })));
  });

  describe.each([
    {
      change: 'dropping a column',
      fields: { quantity: undefined } as Fields,
      message: 'column "item.quantity" would be dropped',
    },
    {
      change: 'narrowing a varchar',
      fields: { name: { type: 'string', title: 'Name', maxLength: 10 } } as Fields,
      message: 'column "item.name" would change from varchar(20) to varchar(10)',
    },
    {
      change: 'changing an integer into a string',
      fields: { quantity: { type: 'string', title: 'Quantity', maxLength: 30 } } as Fields,
      message: 'column "item.quantity" would change from bigint to varchar(30)',
    },
  ])('$change', ({ fields, message }) => {
    it('is refused, naming the schema file, table and column, and changes nothing', async () => {
      const before = await migratedWithRows();
      const shape = await columns();

      const refused = migrate(handle, itemSchema(fields));
      await expect(refused).rejects.toBeInstanceOf(DestructiveMigrationError);
      await expect(refused).rejects.toThrow(`schemas/demo/item.json: ${message}`);
      await expect(refused).rejects.toThrow(/Nothing was changed/);

      expect(await columns()).toEqual(shape);
      expect(await rows()).toEqual(before);
      if (kind === 'postgres') expect(await postgresLength('name')).toBe(20);
      expect(await migrate(handle, itemSchema())).toEqual({ created: [], changes: [] });
    });

    it('goes through with allowDestructive, and is then the new baseline', async () => {
      await migratedWithRows();
      const result = await migrate(handle, itemSchema(fields), { allowDestructive: true });
      expect(result.created).toEqual([]);
      expect(result.changes.length).toBeGreaterThan(0);
      expect(await migrate(handle, itemSchema(fields))).toEqual({ created: [], changes: [] });
    });
  });

  it('makes a nullable column required only when allowed, giving NULLs the default', async () => {
    await migrate(handle, itemSchema({ note: { type: ['string', 'null'], maxLength: 20 } }));
    await insert({ name: 'Lamp', sku: 'LMP-1', quantity: 5, note: null });
    await insert({ name: 'Desk', sku: 'DSK-1', quantity: 2, note: 'oak' });
    const required = itemSchema({ note: { type: 'string', maxLength: 20, default: 'none' } });
    await expect(migrate(handle, required)).rejects.toThrow('column "item.note" would become NOT NULL');
    expect((await rows()).map((row) => row.note)).toEqual([null, 'oak']);

    await migrate(handle, required, { allowDestructive: true });
    expect((await rows()).map((row) => row.note)).toEqual(['none', 'oak']);
    await expect(insert({ name: 'Chair', sku: 'CHR-1', note: null })).rejects.toThrow();
    expect(await migrate(handle, required)).toEqual({ created: [], changes: [] });
  });

  it('keeps the counts per value of a status column through a rename, a drop with another column made required, and the end of its enum', async () => {
    const db = dynamicDb(handle.db);
    const counted = { type: 'string', maxLength: 10, enum: ['new', 'used'], default: 'new', 'x-ui': { search: '=' } };
    /** The counts kept for the table, by column and value (PostgreSQL's pending changes folded first). */
    async function kept(): Promise<Record<string, number>> {
      await foldRowCounts(handle, db);
      const stored = (await db.selectFrom(VALUE_COUNT_TABLE).select(['column_name', 'value', 'row_total']).where('table_name', '=', 'item').execute()) as { column_name: string; value: string; row_total: number | string }[];
      return Object.fromEntries(stored.map((row) => [`${row.column_name}=${row.value}`, Number(row.row_total)]));
    }
    async function triggers(): Promise<string[]> {
      const result = kind === 'sqlite'
        ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'item' AND name LIKE 'item_values_%'`.execute(handle.db)
        : await sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'item'::regclass AND tgname LIKE 'item_values_%'`.execute(handle.db);
      return result.rows.map((row) => row.name).sort();
    }

    await migrate(handle, itemSchema({ state: counted, note: { type: ['string', 'null'], maxLength: 20 } }));
    await insert({ name: 'Lamp', state: 'used' });
    await insert({ name: 'Desk', state: 'new', note: 'oak' });
    await insert({ name: 'Chair', state: 'used' });
    expect(await kept()).toEqual({ 'state=new': 1, 'state=used': 2 });
    expect(await triggers()).toEqual(['item_values_ad', 'item_values_ai', 'item_values_au']);

    await migrate(handle, itemSchema({ condition: { ...counted, 'x-renamedFrom': 'state' }, note: { type: ['string', 'null'], maxLength: 20 } }));
    await insert({ name: 'Shelf', condition: 'new' });
    await dynamicDb(handle.db).updateTable('item').set({ condition: 'new' }).where('name', '=', 'Lamp').execute();
    expect(await kept()).toEqual({ 'condition=new': 3, 'condition=used': 1 });

    // The column dropped while another becomes required: filling the NULLs updates the table in the same step.
    await migrate(handle, itemSchema({ kind: counted, note: { type: 'string', maxLength: 20, default: 'none' } }), { allowDestructive: true });
    expect((await rows()).map((row) => row.note)).toEqual(['none', 'oak', 'none', 'none']);
    expect(await kept()).toEqual({ 'kind=new': 4, 'kind=used': 0 });

    // No longer an enum: no counts, no triggers, and the table takes writes.
    await migrate(handle, itemSchema({ kind: { type: 'string', maxLength: 10, default: 'new' }, note: { type: 'string', maxLength: 20, default: 'none' } }));
    expect(await kept()).toEqual({});
    expect(await triggers()).toEqual([]);
    await insert({ name: 'Stool', kind: 'anything' });
    await dynamicDb(handle.db).deleteFrom('item').where('name', '=', 'Lamp').execute();
    expect(await kept()).toEqual({});
  });

  it('keeps counting the rows, and the rows per value, of a table renamed with x-renamedFrom', async () => {
    const db = dynamicDb(handle.db);
    const state = { type: 'string', maxLength: 10, enum: ['new', 'used'], default: 'new', 'x-ui': { search: '=' } };
    await migrate(handle, itemSchema({ state }));
    await insert({ name: 'Lamp', state: 'used' });
    await migrate(handle, itemSchema({ state }, { 'x-table': 'goods', 'x-renamedFrom': 'item' }));
    await db.insertInto('goods').values({ name: 'Desk', state: 'used' }).execute();
    await db.insertInto('goods').values({ name: 'Chair', state: 'new' }).execute();
    await foldRowCounts(handle, db);
    const total = (await db.selectFrom('row_count').select('row_total').where('table_name', '=', 'goods').executeTakeFirstOrThrow()) as { row_total: number | string };
    expect(Number(total.row_total)).toBe(3);
    const values = (await db.selectFrom(VALUE_COUNT_TABLE).select(['table_name', 'value', 'row_total']).orderBy('table_name').orderBy('value').execute()) as { table_name: string; value: string; row_total: number | string }[];
    // Nothing is left counted under the old name.
    expect(values.map((row) => `${row.table_name}.${row.value}=${Number(row.row_total)}`)).toEqual(['goods.new=1', 'goods.used=2']);
    expect(await db.selectFrom('row_count').select('table_name').where('table_name', '=', 'item').execute()).toEqual([]);
  });

  it('drops the column and its data when allowed', async () => {
    const before = await migratedWithRows();
    await migrate(handle, itemSchema({ quantity: undefined }), { allowDestructive: true });
    expect(Object.keys(await columns()).sort()).toEqual(['id', 'name', 'sku']);
    expect(await rows()).toEqual(before.map(({ quantity: _quantity, ...row }) => row));
  });

  it('narrows a varchar when allowed: PostgreSQL cuts longer values, SQLite keeps them (it does not enforce lengths)', async () => {
    await migratedWithRows();
    await insert({ name: 'Standing lamp XL', sku: 'LMP-XL', quantity: 1 });
    const result = await migrate(handle, itemSchema({ name: { type: 'string', title: 'Name', maxLength: 10 } }), { allowDestructive: true });
    expect(result.changes).toEqual([kind === 'postgres' ? 'changed column item.name to varchar(10)' : 'rebuilt table item (name)']);
    const names = (await rows()).map((row) => row.name);
    expect(names).toEqual(['Lamp', 'Desk', kind === 'postgres' ? 'Standing l' : 'Standing lamp XL']);
    if (kind === 'postgres') expect(await postgresLength('name')).toBe(10);
  });

  it('stores an integer column as text once it is allowed to become a string', async () => {
    await migratedWithRows();
    await migrate(handle, itemSchema({ quantity: { type: 'string', title: 'Quantity', maxLength: 30 } }), { allowDestructive: true });
    expect((await rows()).map((row) => row.quantity)).toEqual(['5', '2']);
    await insert({ name: 'Chair', sku: 'CHR-1', quantity: 'a few' });
    await insert({ name: 'Stool', sku: 'STL-1' });
    expect((await rows()).map((row) => row.quantity)).toEqual(['5', '2', 'a few', '']);
  });

  it('creates an index declared by x-indexes: a duplicate insert then fails', async () => {
    await migratedWithRows();
    const result = await migrate(handle, itemSchema({}, { 'x-indexes': [{ columns: ['name', 'sku'], unique: true }, { columns: ['quantity'] }] }));
    // `quantity`, sortable by its index, gets the key as tie-break in it: (quantity, id) serves what (quantity) would.
    expect(result.changes).toEqual(['added index uniq_item_name_sku', 'added index idx_item_quantity_id']);
    expect(await indexNames()).toEqual(expect.arrayContaining(['uniq_item_name_sku', 'idx_item_quantity_id']));
    await insert({ name: 'Lamp', sku: 'LMP-2', quantity: 1 });
    await expect(insert({ name: 'Lamp', sku: 'LMP-1', quantity: 1 })).rejects.toThrow(/unique/i);
  });

  it('adds the filter × order indexes a schema comes to imply on an existing table, and drops them once it no longer does', async () => {
    await migratedWithRows();
    // `name` filtered with `=`, `quantity` sortable: the list filtered by name reads either order from an index.
    const filtered = itemSchema({ name: { type: 'string', title: 'Name', maxLength: 20, 'x-ui': { search: '=' } }, quantity: { type: 'integer', title: 'Quantity', 'x-ui': { sortable: true } } });
    const added = await migrate(handle, filtered);
    expect(added.changes.sort()).toEqual(['added index idx_item_name_id', 'added index idx_item_name_quantity_id', 'added index idx_item_quantity_id']);
    expect(await indexNames()).toEqual(expect.arrayContaining(['idx_item_name_id', 'idx_item_name_quantity_id', 'idx_item_quantity_id']));
    expect(await migrate(handle, filtered)).toEqual({ created: [], changes: [] });
    // `quantity` no longer sortable: its indexes go, the filter's own stays; the rows stay.
    const unsorted = itemSchema({ name: { type: 'string', title: 'Name', maxLength: 20, 'x-ui': { search: '=' } } });
    const dropped = await migrate(handle, unsorted);
    expect(dropped.changes.sort()).toEqual(['dropped index idx_item_name_quantity_id', 'dropped index idx_item_quantity_id']);
    expect(await indexNames()).toContain('idx_item_name_id');
    expect(await indexNames()).not.toContain('idx_item_name_quantity_id');
    expect(await migrate(handle, unsorted)).toEqual({ created: [], changes: [] });
    expect((await rows()).map((row) => row.name)).toEqual(['Lamp', 'Desk']);
  });

  it('creates a unique index for a field marked x-unique: a duplicate insert then fails', async () => {
    await migratedWithRows();
    const result = await migrate(handle, itemSchema({ sku: { type: 'string', title: 'SKU', maxLength: 30, 'x-unique': true } }));
    expect(result.changes).toEqual(['added index uniq_item_sku']);
    await expect(insert({ name: 'Another lamp', sku: 'LMP-1', quantity: 1 })).rejects.toThrow(/unique/i);
    expect(await migrate(handle, itemSchema({ sku: { type: 'string', title: 'SKU', maxLength: 30, 'x-unique': true } })))
      .toEqual({ created: [], changes: [] });
  });

  it('x-unique "when-set": a partial unique index, so many rows may leave the value empty but no two share one', async () => {
    await migratedWithRows();
    const whenSet = itemSchema({ sku: { type: 'string', title: 'SKU', maxLength: 30, 'x-unique': 'when-set' } });
    expect((await migrate(handle, whenSet)).changes).toEqual(['added index uniqset_item_sku']);
    await insert({ name: 'Blank one', sku: '', quantity: 1 });
    await insert({ name: 'Blank two', sku: '', quantity: 1 });
    await expect(insert({ name: 'Another lamp', sku: 'LMP-1', quantity: 1 })).rejects.toThrow(/unique/i);
    expect(await migrate(handle, whenSet)).toEqual({ created: [], changes: [] });
  });

  it('refuses, with the index and the table named, a unique index the rows already break', async () => {
    await migratedWithRows();
    await insert({ name: 'Twin', sku: 'LMP-1', quantity: 1 });
    await expect(migrate(handle, itemSchema({ sku: { type: 'string', title: 'SKU', maxLength: 30, 'x-unique': 'when-set' } })))
      .rejects.toThrow(/cannot add the unique index uniqset_item_sku: rows of "item" share a value of sku/);
  });
});
