import type { Operator, ResourceHooks } from '../../app-context.js';
import { DEFAULT_AVATAR } from '../../../contract/headers.js';
import type { Row } from '../../../schema/definition.js';
import { manageableGroupIds } from '../../auth/group-scope.js';
import { hashGivenPassword } from '../../auth/passwords.js';
import { endSessions } from '../../auth/sessions.js';
import type { Db } from '../../db/connection.js';
import { errors } from '../../errors.js';
import { formatLocalDateTime } from '../../../contract/site-time.js';
import { seededNameIn } from '../../seeded-names.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';

/** Administrators (docs/wire-contract.md#administrators): groups through `admin_group_access`, hashed passwords, self-protection. */

/** Admin rows on the wire: default avatar, `last_login_time` as a formatted string. */
export function presentAdminFields(row: Row, zone: string): Row {
  return { ...row, avatar: row.avatar || DEFAULT_AVATAR, last_login_time: formatLocalDateTime(row.last_login_time, zone) };
}

async function groupsOf(db: Db, adminIds: number[]): Promise<Map<number, { ids: number[]; names: string[] }>> {
  const result = new Map<number, { ids: number[]; names: string[] }>();
  if (adminIds.length === 0) return result;
  const rows = (await db
    .selectFrom('admin_group_access')
    .innerJoin('admin_group', 'admin_group.id', 'admin_group_access.group_id')
    .select(['admin_group_access.uid as uid', 'admin_group.id as id', 'admin_group.name as name'])
    .where('admin_group_access.uid', 'in', adminIds)
    .orderBy('admin_group.id')
    .execute());
  for (const row of rows) {
    const entry = result.get(Number(row.uid)) ?? { ids: [], names: [] };
    entry.ids.push(Number(row.id));
    entry.names.push(row.name);
    result.set(Number(row.uid), entry);
  }
  return result;
}

async function checkGroupsManageable(operator: Operator, groupIds: number[], previous: number[] = []): Promise<void> {
  const identity = operator.identity;
  if (!identity || identity.isSuper) return;
  const manageable = new Set(await manageableGroupIds(operator.app.db, identity, true));
  const added = groupIds.filter((id) => !previous.includes(id));
  if (added.some((id) => !manageable.has(id))) throw errors.groupNotManageable();
}

export const adminHooks: ResourceHooks = {
  async present(operator, rows, view) {
    const zone = await operator.app.config.timeZone();
    const groups = await groupsOf(operator.app.db, rows.map((row) => Number(row.id)));
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    return rows.map((row) => {
      const entry = groups.get(Number(row.id));
      const names = (entry?.names ?? []).map((name, index) => seededNameIn(operator.app, lang, 'admin_group', { id: entry?.ids[index], name }));
      const shaped: Row = { ...presentAdminFields(row, zone), group_arr: entry?.ids ?? [], group_name_arr: names };
      if (view === 'edit') shaped.password = '';
      return shaped;
    });
  },

  prepareInput: hashGivenPassword,

  async beforeWrite(operator, write) {
    const { values, existing, trx } = write;
    const groupIds = Array.isArray(values.group_arr) ? [...new Set((values.group_arr as unknown[]).map(Number))] : undefined;
    if (groupIds) {
      const found = await trx.selectFrom('admin_group').select('id').where('id', 'in', groupIds.length ? groupIds : [0]).execute();
      if (found.length !== groupIds.length) throw errors.groupNotManageable();
      const previous = existing ? (await groupsOf(trx, [Number(existing.id)])).get(Number(existing.id))?.ids ?? [] : [];
      await checkGroupsManageable(operator, groupIds, previous);
    }
    if (existing && operator.identity?.id === Number(existing.id) && values.status === '0') throw errors.cannotDisableSelf();
  },

  async afterWrite(operator, write) {
    // a new password (hashed by beforeWrite) logs out whoever used the old one
    if (write.mode === 'edit' && typeof write.values.password === 'string') await endSessions(operator.app, 'admin', Number(write.id), { db: write.trx });
    const groupIds = write.values.group_arr;
    if (!Array.isArray(groupIds)) return;
    await write.trx.deleteFrom('admin_group_access').where('uid', '=', Number(write.id)).execute();
    for (const groupId of new Set(groupIds.map(Number))) {
      await write.trx.insertInto('admin_group_access').values({ uid: Number(write.id), group_id: groupId }).execute();
    }
  },

  async beforeDelete(operator, remove) {
    return remove.rows.filter((row) => Number(row.id) !== operator.identity?.id);
  },

  async afterDelete(operator, remove) {
    const ids = remove.rows.map((row) => Number(row.id));
    await remove.trx.deleteFrom('admin_group_access').where('uid', 'in', ids).execute();
    // a deleted admin keeps no session: a row put back from the recycle bin must log in afresh
    for (const id of ids) await endSessions(operator.app, 'admin', id, { db: remove.trx });
  },
};
