import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
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
import { sameText, type MessageParam } from '../../schema/local-text.js';
import type { Db } from '../db/connection.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { inputValidatorOf } from '../../schema/validate-input.js';
import { periodOf } from './survey/figures.js';
import type { TeamInvitation, TeamInvite, TeamMemberRow, TeamPeriod, TeamState } from '../../contract/member-api.js';

/**
 * Teams in the member centre (docs/survey-domain.md#teams). A member in no team creates one (while the
 * operator's `team_member_create` allows it) or joins one by its leader's invitation code, which they see
 * and accept themselves; a member leaves their team before joining another, and a leader cannot leave
 * theirs. The leader of an enabled team sees its members with their activity, earnings and the commission
 * on them, adds member accounts, sets their passwords and makes or revokes the invitation code: only on
 * that team. A leader is always a member of their team.
 */

/** Members may create teams (config, group Basics); on by default. */
const MEMBER_CREATE_SETTING = 'team_member_create';
/** How long an invitation code works after the leader made it. */
const INVITE_DAYS = 7;
/** Codes read aloud or typed from a phone: no 0/O, 1/I/L. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

export async function ledTeam(app: AppContext, member: Identity): Promise<Row> {
  const team = await app.db.selectFrom('team').selectAll().where('leader_id', '=', member.id).where('status', '=', 'enable').executeTakeFirst();
  if (!team) throw errors.teamNotLed();
  return team;
}

interface TeamListQuery {
  page: number;
  limit: number;
  keyword: string;
  days: TeamPeriod;
}

/** The team's `days` (0: everything) as the first second it counts, in the site's calendar. */
async function periodStart(app: AppContext, days: TeamPeriod): Promise<number> {
  return days === 0 ? 0 : periodOf(days, await app.config.timeZone()).since;
}

/** The commission in cents on `cents` at `basisPoints` (100 = 1 %), rounded down to the cent. */
function commissionCents(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints) / 10_000);
}

/**
 * The team's members (the leader among them), paged and searchable by username or nickname, with their
 * completes, survey earnings and the leader's commission on them in the period, and when they were last active.
 */
