import { describe, expect, it } from 'vitest';
import { isDatabaseBusy, isDatabaseUnreachable } from '../../src/server/db/database-unavailable.js';
import { DatabaseBusyError } from '../../src/server/db/sqlite-driver.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** Which database failures a client is asked to retry (503) rather than shown "Server internal error" (500). */
describe('database failures answered "retry"', () => {
  it('counts PostgreSQL refusing, ending or not giving a connection as unreachable', () => {
    for (const error of [
      withCode('the database system is shutting down', '57P03'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('connection failure', '08006'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
    ]) expect(isDatabaseUnreachable(error), error.message).toBe(true);
  });

  it('leaves other failures, and an outside service refusing a fetch, to the 500 answer', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED') });
    for (const error of [fetchFailed, withCode('duplicate key value', '23505'), withCode('syntax error', '42601'), new Error('boom'), undefined, null]) {
      expect(isDatabaseUnreachable(error)).toBe(false);
    }
  });

  it('counts SQLite busy or locked, and the connection wait running out, as busy', () => {
    expect(isDatabaseBusy(withCode('database is locked', 'SQLITE_BUSY'))).toBe(true);
    expect(isDatabaseBusy(withCode('database table is locked', 'SQLITE_LOCKED'))).toBe(true);
    expect(isDatabaseBusy(new DatabaseBusyError(10_000))).toBe(true);
    expect(isDatabaseBusy(withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
  });
});
