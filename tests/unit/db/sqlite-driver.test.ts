import Database from 'better-sqlite3';
import type { Kysely} from 'kysely';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseBusyError, databaseChangeMark, sqliteKysely } from '../../../src/server/db/sqlite-driver.js';

/**
 * SQLite's one connection is shared in turn. A query that waits for it too long fails instead of
 * waiting forever, so one stuck transaction cannot stall every later request of a server.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a scratch table
let db: Kysely<any> | undefined;

function open(waitMs: number) {
  db = sqliteKysely(new Database(':memory:'), waitMs);
  return db;
}

afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

describe('sqliteKysely', () => {
  it('serves queries in turn while a transaction holds the connection, in the order they came', async () => {
    const db = open(2_000);
    await sql`create table item (n integer)`.execute(db);
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ n: 1 }).execute();
      await held;
      order.push('transaction');
    });
    const first = db.selectFrom('item').selectAll().execute().then((rows) => order.push(`first saw ${rows.length}`));
    const second = db.insertInto('item').values({ n: 2 }).execute().then(() => order.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    release();
    await Promise.all([transaction, first, second]);
    // the waiting read saw the committed row, never the transaction half-way
    expect(order).toEqual(['transaction', 'first saw 1', 'second']);
    expect(await db.selectFrom('item').select('n').orderBy('n').execute()).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('fails a query on the main handle inside a transaction after the wait bound, and the connection is free again', async () => {
    const db = open(200);
    await sql`create table item (n integer)`.execute(db);
    const started = Date.now();
    const stuck = db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ n: 1 }).execute();
      // the mistake this guards against: the main handle, not `trx`
      await db.selectFrom('item').selectAll().execute();
    });
    await expect(stuck).rejects.toBeInstanceOf(DatabaseBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // the transaction was rolled back and the connection handed on
    expect(await db.selectFrom('item').selectAll().execute()).toEqual([]);
    await db.insertInto('item').values({ n: 3 }).execute();
    expect(await db.selectFrom('item').select('n').execute()).toEqual([{ n: 3 }]);
  });

  it('a waiter that gave up does not take the connection later', async () => {
    const db = open(100);
    await sql`create table item (n integer)`.execute(db);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ n: 1 }).execute();
      await held;
    });
    const late = db.selectFrom('item').selectAll().execute();
    await expect(late).rejects.toBeInstanceOf(DatabaseBusyError);
    release();
    await transaction;
    expect(await db.selectFrom('item').select('n').execute()).toEqual([{ n: 1 }]);
  });

  it('runs a query on the idle connection at once, with the same answers and errors as through the gate', async () => {
    const db = open(200);
    await sql`create table item (id integer primary key, n integer)`.execute(db);
    const inserted = await db.insertInto('item').values({ n: 7 }).executeTakeFirst();
    expect(inserted.insertId).toBe(1n);
    const updated = await db.updateTable('item').set({ n: 8 }).where('n', '=', 7).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    expect(await db.selectFrom('item').select('n').execute()).toEqual([{ n: 8 }]);
    // a failing statement rejects its promise; it never throws at the caller
    const missing = db.selectFrom('missing').selectAll().execute();
    await expect(missing).rejects.toThrow(/no such table: missing/);
    // and inside a transaction the same reads go through the transaction's connection
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ n: 9 }).execute();
      expect(await trx.selectFrom('item').select('n').orderBy('n').execute()).toEqual([{ n: 8 }, { n: 9 }]);
    });
    expect(await db.selectFrom('item').select('n').orderBy('n').execute()).toEqual([{ n: 8 }, { n: 9 }]);
  });
});

describe('databaseChangeMark', () => {
  it('stays the same across reads and moves with a write of this connection or a commit of another one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'change-mark-'));
    const file = join(dir, 'marks.db');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a scratch table
    const main = sqliteKysely<any>(new Database(file), 2_000);
    const other = new Database(file);
    try {
      await sql`create table item (n integer)`.execute(main);
      const mark = databaseChangeMark(main);
      if (!mark) throw new Error('no change mark for a SQLite handle');
      const before = mark();
      await main.selectFrom('item').selectAll().execute();
      expect(mark()).toBe(before);

      await main.insertInto('item').values({ n: 1 }).execute();
      const afterOwnWrite = mark();
      expect(afterOwnWrite).not.toBe(before);
      // an insert that returns rows writes too
      await main.insertInto('item').values({ n: 2 }).returning('n').execute();
      const afterReturning = mark();
      expect(afterReturning).not.toBe(afterOwnWrite);

      other.prepare('insert into item (n) values (3)').run();
      expect(mark()).not.toBe(afterReturning);
      await main.transaction().execute(async (trx) => expect(databaseChangeMark(trx)).toBeUndefined());
    } finally {
      other.close();
      await main.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
