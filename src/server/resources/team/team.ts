import { sameText } from '../../../schema/local-text.js';
import { nowSeconds } from '../../clock.js';
import { errors } from '../../errors.js';
import type { ResourceHooks } from '../../app-context.js';

/**
 * `team.Team` in the back office: the leader an operator names is a member of the team they lead
 * (docs/survey-domain.md#teams). A member of another team, or the leader of another, is refused on the
 * leader field; a member of no team joins this one with the save.
 */
export const teamHooks: ResourceHooks = {
  async beforeWrite(_operator, write) {
    if (!('leader_id' in write.values) || write.values.leader_id == null) return;
    const leaderId = Number(write.values.leader_id);
    const ownId = write.id === undefined ? undefined : Number(write.id);
    const leader = await write.trx.selectFrom('user').select(['id', 'teamid']).where('id', '=', leaderId).executeTakeFirst();
    if (!leader) return;
    const elsewhereId = leader.teamid != null && Number(leader.teamid) !== ownId ? Number(leader.teamid) : undefined;
    let query = write.trx.selectFrom('team').select(['id', 'name']);
    query = elsewhereId !== undefined ? query.where((eb) => eb.or([eb('id', '=', elsewhereId), eb('leader_id', '=', leaderId)])) : query.where('leader_id', '=', leaderId);
    if (ownId !== undefined) query = query.where('id', '<>', ownId);
    const other = await query.executeTakeFirst();
    if (other) throw errors.teamLeaderElsewhere(sameText(String(other.name)));
  },
  async afterWrite(_operator, write) {
    if (!('leader_id' in write.values) || write.values.leader_id == null || write.id === undefined) return;
    const now = nowSeconds();
    const leaderId = Number(write.values.leader_id);
    // A leader already in this team keeps the time they joined it; one who joins with the save joins now.
    await write.trx.updateTable('user').set({ team_join_time: now }).where('id', '=', leaderId).where((eb) => eb.or([eb('teamid', 'is', null), eb('teamid', '<>', Number(write.id))])).execute();
    await write.trx.updateTable('user').set({ teamid: Number(write.id), update_time: now }).where('id', '=', leaderId).execute();
  },
};
