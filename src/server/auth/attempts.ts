import type { AppContext } from '../app-context.js';
import type { Db } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import { errors, type ApiError } from '../errors.js';

/**
 * Counters against password guessing, kept in the database so every server process sees the same:
 * how often one address tries a login or asks for a code (a few a minute), and how often a login to
 * one account failed from one address (BuildAdmin's 10 in 24 hours, but per address, so nobody can lock
 * the owner out from elsewhere).
 */

type AttemptScope = 'login:admin' | 'login:user' | 'code' | 'upload';

const FAILURE_LIMIT = 10;
const FAILURE_WINDOW = 86_400;
const RATE_WINDOW = 60;

async function countSince(app: AppContext, kind: 'try' | 'fail', scope: AttemptScope, ip: string, since: number, account?: string) {
  let query = app.db.selectFrom('login_attempt').select([(eb) => eb.fn.countAll().as('total'), (eb) => eb.fn.min('create_time').as('oldest')]).where('kind', '=', kind).where('scope', '=', scope);
  if (account !== undefined) query = query.where('account', '=', account);
  const row = await query.where('ip', '=', ip).where('create_time', '>', since).executeTakeFirstOrThrow();
  return { total: Number(row.total), oldest: Number(row.oldest ?? 0) };
}

/** Count one try of `scope` from `ip`; past `perMinute` in the last minute, refuse with the seconds to wait. */
export async function throttleAddress(app: AppContext, scope: AttemptScope, ip: string, perMinute: number): Promise<void> {
  if (perMinute <= 0) return;
  const now = nowSeconds();
  const { total, oldest } = await countSince(app, 'try', scope, ip.slice(0, 50), now - RATE_WINDOW);
  if (total >= perMinute) throw errors.tooManyAttempts(Math.max(1, oldest + RATE_WINDOW - now + 1));
  await app.db.insertInto('login_attempt').values({ kind: 'try', scope, account: '', ip: ip.slice(0, 50), create_time: now }).execute();
}

/**
 * Count one try of `scope` by `account` (a member, wherever the request comes from); past `perMinute` in
 * the last minute, refuse with `refusal` and the seconds to wait. The try is written before the count,
 * and only the first `perMinute` of the minute go through, so requests sent together cannot all slip in
 * between one count and its write; a refused try is taken back.
 */
export async function throttleAccount(app: AppContext, scope: AttemptScope, account: string, ip: string, perMinute: number, refusal: (seconds: number) => ApiError): Promise<void> {
  if (perMinute <= 0) return;
  const now = nowSeconds();
  const mine = await app.db.insertInto('login_attempt').values({ kind: 'try', scope, account, ip: ip.slice(0, 50), create_time: now }).returning('id').executeTakeFirstOrThrow();
  const first = await app.db
    .selectFrom('login_attempt')
    .select(['id', 'create_time'])
    .where('kind', '=', 'try')
    .where('scope', '=', scope)
    .where('account', '=', account)
    .where('create_time', '>', now - RATE_WINDOW)
    .orderBy('id')
    .limit(perMinute)
    .execute();
  if (first.some((row) => Number(row.id) === Number(mine.id))) return;
  await app.db.deleteFrom('login_attempt').where('id', '=', mine.id).execute();
  throw refusal(Math.max(1, Number(first[0]?.create_time ?? now) + RATE_WINDOW - now + 1));
}

/** Whether logins to `account` from `ip` failed too often lately. */
export async function isLockedOut(app: AppContext, scope: AttemptScope, account: string, ip: string): Promise<boolean> {
  return (await countSince(app, 'fail', scope, ip.slice(0, 50), nowSeconds() - FAILURE_WINDOW, account)).total >= FAILURE_LIMIT;
}

export async function recordFailure(app: AppContext, scope: AttemptScope, account: string, ip: string): Promise<void> {
  await app.db.insertInto('login_attempt').values({ kind: 'fail', scope, account, ip: ip.slice(0, 50), create_time: nowSeconds() }).execute();
}

/** A successful login forgives the failures of that account from that address (in `db`, the login's transaction). */
export async function clearFailures(db: Db, scope: AttemptScope, account: string, ip: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('kind', '=', 'fail').where('scope', '=', scope).where('account', '=', account).where('ip', '=', ip.slice(0, 50)).execute();
}

/** Rows older than the longest window are of no use: removed by the periodic sweep. */
export async function purgeAttempts(app: AppContext, now = nowSeconds()): Promise<void> {
  await app.db.deleteFrom('login_attempt').where('create_time', '<', now - FAILURE_WINDOW).execute();
}
