import { DatabaseBusyError } from './sqlite-driver.js';
import { codeOf } from '../../contract/checks.js';

/**
 * The database failures a client is asked to retry (503 with `Retry-After`), rather than told the
 * server failed (500): each leaves nothing half done, as the statement or the transaction it hit did
 * not commit (PostgreSQL rolls back a transaction whose connection is gone). The app's error handler
 * answers them.
 */

/** What `Retry-After` tells a client to wait before asking again, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** Node's socket errors on a connection to the database that was refused, dropped or never answered. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/**
 * PostgreSQL's SQLSTATEs of a connection it ended or will not give: class 08 (connection exception),
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting or stopping).
 */
const CONNECTION_STATES = /^(08...|57P0[123])$/;

/**
 * pg's own errors carry no code: a connection closed under a query ("Connection terminated
 * unexpectedly"), one that did not open in time ("Connection terminated due to connection timeout"),
 * a client used after its connection failed, and the pool's wait for a connection running out.
 */
const CLIENT_MESSAGES = /^(Connection terminated\b|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)/;

// The drivers' errors reach the handler as they are (Kysely does not wrap them). Causes are not
// followed: a failed `fetch` to an outside service carries ECONNREFUSED as its cause, and is not ours.
const codeText = (error: unknown) => String(codeOf(error) ?? '');

/** The database is there but taken: SQLite's one connection stayed busy, or its file stayed locked past `busy_timeout`. */
export function isDatabaseBusy(error: unknown): boolean {
  return error instanceof DatabaseBusyError || /^SQLITE_(BUSY|LOCKED)/.test(codeText(error));
}

/** The database cannot be reached: a PostgreSQL connection lost, refused, or not had in time. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const code = codeText(error);
  return SOCKET_ERRORS.has(code) || CONNECTION_STATES.test(code) || (error instanceof Error && CLIENT_MESSAGES.test(error.message));
}
