import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POSTGRES_ADMIN_URL, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * PostgreSQL connections the database server ends on its own (a restart, a failover, an administrator
 * terminating them) must not take the API down: the next request gets a fresh connection.
 */

describe('a PostgreSQL connection ended by the database server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('postgres');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('is replaced, and the API keeps answering', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect((await server.admin('Index/login')).code).toBe(1);
      const database = new URL(server.databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        const ended = await admin.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // the pool has noticed (and reported) the lost idle connections
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('an idle connection was lost')), { timeout: 10_000 });
      expect((await server.admin('Index/login')).code).toBe(1);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(server.server.app.db);
      expect(Number(rows[0].one)).toBe(1);
    } finally {
      warn.mockRestore();
    }
  });
});
