import type { Db } from '../db/connection.js';
import type { DataLimitMode } from '../../schema/definition.js';
import { parseRuleIds, type Identity } from './identity.js';

async function adminGroups(db: Db) {
  return db.selectFrom('admin_group').select(['id', 'pid', 'rules', 'status']).execute();
}

/**
 * Groups whose permissions the admin fully holds (`allAuth`), or holds with extra rules to spare
 * (`allAuthAndOthers`): the groups they may assign and manage. Super admins manage every group.
 */
export async function manageableGroupIds(db: Db, identity: Identity, strict: boolean): Promise<number[]> {
  const groups = await adminGroups(db);
  if (identity.isSuper) return groups.map((group) => Number(group.id));
  const mine = identity.ruleIds;
  return groups
    .filter((group) => {
      if (String(group.status) !== '1') return false;
      if (String(group.rules ?? '').split(',').includes('*')) return false;
      const rules = parseRuleIds(group.rules).filter((id) => id > 0);
      if (!rules.every((id) => mine.has(id))) return false;
      return strict ? rules.length < mine.size : true;
    })
    .map((group) => Number(group.id));
}

/** Enabled descendants of the admin's groups. */
async function descendantGroupIds(db: Db, identity: Identity): Promise<number[]> {
  const groups = (await adminGroups(db)).filter((group) => String(group.status) === '1');
  const result = new Set<number>();
  let frontier = new Set(identity.groupIds);
  while (frontier.size) {
    const next = new Set<number>();
    for (const group of groups) {
      if (frontier.has(Number(group.pid)) && !result.has(Number(group.id))) {
        result.add(Number(group.id));
        next.add(Number(group.id));
      }
    }
    frontier = next;
  }
  return [...result];
}

async function adminsInGroups(db: Db, groupIds: number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('admin_group_access').select('uid').where('group_id', 'in', groupIds).execute();
  return rows.map((row) => Number(row.uid));
}

/**
 * Admin ids whose rows the identity may see under a data-limit mode (docs/wire-contract.md#data-limit), or undefined when
 * there is no limit (super admins, or membership of the numbered group).
 */
export async function dataLimitAdminIds(db: Db, identity: Identity, mode: DataLimitMode): Promise<number[] | undefined> {
  if (identity.isSuper) return undefined;
  let ids: number[];
  if (typeof mode === 'number') {
    if (identity.groupIds.includes(mode)) return undefined;
    ids = [];
  } else if (mode === 'parent') {
    ids = await adminsInGroups(db, await descendantGroupIds(db, identity));
  } else if (mode === 'allAuth' || mode === 'allAuthAndOthers') {
    ids = await adminsInGroups(db, await manageableGroupIds(db, identity, mode === 'allAuthAndOthers'));
  } else {
    ids = [];
  }
  return [...new Set([...ids, identity.id])];
}
