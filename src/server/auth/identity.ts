import type { CompiledQuery } from 'kysely';
import { dynamicDb, keepPrepared, type Db } from '../db/connection.js';
import type { Row } from '../../schema/definition.js';
import type { TokenType } from './tokens.js';
import { nowSeconds } from '../clock.js';
import { AUTH_REVISION_TABLE } from '../db/system-tables.js';
import { databaseChangeMark } from '../db/sqlite-driver.js';
import { BoundedMap } from '../bounded-map.js';
import type { DeclaredNode } from '../../generated/permission-nodes.js';
import { permissionNode } from './permission-node.js';

export type Area = 'admin' | 'user';

/** What differs between the two identities; everything else in auth is shared. */
export interface AreaAuth {
  area: Area;
  accountTable: 'admin' | 'user';
  groupTable: 'admin_group' | 'user_group';
  ruleTable: 'admin_rule' | 'user_rule';
  tokenType: TokenType;
  refreshType: TokenType;
  /** every token that acts for an account of the area: what ends when its password changes */
  sessionTypes: readonly TokenType[];
  isEnabled(row: Row): boolean;
  groupIdsOf(db: Db, account: Row): Promise<number[]>;
}

export const AREA_AUTH: Record<Area, AreaAuth> = {
  admin: {
    area: 'admin',
    accountTable: 'admin',
    groupTable: 'admin_group',
    ruleTable: 'admin_rule',
    tokenType: 'admin',
    refreshType: 'admin-refresh',
    // a sign-in waiting for its one-time code goes with the rest
    sessionTypes: ['admin', 'admin-refresh', 'admin-2fa'],
    isEnabled: (row) => String(row.status) === '1',
    groupIdsOf: async (db, account) => {
      const rows = (await db.selectFrom('admin_group_access').select('group_id').where('uid', '=', Number(account.id)).execute());
      return rows.map((row) => Number(row.group_id));
    },
  },
  user: {
    area: 'user',
    accountTable: 'user',
    groupTable: 'user_group',
    ruleTable: 'user_rule',
    tokenType: 'user',
    refreshType: 'user-refresh',
    // a member's pass tokens prove an address for a few minutes; they go with the rest
    sessionTypes: ['user', 'user-refresh', 'email-pass', 'mobile-pass'],
    isEnabled: (row) => row.status === 'enable',
    groupIdsOf: async (_db, account) => [Number(account.group_id)],
  },
};

/** A logged-in admin or member with the permission nodes of their enabled groups. */
export interface Identity {
  area: Area;
  id: number;
  username: string;
  /** the stored account row */
  account: Row;
  /** all groups the account belongs to, enabled or not */
  groupIds: number[];
  isSuper: boolean;
  /** ids of enabled rules the account holds (empty for a super account, which holds everything) */
  ruleIds: Set<number>;
  /** lower-cased rule names: the permission nodes */
  ruleNames: Set<string>;
  /** the area's `auth_revision` it was resolved under (from a token), for what is cached beside it */
  revision?: number;
}

