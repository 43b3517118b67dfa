import { sql } from 'kysely';
import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import { errors } from '../errors.js';
import { clearFailures, isLockedOut, recordFailure } from './attempts.js';
import { AREA_AUTH, type Area } from './identity.js';
import { hashPassword, verifyPassword } from './passwords.js';


export interface LoginResult {
  account: Row;
  token: string;
  refreshToken: string;
}

/**
 * Password login for either area (docs/wire-contract.md#login-lockout, #back-office-bootstrap,
 * #login-and-registration): lockout after 10 failures within 24 hours from the same address (so a
 * stranger cannot lock the owner out), password check (a legacy md5 hash is upgraded on success), status,
 * tokens. `login_failure` still counts failures, for display.
 *
 * An unknown `name` answers as a wrong password does, after as long, and is locked out the same, counted under the name typed: the answer never tells whether
 * an account exists. A disabled account says so only to whoever knows its password. `also`: other columns
 * of the account written with the login (a member's language).
 *
 * `last_login_time` and `last_login_ip` are written as BuildAdmin writes them (a wrong password writes the
 * time too). The successful login before this one moves to `prev_login_time` / `prev_login_ip` in the same
 * statement, read from the row as it stands then: `last_success_time` (written by each successful login),
 * or for a row no login of this version has written yet (an older install, an imported account),
 * `last_login_time` when `login_failure` says no wrong password came after it. Nothing known leaves both
 * empty: the screens then say this is the first login.
 */
export async function loginWithPassword(app: AppContext, area: Area, account: Row | undefined, name: string, password: string, keep: boolean, ip: string, also: Row = {}): Promise<LoginResult> {
  return completeLogin(app, area, await checkPassword(app, area, account, name, password, ip), keep, ip, also);
}

/** An account whose password was right; `rehash`: its password under the current hash, when stored under a legacy one. */
interface CheckedLogin {
  account: Row;
  rehash?: string;
}

/**
 * The first half of `loginWithPassword`: lockout, password, status. A wrong password is counted and
 * refused; a right one writes nothing yet (an admin with two-factor sign-in still has a code to give).
 */
export async function checkPassword(app: AppContext, area: Area, account: Row | undefined, name: string, password: string, ip: string): Promise<CheckedLogin> {
  const auth = AREA_AUTH[area];
  const scope = loginScope(area);
  const accountKey = account ? String(account.id) : `name:${name}`.slice(0, 64);
  if (await isLockedOut(app, scope, accountKey, ip)) throw errors.loginLocked();

  // an unknown account's check costs what a real one does (see verifyPassword)
  const check = await verifyPassword(password, String(account?.password ?? ''), String(account?.salt ?? ''));
  if (!account || !check.ok) {
    await recordFailure(app, scope, accountKey, ip);
    if (account) await app.db.updateTable(auth.accountTable).set({ login_failure: Math.min(Number(account.login_failure ?? 0) + 1, 255), last_login_time: nowSeconds() }).where('id', '=', Number(account.id)).execute();
    throw errors.loginFailed();
  }
  if (!auth.isEnabled(account)) throw errors.accountDisabled();
  return check.needsUpgrade ? { account, rehash: await hashPassword(password) } : { account };
}

/** The lockout scope of an area's logins (`attempts.ts`). */
function loginScope(area: Area): 'login:admin' | 'login:user' {
  return area === 'admin' ? 'login:admin' : 'login:user';
}

/** The second half of `loginWithPassword`: the login's writes and its tokens, for an account `checkPassword` let in. */
export async function completeLogin(app: AppContext, area: Area, checked: CheckedLogin, keep: boolean, ip: string, also: Row = {}): Promise<LoginResult> {
  const auth = AREA_AUTH[area];
  const { account } = checked;
  const now = nowSeconds();
  const changes: Row = { ...also, login_failure: 0, last_login_time: now, last_login_ip: ip.slice(0, 50) };
  if (checked.rehash) {
    changes.password = checked.rehash;
    changes.salt = '';
  }
  // Every write of a login in one transaction: a login cut off by a lost connection leaves no token, no
  // forgiven failure and no new login time behind (PostgreSQL rolls the transaction back).
  return app.db.transaction().execute(async (trx) => {
    await clearFailures(trx, loginScope(area), String(account.id), ip);
    const previous = await trx
      .updateTable(auth.accountTable)
      .set({ ...changes, ...previousLoginCopy(), last_success_time: now })
      .where('id', '=', Number(account.id))
      .returning(['prev_login_time', 'prev_login_ip'])
      .executeTakeFirstOrThrow();
    const token = await app.tokens.issue(auth.tokenType, Number(account.id), trx);
    const refreshToken = keep ? await app.tokens.issue(auth.refreshType, Number(account.id), trx) : '';
    return { account: { ...account, ...changes, ...previous, last_success_time: now }, token, refreshToken };
  });
}

/** The columns of the previous successful login, as SQL over the row being updated (see loginWithPassword). */
function previousLoginCopy() {
  const previousTime = sql<number | null>`coalesce(${sql.ref('last_success_time')}, case when ${sql.ref('login_failure')} = 0 then ${sql.ref('last_login_time')} end)`;
  return {
    prev_login_time: previousTime,
    prev_login_ip: sql<string>`case when ${previousTime} is null then '' else coalesce(${sql.ref('last_login_ip')}, '') end`,
  };
}

/**
 * The successful login before the current one, as the bootstraps answer it beside `adminInfo` / `userInfo`
 * (docs/wire-contract.md#previous-login): Unix seconds and the client address, `null` and `""` when there
 * was none (this is the account's first login).
 */
export function previousLogin(account: Row): { time: number | null; ip: string } {
  const time = Number(account.prev_login_time ?? 0);
  return time > 0 ? { time, ip: String(account.prev_login_ip ?? '') } : { time: null, ip: '' };
}

/** The columns an account is found by. */
export type AccountKey = 'id' | 'username' | 'email' | 'mobile';

export async function findAccount(app: AppContext, area: Area, column: AccountKey, value: string): Promise<Row | undefined> {
  return await app.db.selectFrom(AREA_AUTH[area].accountTable).selectAll().where(column, '=', value).executeTakeFirst();
}

/** Logout: revoke the access token and, when given and of the area's kind, the refresh token. */
export async function revokeSession(app: AppContext, area: Area, accessToken: string, refreshToken: unknown): Promise<void> {
  if (typeof refreshToken === 'string' && refreshToken) {
    const record = await app.tokens.find(refreshToken);
    if (record?.type === AREA_AUTH[area].refreshType) await app.tokens.revoke(refreshToken);
  }
  if (accessToken) await app.tokens.revoke(accessToken);
}

/** "Remember me" and similar flags as PHP reads them: true, 1, "1", "true". */
export function isTruthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}
