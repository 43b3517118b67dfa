import { sql } from 'kysely';
import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import type { Identity } from '../auth/identity.js';
import { hashPassword } from '../auth/passwords.js';
import { setAccountPassword } from '../auth/sessions.js';
import { nowSeconds } from '../clock.js';
import { PASSWORD_PATTERN } from '../../contract/credentials.js';
import { memberFieldIssue } from './member-accounts.js';
import { resourceByTable } from '../app-context.js';
import { completeRow } from '../db/seed.js';
import { centsToYuan, rowFromStorage } from '../db/values.js';
import { errors } from '../errors.js';

/**
 * What a team's leader does in the member centre (docs/survey-domain.md#teams): see the members with their
 * completes and earnings, add a member account to the team, set a member's password. Only the leader
 * of an enabled team may, and only on that team.
 */

export async function ledTeam(app: AppContext, member: Identity): Promise<Row> {
  const team = (await app.db.selectFrom('team').selectAll().where('leader_id', '=', member.id).where('status', '=', 'enable').executeTakeFirst()) as Row | undefined;
  if (!team) throw errors.teamNotLed();
  return team;
}

interface TeamListQuery {
  page: number;
  limit: number;
  keyword: string;
}

/** The team's members, paged and searchable by username or nickname, with completes and net survey earnings. */
export async function teamMembers(app: AppContext, team: Row, query: TeamListQuery): Promise<{ list: Row[]; total: number }> {
  let base = app.db.selectFrom('user as u').where('u.teamid', '=', team.id as number);
  if (query.keyword) {
    const pattern = `%${query.keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    base = base.where((eb) => eb.or([eb('u.username', 'like', pattern), eb('u.nickname', 'like', pattern)]));
  }
  const total = (await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as { total: number | string };
  const rows = (await base
    .select(['u.id', 'u.username', 'u.nickname', 'u.avatar', 'u.money', 'u.join_time', 'u.last_login_time'])
    .select((eb) => [
      eb.selectFrom('survey_participation as p').select(sql<number>`COUNT(*)`.as('n')).whereRef('p.user_id', '=', 'u.id').where('p.status', '=', 'complete').as('completes'),
      eb.selectFrom('survey_participation as p').select(sql<number>`COALESCE(SUM(p.credited_money), 0)`.as('m')).whereRef('p.user_id', '=', 'u.id').as('earnings'),
    ])
    .orderBy('u.id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute()) as Row[];
  const definition = resourceByTable(app, 'user');
  return {
    list: rows.map((row) => ({
      id: Number(row.id), username: row.username, nickname: row.nickname, avatar: row.avatar, money: rowFromStorage(definition, { money: row.money }).money,
      // Earnings are a sum of credited cents, answered in yuan like every money figure.
      completes: Number(row.completes ?? 0), earnings: centsToYuan(row.earnings ?? 0), join_time: Number(row.join_time ?? 0), last_login_time: Number(row.last_login_time ?? 0),
    })),
    total: Number(total.total),
  };
}

function checkCredentials(app: AppContext, username: unknown, password: unknown): { username: string; password: string } {
  if (typeof username !== 'string' || memberFieldIssue(app, { username })) throw errors.teamFieldInvalid('username', 'Please input correct username');
  if (typeof password !== 'string' || !PASSWORD_PATTERN.test(password)) throw errors.teamFieldInvalid('password', 'Please input correct password');
  return { username, password };
}

/** A new member account inside the leader's team. */
export async function addTeamMember(app: AppContext, team: Row, input: Row, ip: string): Promise<number> {
  const { username, password } = checkCredentials(app, input.username, input.password);
  const nickname = typeof input.nickname === 'string' && input.nickname.trim() !== '' ? input.nickname.trim().slice(0, 50) : username;
  if (await app.db.selectFrom('user').select('id').where('username', '=', username).executeTakeFirst()) throw errors.alreadyExists('Username', 'username');
  const now = nowSeconds();
  const inserted = await app.db
    .insertInto('user')
    .values(
      completeRow(resourceByTable(app, 'user'), {
        group_id: 1, teamid: team.id, username, nickname, password: await hashPassword(password), salt: '', status: 'enable',
        join_ip: ip.slice(0, 50), join_time: now, login_failure: 0,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** A new password for a member of the leader's team; their sessions end. */
export async function setTeamMemberPassword(app: AppContext, team: Row, input: Row): Promise<void> {
  const id = /^\d{1,15}$/.test(String(input.id ?? input.user_id ?? '')) ? Number(input.id ?? input.user_id) : 0;
  const target = id ? ((await app.db.selectFrom('user').select(['id', 'teamid']).where('id', '=', id).executeTakeFirst()) as Row | undefined) : undefined;
  if (!target || Number(target.teamid) !== Number(team.id)) throw errors.teamMemberNotYours();
  const password = input.password ?? input.newPassword;
  if (typeof password !== 'string' || !PASSWORD_PATTERN.test(password)) throw errors.teamFieldInvalid('password', 'Please input correct password');
  await setAccountPassword(app, 'user', id, password);
}
