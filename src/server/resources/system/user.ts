import type { ResourceHooks } from '../../app-context.js';
import { DEFAULT_AVATAR } from '../../../contract/headers.js';
import type { Row } from '../../../schema/definition.js';
import { hashGivenPassword } from '../../auth/passwords.js';
import { endSessions } from '../../auth/sessions.js';
import { nowSeconds } from '../../clock.js';

/** Members (docs/wire-contract.md#members): hashed passwords, default avatar, select labels. Balance changes go through the ledger. */

export function presentMemberFields(row: Row): Row {
  return { ...row, avatar: row.avatar || DEFAULT_AVATAR };
}

export const userHooks: ResourceHooks = {
  // The member's group arrives named as member groups present themselves (a seeded name in the reader's language).
  async present(_operator, rows, view) {
    return rows.map((row) => {
      const shaped = presentMemberFields(row);
      if (view === 'edit') shaped.password = '';
      if (view === 'select') shaped.nickname_text = `${String(row.username)}(ID:${String(row.id)})`;
      return shaped;
    });
  },

  prepareInput: hashGivenPassword,

  async beforeWrite(_operator, write) {
    const { values } = write;
    if (write.mode === 'add' && values.nickname === undefined) values.nickname = values.username;
    // An account the back office adds joins now, as one signing up does; joining a team starts its team time.
    const now = nowSeconds();
    if (write.mode === 'add') {
      values.join_time = now;
      values.team_join_time = values.teamid == null ? null : now;
      return;
    }
    if (!('teamid' in values)) return;
    const team = values.teamid == null ? null : Number(values.teamid);
    const was = write.existing?.teamid == null ? null : Number(write.existing.teamid);
    if (team !== was) values.team_join_time = team === null ? null : now;
  },

  async afterWrite(operator, write) {
    // a new password (hashed by beforeWrite) logs out whoever used the old one
    if (write.mode === 'edit' && typeof write.values.password === 'string') await endSessions(operator.app, 'user', Number(write.id), { db: write.trx });
  },

  async afterDelete(operator, remove) {
    // a deleted member keeps no session: a row put back from the recycle bin must log in afresh
    for (const row of remove.rows) await endSessions(operator.app, 'user', Number(row.id), { db: remove.trx });
  },
};
