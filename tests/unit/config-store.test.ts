import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/server/config-store.js';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';

/** Site settings read through a short cache, and through a transaction without deadlocking SQLite. */

let handle: DatabaseHandle;

beforeEach(async () => {
  handle = openDatabase('sqlite::memory:');
  await sql`create table config (name varchar(30) primary key, value text)`.execute(handle.db);
  await handle.db.insertInto('config').values({ name: 'site_name', value: 'Panel A' }).execute();
});

afterEach(async () => {
  await handle.close();
});

const rename = (db: DatabaseHandle['db'], value: string) => db.updateTable('config').set({ value }).where('name', '=', 'site_name').execute();

describe('ConfigStore', () => {
  it('serves cached rows until they expire or are invalidated', async () => {
    const store = new ConfigStore(handle.db, 60_000);
    expect(await store.get('site_name')).toBe('Panel A');
    await rename(handle.db, 'Panel B');
    expect(await store.get('site_name')).toBe('Panel A');
    store.invalidate();
    expect(await store.get('site_name')).toBe('Panel B');
    expect(await new ConfigStore(handle.db, 0).get('site_name')).toBe('Panel B');
    expect(await store.get('missing', 'fallback')).toBe('fallback');
  });

  it('reads through a transaction, seeing its changes, and never keeps what a rolled-back one read', async () => {
    const store = new ConfigStore(handle.db, 60_000);
    const failed = handle.db.transaction().execute(async (trx) => {
      await rename(trx, 'Never committed');
      // the cache is empty: the view reads through the transaction (the main handle would wait for it)
      expect(await store.through(trx).get('site_name')).toBe('Never committed');
      throw new Error('roll back');
    });
    await expect(failed).rejects.toThrow('roll back');
    expect(await store.get('site_name')).toBe('Panel A');

    // a fresh cache is shared with the view
    await handle.db.transaction().execute(async (trx) => {
      await rename(trx, 'Panel C');
      expect(await store.through(trx).get('site_name')).toBe('Panel A');
    });
  });
});
