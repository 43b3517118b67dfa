import { sql } from 'kysely';
import type { DatabaseHandle } from './connection.js';

/** The PostgreSQL advisory lock key of start-up work ("chidao" in ASCII). */
const STARTUP_LOCK = 0x636869_64616f;

/**
 * Run the start-up work (migration, seed, menu sync) of one process at a time on a shared database:
 * on PostgreSQL a session advisory lock, held on a connection of its own while `work` runs through the
 * pool. Processes that start together wait, then find the tables made and the menus synced.
 * One SQLite file is served by one process (the scale-out story is PostgreSQL; a second server process
 * on the file is refused at start, db/sqlite-file-lock.ts), so it needs none.
 */
export async function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.dialect !== 'postgres') return work();
  return handle.db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
    }
  });
}