export async function teamMembers(app: AppContext, team: Row, query: TeamListQuery): Promise<{ list: TeamMemberRow[]; total: number; commission: string }> {
  const teamId = Number(team.id);
  const leaderId = team.leader_id == null ? 0 : Number(team.leader_id);
  const rate = Number(team.commission_rate_bp ?? 0);
  const since = await periodStart(app, query.days);
  // A leader an operator named before leaders joined their team is listed as one of it all the same.
  const inTeam = app.db.selectFrom('user as u').where((eb) => eb.or([eb('u.teamid', '=', teamId), eb('u.id', '=', leaderId)]));
  let base = inTeam;
  if (query.keyword) {
    const pattern = `%${query.keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    base = base.where((eb) => eb.or([eb('u.username', 'like', pattern), eb('u.nickname', 'like', pattern)]));
  }
  const total = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['u.id', 'u.username', 'u.nickname', 'u.avatar', 'u.money', 'u.team_join_time', 'u.last_login_time'])
    .select((eb) => [
      eb.selectFrom('survey_participation as p').select(sql<number>`COUNT(*)`.as('n')).whereRef('p.user_id', '=', 'u.id').where('p.status', '=', 'complete').where((inner) => (since === 0 ? inner.lit(true) : inner('p.finish_time', '>=', since))).as('completes'),
      eb.selectFrom('survey_participation as p').select(sql<number>`COALESCE(SUM(p.credited_money), 0)`.as('m')).whereRef('p.user_id', '=', 'u.id').where((inner) => (since === 0 ? inner.lit(true) : inner('p.finish_time', '>=', since))).as('earnings'),
      eb.selectFrom('survey_participation as p').select(sql<number>`MAX(p.enter_time)`.as('t')).whereRef('p.user_id', '=', 'u.id').as('last_entered'),
    ])
    .orderBy(sql`CASE WHEN u.id = ${leaderId} THEN 0 ELSE 1 END`)
    .orderBy('u.id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  // The team's commission counts every member's earnings, not only this page's.
  const sum = await inTeam
    .innerJoin('survey_participation as p', 'p.user_id', 'u.id')
    .where('u.id', '<>', leaderId)
    .where((eb) => (since === 0 ? eb.lit(true) : eb('p.finish_time', '>=', since)))
    .select(['u.id', sql<number>`COALESCE(SUM(p.credited_money), 0)`.as('m')])
    .groupBy('u.id')
    .execute();
  const definition = resourceByTable(app, 'user');
  return {
    list: rows.map((row) => {
      const id = Number(row.id);
      const earned = Number(row.earnings ?? 0);
      const isLeader = id === leaderId;
      return {
        id, username: String(row.username), nickname: String(row.nickname ?? ''), avatar: String(row.avatar ?? ''), money: String(rowFromStorage(definition, { money: row.money }).money),
        // Earnings are a sum of credited cents, answered in yuan like every money figure.
        completes: Number(row.completes ?? 0), earnings: centsToYuan(earned), commission: centsToYuan(isLeader ? 0 : commissionCents(earned, rate)), is_leader: isLeader,
        // Joined means joined this team, not signed up: a member from before the time was kept shows none.
        join_time: Number(row.team_join_time ?? 0), last_login_time: Number(row.last_login_time ?? 0),
        last_active_time: Math.max(Number(row.last_login_time ?? 0), Number(row.last_entered ?? 0)),
      };
    }),
    total: Number(total.total),
    commission: centsToYuan(sum.reduce((cents, row) => cents + commissionCents(Number(row.m), rate), 0)),
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
        join_ip: ip.slice(0, 50), join_time: now, team_join_time: now, login_failure: 0,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** A new password for a member of the leader's team; their sessions end. */
export async function setTeamMemberPassword(app: AppContext, team: Row, input: Row): Promise<void> {
  const id = /^\d{1,15}$/.test(String(input.id ?? input.user_id ?? '')) ? Number(input.id ?? input.user_id) : 0;
  const target = id ? (await app.db.selectFrom('user').select(['id', 'teamid']).where('id', '=', id).executeTakeFirst()) : undefined;
  if (!target || Number(target.teamid) !== Number(team.id)) throw errors.teamMemberNotYours();
  const password = input.password ?? input.newPassword;
  if (typeof password !== 'string' || !PASSWORD_PATTERN.test(password)) throw errors.teamFieldInvalid('password', 'Please input correct password');
  await setAccountPassword(app, 'user', id, password);
}

function newInviteCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  // 31 letters: the rejection of bytes past the last whole multiple keeps every letter equally likely.
  let code = '';
  for (let index = 0; code.length < CODE_LENGTH; index++) {
    const byte = index < bytes.length ? bytes[index] : randomBytes(1)[0];
    if (byte < 248) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  }
  return code;
}

/** What a member typed or a link carried, as a code: spaces and dashes dropped, upper case; '' when it cannot be one. */
function normalisedCode(input: unknown): string {
  if (typeof input !== 'string') return '';
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return CODE_PATTERN.test(code) ? code : '';
}

async function leaderName(db: Db, leaderId: unknown): Promise<string | null> {
  if (leaderId == null) return null;
  const leader = await db.selectFrom('user').select(['username', 'nickname']).where('id', '=', Number(leaderId)).executeTakeFirst();
  if (!leader) return null;
  return String(leader.nickname ?? '') || String(leader.username);
}

async function memberCount(db: Db, team: Row): Promise<number> {
  const leaderId = team.leader_id == null ? 0 : Number(team.leader_id);
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll().as('n'))
    .where((eb) => eb.or([eb('teamid', '=', Number(team.id)), eb('id', '=', leaderId)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The team the member belongs to (or leads), enabled or not. */
async function teamOf(db: Db, userId: number): Promise<Row | undefined> {
  const account = await db.selectFrom('user').select('teamid').where('id', '=', userId).executeTakeFirst();
  const byMembership = account?.teamid != null ? await db.selectFrom('team').selectAll().where('id', '=', Number(account.teamid)).executeTakeFirst() : undefined;
  return byMembership ?? (await db.selectFrom('team').selectAll().where('leader_id', '=', userId).executeTakeFirst());
}

/** Where the member stands: their team (and whether they lead it), or whether they may create one. */
export async function teamState(app: AppContext, member: Identity): Promise<TeamState> {
  const team = await teamOf(app.db, member.id);
  if (!team) return { can_create: await app.config.flag(MEMBER_CREATE_SETTING, true), team: null };
  return {
    can_create: false,
    team: {
      id: Number(team.id), name: String(team.name), leader: await leaderName(app.db, team.leader_id), members: await memberCount(app.db, team),
      is_leader: Number(team.leader_id) === member.id && team.status === 'enable',
    },
  };
}

/** The member row, locked on PostgreSQL for the rest of the transaction: a join, a leave and a create queue. */
async function lockedMember(app: AppContext, trx: Db, userId: number): Promise<Row> {
  let query = trx.selectFrom('user').select(['id', 'teamid']).where('id', '=', userId);
  if (app.handle.dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw errors.needLogin();
  return row;
}

async function refuseIfInTeam(trx: Db, userId: number, account: Row): Promise<void> {
  const current = await teamOf(trx, userId);
  if (current) throw errors.teamAlreadyMember(sameText(String(current.name)));
  if (account.teamid != null) throw errors.teamAlreadyMember(sameText(`#${account.teamid}`));
}

/** A new invitation code and its expiry, written on the team. */
async function writeInvite(trx: Db, teamId: number): Promise<TeamInvite> {
  for (let attempt = 0; ; attempt++) {
    const invite = { invite_code: newInviteCode(), invite_expire_time: nowSeconds() + INVITE_DAYS * 86_400 };
    try {
      await trx.updateTable('team').set({ ...invite, update_time: nowSeconds() }).where('id', '=', teamId).execute();
      return invite;
    } catch (error) {
      // Another team holds the same code (one chance in billions): draw again.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

function nameTitle(definition: ResourceDefinition): MessageParam {
  return definition.fields.find((field) => field.name === 'name')?.title ?? 'Team name';
}

/** `create {name}`: the member creates a team, leads it and is its first member; its invitation code is ready. */
export async function createTeam(app: AppContext, member: Identity, input: Row): Promise<number> {
  if (!(await app.config.flag(MEMBER_CREATE_SETTING, true))) throw errors.teamCreateClosed();
  const definition = resourceByTable(app, 'team');
  // The name follows the team schema's rules, as in the back office.
  const checked = inputValidatorOf(definition)({ name: typeof input.name === 'string' ? input.name.trim() : input.name }, 'edit');
  if (!checked.ok) throw errors.validation(checked.issues[0]);
  const name = String(checked.value.name ?? '');
  if (name === '') throw errors.fieldEmpty(nameTitle(definition), 'name');
  try {
    return await app.db.transaction().execute(async (trx) => {
      const account = await lockedMember(app, trx, member.id);
      await refuseIfInTeam(trx, member.id, account);
      if (await trx.selectFrom('team').select('id').where('name', '=', name).executeTakeFirst()) throw errors.alreadyExists(nameTitle(definition), 'name');
      const now = nowSeconds();
      const inserted = await trx
        .insertInto('team')
        .values(completeRow(definition, { name, leader_id: member.id, commission_rate_bp: 0, status: 'enable', create_time: now, update_time: now }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(inserted.id);
      await trx.updateTable('user').set({ teamid: id, team_join_time: now, update_time: now }).where('id', '=', member.id).execute();
      await writeInvite(trx, id);
      return id;
    });
  } catch (error) {
    // A second team of the same name made between the check and the insert.
    if (isUniqueViolation(error)) throw errors.alreadyExists(nameTitle(definition), 'name');
    throw error;
  }
}

/** `invite {action}`: the leader makes a new code (the old one stops working) or revokes it. */
export async function changeInvite(app: AppContext, team: Row, action: unknown): Promise<TeamInvite> {
  if (action === 'revoke') {
    await app.db.updateTable('team').set({ invite_code: null, invite_expire_time: null, update_time: nowSeconds() }).where('id', '=', Number(team.id)).execute();
    return { invite_code: null, invite_expire_time: null };
  }
  if (action !== 'renew') throw errors.invalidChoice('action', 'renew, revoke');
  return app.db.transaction().execute((trx) => writeInvite(trx, Number(team.id)));
}

/** The enabled team a code invites to now, or the refusal a person can act on; nothing is written. */
async function invitedTeam(db: Db, input: unknown): Promise<Row> {
  const code = normalisedCode(input);
  if (code === '') throw errors.teamInviteInvalid();
  const team = await db.selectFrom('team').selectAll().where('invite_code', '=', code).executeTakeFirst();
  if (!team || team.status !== 'enable') throw errors.teamInviteInvalid();
  if (Number(team.invite_expire_time ?? 0) <= nowSeconds()) throw errors.teamInviteExpired();
  return team;
}

/** `invitation?code`: which team and leader the code invites to, and the member's own team if they are in one. */
export async function invitation(app: AppContext, member: Identity, code: unknown): Promise<TeamInvitation> {
  const team = await invitedTeam(app.db, code);
  const current = await teamOf(app.db, member.id);
  return {
    code: String(team.invite_code),
    team: { name: String(team.name), leader: await leaderName(app.db, team.leader_id), members: await memberCount(app.db, team) },
    current_team: current ? String(current.name) : null,
  };
}

/** `accept {code}`: the member joins the team the code invites to; a member in a team is refused (they leave first). */
export async function acceptInvitation(app: AppContext, member: Identity, code: unknown): Promise<string> {
  return app.db.transaction().execute(async (trx) => {
    const account = await lockedMember(app, trx, member.id);
    const team = await invitedTeam(trx, code);
    await refuseIfInTeam(trx, member.id, account);
    const now = nowSeconds();
    await trx.updateTable('user').set({ teamid: Number(team.id), team_join_time: now, update_time: now }).where('id', '=', member.id).execute();
    return String(team.name);
  });
}

/** `leave`: a member leaves their team; its leader cannot (an operator names another leader or disables the team). */
export async function leaveTeam(app: AppContext, member: Identity): Promise<string> {
  return app.db.transaction().execute(async (trx) => {
    await lockedMember(app, trx, member.id);
    const team = await teamOf(trx, member.id);
    if (!team) throw errors.teamNone();
    if (Number(team.leader_id) === member.id) throw errors.teamLeaderCannotLeave();
    await trx.updateTable('user').set({ teamid: null, team_join_time: null, update_time: nowSeconds() }).where('id', '=', member.id).execute();
    return String(team.name);
  });
}
