import type { Db } from '../db/connection.js';
import type { Row } from '../../schema/definition.js';
import type { TokenType } from './tokens.js';

export type Area = 'admin' | 'user';

/** What differs between the two identities; everything else in auth is shared. */
export interface AreaAuth {
  area: Area;
  accountTable: string;
  groupTable: string;
  ruleTable: string;
  tokenType: TokenType;
  refreshType: TokenType;
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
    isEnabled: (row) => String(row.status) === '1',
    groupIdsOf: async (db, account) => {
      const rows = (await db.selectFrom('admin_group_access').select('group_id').where('uid', '=', account.id).execute()) as { group_id: number }[];
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
}

export function parseRuleIds(rules: unknown): number[] {
  return String(rules ?? '')
    .split(',')
    .map((item) => Number(item.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
}

export async function loadIdentity(db: Db, auth: AreaAuth, accountId: number): Promise<Identity | undefined> {
  const account = (await db.selectFrom(auth.accountTable).selectAll().where('id', '=', accountId).executeTakeFirst()) as Row | undefined;
  if (!account || !auth.isEnabled(account)) return undefined;
  const groupIds = await auth.groupIdsOf(db, account);
  const groups = groupIds.length
    ? ((await db.selectFrom(auth.groupTable).select(['id', 'rules']).where('id', 'in', groupIds).where('status', '=', '1').execute()) as { id: number; rules: string | null }[])
    : [];
  const isSuper = groups.some((group) => String(group.rules ?? '').split(',').includes('*'));
  const ids = [...new Set(groups.flatMap((group) => parseRuleIds(group.rules)))];
  // A super account passes every check without its rules being listed.
  const rules = isSuper || ids.length === 0
    ? []
    : ((await db.selectFrom(auth.ruleTable).select(['id', 'name']).where('status', '=', '1').where('id', 'in', ids).execute()) as { id: number; name: string }[]);
  return {
    area: auth.area,
    id: accountId,
    username: String(account.username),
    account,
    groupIds,
    isSuper,
    ruleIds: new Set(rules.map((rule) => Number(rule.id))),
    ruleNames: new Set(rules.map((rule) => rule.name.toLowerCase())),
  };
}

/** Permission node check: `auth/admin/edit`, case-insensitive; super accounts pass everything. */
export function allows(identity: Identity, node: string): boolean {
  return identity.isSuper || identity.ruleNames.has(node.toLowerCase());
}
