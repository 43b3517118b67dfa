import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import { AREA_AUTH, type Area } from './identity.js';
import { hashPassword } from './passwords.js';

/**
 * A password is what every session of an account rests on: when it changes, whoever logged in with the
 * old one is logged out. Every path that sets a password (an admin editing an admin or a member, an
 * admin's or member's own change, a member retrieving theirs by code, a team leader, `ADMIN_PASSWORD` at
 * start) ends the account's sessions here.
 */

interface SessionEnd {
  /** the transaction the password was written in */
  db?: Db;
  /**
   * Tokens of the account that stay valid: the session of someone changing their own password after
   * proving the current one. Tokens of other accounts are never touched whatever is given.
   */
  keep?: readonly string[];
}

/** Ends the account's sessions: its access and refresh tokens (a member's address passes too), all but `keep`. */
export async function endSessions(app: AppContext, area: Area, accountId: number, options: SessionEnd = {}): Promise<void> {
  await app.tokens.revokeAll(AREA_AUTH[area].sessionTypes, accountId, options.db ?? app.db, options.keep);
}

/**
 * Stores a new password for the account (hashed, the legacy salt cleared, past login failures forgotten)
 * and ends its sessions, in one transaction. `changes`: other columns written with it.
 */
export async function setAccountPassword(app: AppContext, area: Area, accountId: number, password: string, options: SessionEnd & { changes?: Row } = {}): Promise<void> {
  const hash = await hashPassword(password);
  const write = async (db: Db) => {
    await db.updateTable(AREA_AUTH[area].accountTable).set({ ...options.changes, password: hash, salt: '', login_failure: 0, update_time: nowSeconds() }).where('id', '=', accountId).execute();
    await endSessions(app, area, accountId, { db, keep: options.keep });
  };
  if (options.db) await write(options.db);
  else await app.db.transaction().execute(write);
}