export function parseRuleIds(rules: unknown): number[] {
  return String(rules ?? '')
    .split(',')
    .map((item) => Number(item.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
}

/** What an account may do, resolved from its groups and their rules. */
type Grants = Pick<Identity, 'groupIds' | 'isSuper' | 'ruleIds' | 'ruleNames'>;

async function resolveGrants(db: Db, auth: AreaAuth, account: Row): Promise<Grants> {
  const groupIds = await auth.groupIdsOf(db, account);
  const groups = groupIds.length
    ? await db.selectFrom(auth.groupTable).select(['id', 'rules']).where('id', 'in', groupIds).where('status', '=', '1').execute()
    : [];
  const isSuper = groups.some((group) => String(group.rules ?? '').split(',').includes('*'));
  const ids = [...new Set(groups.flatMap((group) => parseRuleIds(group.rules)))];
  // A super account passes every check without its rules being listed.
  const rules = isSuper || ids.length === 0
    ? []
    : await db.selectFrom(auth.ruleTable).select(['id', 'name']).where('status', '=', '1').where('id', 'in', ids).execute();
  return {
    groupIds,
    isSuper,
    ruleIds: new Set(rules.map((rule) => Number(rule.id))),
    ruleNames: new Set(rules.map((rule) => permissionNode(rule.name))),
  };
}

function identityOf(auth: AreaAuth, account: Row, grants: Grants, revision?: number): Identity {
  return { area: auth.area, id: Number(account.id), username: String(account.username), account, ...grants, ...(revision !== undefined ? { revision } : {}) };
}

export async function loadIdentity(db: Db, auth: AreaAuth, accountId: number): Promise<Identity | undefined> {
  const account = await db.selectFrom(auth.accountTable).selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account || !auth.isEnabled(account)) return undefined;
  return identityOf(auth, account, await resolveGrants(db, auth, account));
}

/**
 * How many accounts a process remembers the grants of, the ones used longest ago forgotten first. An
 * account's entry is small (its key, a revision, and grants shared with every account holding the same
 * groups and rules): 10,000 of them are about 1.5 MB.
 */
const CACHED_ACCOUNTS = 10_000;
/**
 * How many distinct grants a process keeps (a set of groups' rules, shared by the accounts that hold it):
 * one per group combination in use, a few dozen in practice; each is a few kilobytes (the rule ids and
 * names), so 500 are at most a few megabytes.
 */
const CACHED_GRANTS = 500;
/**
 * How many tokens' rows a process keeps, the ones used longest ago forgotten first. Each holds the
 * account's whole row (2–4 KB for a member): 2,000 are under 8 MB. A row only serves until the next write
 * to the database (see `tokenRow`), so the tokens of the clients active right now are all that pay off;
 * with one per login and thousands of logins an hour, a larger cache only held rows that never served again.
 */
const CACHED_TOKENS = 2_000;

/**
 * Grants resolved per account, kept while the area's `auth_revision` is the one they were resolved
 * under. The revision is read in the same query that finds the token and the account row, so a disabled
 * account, a revoked token or a group losing a rule takes effect at the next request, in every process.
 */
export class IdentityCache {
  private readonly entries: BoundedMap<string, { revision: number; grants: Grants }>;
  /** Grants by area, revision and content: accounts of the same groups share one object. */
  private readonly shared: BoundedMap<string, Grants>;
  private remarks = { revision: -1, byMenu: new Map<string, string>() };
  private readonly tokens: BoundedMap<string, { mark: string; row: Row }>;

  constructor(capacity: { accounts?: number; grants?: number; tokens?: number } = {}) {
    this.entries = new BoundedMap(capacity.accounts ?? CACHED_ACCOUNTS);
    this.shared = new BoundedMap(capacity.grants ?? CACHED_GRANTS);
    this.tokens = new BoundedMap(capacity.tokens ?? CACHED_TOKENS);
  }

  /** How many accounts, distinct grants and token rows are kept now. */
  sizes(): { accounts: number; grants: number; tokens: number } {
    return { accounts: this.entries.size, grants: this.shared.size, tokens: this.tokens.size };
  }

  /** Forget everything (`ajax/clearCache`); the next request of each account resolves afresh. */
  clear(): void {
    this.entries.clear();
    this.shared.clear();
    this.tokens.clear();
    this.remarks = { revision: -1, byMenu: new Map() };
  }

  /**
   * The token query's row for `key`, read under the database change mark `mark` (see
   * `databaseChangeMark`): none once anything was written since, a token deleted at logout included.
   */
  tokenRow(key: string, mark: string): Row | undefined {
    const kept = this.tokens.get(key);
    return kept && kept.mark === mark ? kept.row : undefined;
  }

  keepTokenRow(key: string, mark: string, row: Row): void {
    this.tokens.set(key, { mark, row });
  }

  /**
   * The remark of an admin menu (shown above its list), kept while the admin area's revision is the one
   * it was read under: the revision moves when a rule's remark does.
   */
  async remarkOf(revision: number, menu: string, read: () => Promise<string>): Promise<string> {
    if (this.remarks.revision !== revision) this.remarks = { revision, byMenu: new Map() };
    const cached = this.remarks.byMenu.get(menu);
    if (cached !== undefined) return cached;
    const remark = await read();
    // a slower read under an older revision must not land in the newer one's map
    if (this.remarks.revision === revision) this.remarks.byMenu.set(menu, remark);
    return remark;
  }

  async grantsOf(db: Db, auth: AreaAuth, account: Row, revision: number): Promise<Grants> {
    const key = `${auth.area}:${String(account.id)}`;
    const cached = this.entries.get(key);
    if (cached && cached.revision === revision) return cached.grants;
    const resolved = await resolveGrants(db, auth, account);
    const content = `${auth.area}:${revision}:${resolved.isSuper}:${resolved.groupIds.join(',')}:${[...resolved.ruleIds].join(',')}`;
    const grants = this.shared.get(content) ?? resolved;
    if (grants === resolved) this.shared.set(content, resolved);
    this.entries.set(key, { revision, grants });
    return grants;
  }
}

type TokenIdentity = { expired: true } | { expired: false; identity?: Identity };

/** Stands for the token digest while the token query is compiled; each request puts its own in its place. */
const DIGEST_PLACEHOLDER = '\u0000token digest';

/** The token query, compiled once per database and area: every API request runs it. */
const tokenQueries = new WeakMap<Db, Map<Area, CompiledQuery<Row>>>();

function tokenQuery(db: Db, auth: AreaAuth): CompiledQuery<Row> {
  let byArea = tokenQueries.get(db);
  if (!byArea) tokenQueries.set(db, (byArea = new Map()));
  let compiled = byArea.get(auth.area);
  if (!compiled) {
    // The account table is the area's: `admin` or `user`, joined under one alias.
    compiled = dynamicDb(db)
      .selectFrom('token as t')
      .leftJoin(`${auth.accountTable} as a`, 'a.id', 't.user_id')
      .selectAll('a')
      .select(['t.type as token_type', 't.user_id as token_user_id', 't.expire_time as token_expire_time'])
      .select((eb) => eb.selectFrom(AUTH_REVISION_TABLE).select('revision').where('area', '=', auth.area).as('auth_revision'))
      .where('t.token', '=', DIGEST_PLACEHOLDER)
      .compile() as CompiledQuery<Row>;
    keepPrepared(db, compiled.sql);
    byArea.set(auth.area, compiled);
  }
  return compiled;
}

/**
 * The identity behind an area's access token, in one query for the token, its account and the area's
 * revision, then grants from the cache (a few more queries only when the revision moved). On SQLite the
 * query's row is used again while nothing at all was written to the database since it was read (the
 * change mark is taken before the query, so a write while it runs leaves the row already outdated);
 * the expiry is still compared with the clock at every request.
 */
export async function identityOfToken(db: Db, cache: IdentityCache, auth: AreaAuth, digest: string): Promise<TokenIdentity | undefined> {
  const mark = databaseChangeMark(db)?.();
  const key = `${auth.area}:${digest}`;
  let row = mark === undefined ? undefined : cache.tokenRow(key, mark);
  if (!row) {
    const compiled = tokenQuery(db, auth);
    const parameters = compiled.parameters.map((value) => (value === DIGEST_PLACEHOLDER ? digest : value));
    [row] = (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
    if (row && mark !== undefined) cache.keepTokenRow(key, mark, row);
  }
  if (!row || row.token_type !== auth.tokenType) return undefined;
  const expireTime = Number(row.token_expire_time ?? 0);
  if (expireTime !== 0 && expireTime <= nowSeconds()) return { expired: true };
  if (row.id === null || row.id === undefined) return { expired: false };
  const { token_type: _type, token_user_id: _user, token_expire_time: _expire, auth_revision: revision, ...account } = row;
  if (!auth.isEnabled(account)) return { expired: false };
  return { expired: false, identity: identityOf(auth, account, await cache.grantsOf(db, auth, account, Number(revision)), Number(revision)) };
}

/**
 * Permission node check of a node the code names, `auth/admin/edit`: one a schema or a seed declares
 * (`npm run gen`), so a misspelt or undeclared node fails the type check. Case-insensitive; super accounts
 * pass everything.
 */
export function allows(identity: Identity, node: DeclaredNode): boolean {
  return allowsComputed(identity, node);
}

/**
 * The same check of a node made at run time from a controller or a resource definition (its path and an
 * action), which may belong to a module designed or installed while the server runs and so to no generated
 * type. Code naming a node writes `allows` (ESLint refuses a written-out node here).
 */
export function allowsComputed(identity: Identity, node: string): boolean {
  return identity.isSuper || identity.ruleNames.has(permissionNode(node));
}
