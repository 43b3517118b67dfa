import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import type { ConfigStore } from '../config-store.js';
import { BoundedMap } from '../bounded-map.js';
import { REFRESH_TOKEN_LIFETIME, TOKEN_LIFETIME_BOUNDS } from '../../contract/config-values.js';
import { isOneOf } from '../../contract/checks.js';

const TOKEN_TYPES = ['admin', 'admin-refresh', 'admin-2fa', 'user', 'user-refresh', 'email-pass', 'mobile-pass'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** Lifetimes (docs/wire-contract.md#tokens): fixed from issuance, never sliding. */
const TOKEN_TTL: Record<TokenType, number> = {
  admin: 259_200,
  user: 259_200,
  'admin-refresh': REFRESH_TOKEN_LIFETIME,
  'user-refresh': REFRESH_TOKEN_LIFETIME,
  // an admin's sign-in between the password and the one-time code (`two-factor.ts`)
  'admin-2fa': 300,
  'email-pass': 600,
  'mobile-pass': 600,
};

/** Access tokens whose lifetime is a site setting (seconds), read through the config cache. */
const TOKEN_LIFETIME_SETTINGS: Readonly<Partial<Record<TokenType, string>>> = {
  admin: 'admin_token_keep_time',
  user: 'user_token_keep_time',
};

/** Whether a stored setting is a lifetime within the bounds. */
function isTokenLifetime(value: string): boolean {
  if (!/^\d{1,10}$/.test(value)) return false;
  const seconds = Number(value);
  return seconds >= TOKEN_LIFETIME_BOUNDS.min && seconds <= TOKEN_LIFETIME_BOUNDS.max;
}

/** The lifetime of a new token of `type`: its setting when that holds a valid value, else the fixed one. */
async function lifetimeOf(type: TokenType, config: ConfigStore | undefined): Promise<number> {
  const setting = TOKEN_LIFETIME_SETTINGS[type];
  if (!setting || !config) return TOKEN_TTL[type];
  const value = (await config.get(setting)).trim();
  return isTokenLifetime(value) ? Number(value) : TOKEN_TTL[type];
}

interface TokenRecord {
  type: TokenType;
  userId: number;
  expired: boolean;
  /** Unix seconds, 0 for never */
  expireTime: number;
}

const PURGE_INTERVAL = 48 * 3600;

/**
 * How many tokens' digests a process remembers (every request digests its token), the ones used longest
 * ago forgotten first: 10,000 (a token and its digest, about 250 bytes) are under 3 MB.
 */
const REMEMBERED_DIGESTS = 10_000;

/**
 * Opaque random tokens; only their HMAC is stored, so a leaked table does not leak sessions. The key
 * lives in the database so several processes on one PostgreSQL agree on it.
 */
export class TokenStore {
  private lastPurge = 0;
  private readonly digests = new BoundedMap<string, string>(REMEMBERED_DIGESTS);

  /** `config`: where the access-token lifetimes are read; without it they are fixed. */
  constructor(private readonly db: Db, private readonly key: string, private readonly config?: ConfigStore) {}

  digest(token: string): string {
    let digest = this.digests.get(token);
    if (digest === undefined) {
      digest = createHmac('sha256', this.key).update(token).digest('hex');
      this.digests.set(token, digest);
    }
    return digest;
  }

  /** A new token; `expireTime` (Unix seconds) keeps the end of the session it replaces, else its type's lifetime counts from now. */
  async issue(type: TokenType, userId: number, db: Db = this.db, expireTime?: number): Promise<string> {
    const token = randomUUID();
    const now = nowSeconds();
    // inside a transaction the settings are read through it (SQLite has one connection)
    const expire = expireTime ?? now + (await lifetimeOf(type, db === this.db ? this.config : this.config?.through(db)));
    await db.insertInto('token').values({ token: this.digest(token), type, user_id: userId, create_time: now, expire_time: expire }).execute();
    if (now - this.lastPurge > PURGE_INTERVAL) {
      this.lastPurge = now;
      await db.deleteFrom('token').where('expire_time', '<', now - TOKEN_TTL['admin-refresh']).execute();
    }
    return token;
  }

  async find(token: string): Promise<TokenRecord | undefined> {
    if (!token || token.length > 100) return undefined;
    const row = await this.db.selectFrom('token').select(['type', 'user_id', 'expire_time']).where('token', '=', this.digest(token)).executeTakeFirst();
    // A stored type this code does not issue is no token of any kind.
    if (!row || !isOneOf(TOKEN_TYPES, row.type)) return undefined;
    const expireTime = Number(row.expire_time ?? 0);
    return { type: row.type, userId: Number(row.user_id), expired: expireTime !== 0 && expireTime <= nowSeconds(), expireTime };
  }

  /**
   * Uses a token up: it is deleted, and true is answered only to the one call that deleted it, so of two
   * requests racing with one token (a thief's copy and the owner's) exactly one gets through.
   */
  async consume(token: string, db: Db = this.db): Promise<boolean> {
    if (!token) return false;
    const result = await db.deleteFrom('token').where('token', '=', this.digest(token)).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async revoke(token: string, db: Db = this.db): Promise<void> {
    if (token) await db.deleteFrom('token').where('token', '=', this.digest(token)).execute();
  }

  /** Deletes the account's tokens of `types`, all but the ones in `keep`. */
  async revokeAll(types: readonly TokenType[], userId: number, db: Db = this.db, keep: readonly string[] = []): Promise<void> {
    let query = db.deleteFrom('token').where('type', 'in', [...types]).where('user_id', '=', userId);
    const kept = keep.filter((token) => token !== '').map((token) => this.digest(token));
    if (kept.length > 0) query = query.where('token', 'not in', kept);
    await query.execute();
  }
}

/** The HMAC key: from TOKEN_SECRET, else created once and kept in `security_secret`. */
export async function loadTokenKey(db: Db, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  const row = await db.selectFrom('security_secret').select('value').where('name', '=', 'token_key').executeTakeFirst();
  if (row) return row.value;
  const value = randomBytes(32).toString('hex');
  await db.insertInto('security_secret').values({ name: 'token_key', value }).onConflict((conflict) => conflict.column('name').doNothing()).execute();
  const stored = await db.selectFrom('security_secret').select('value').where('name', '=', 'token_key').executeTakeFirstOrThrow();
  return stored.value;
}
