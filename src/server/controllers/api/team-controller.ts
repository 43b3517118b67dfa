import type { Action, Controller, RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { sameText } from '../../../schema/local-text.js';
import { TEAM_PERIODS, type TeamPeriod } from '../../../contract/member-api.js';
import {
  acceptInvitation, addTeamMember, changeInvite, createTeam, invitation, leaveTeam, ledTeam, setTeamMemberPassword, teamMembers, teamState,
} from '../../services/teams.js';
import { paging } from '../paging.js';

/** `/api/team.team/*`: a member's team, its invitation, and the leader's calls on their own team (docs/survey-domain.md#teams). */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}

function post(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  return member(ctx);
}

function periodOf(value: unknown): TeamPeriod {
  if (value === undefined || value === '') return 0;
  const days = TEAM_PERIODS.find((candidate) => String(candidate) === String(value));
  if (days === undefined) throw errors.invalidChoice('days', TEAM_PERIODS.join(', '));
  return days;
}

const getTeamList: Action = async (ctx) => {
  const team = await ledTeam(ctx.app, member(ctx));
  const keyword = typeof ctx.query.keyword === 'string' ? ctx.query.keyword.slice(0, 50) : typeof ctx.query.quickSearch === 'string' ? ctx.query.quickSearch.slice(0, 50) : '';
  const days = periodOf(ctx.query.days);
  const { list, total, commission } = await teamMembers(ctx.app, team, { ...paging(ctx.query), keyword, days });
  return {
    team: {
      id: Number(team.id), name: team.name, commission_rate_bp: Number(team.commission_rate_bp ?? 0), days, commission,
      invite_code: team.invite_code ?? null, invite_expire_time: team.invite_expire_time == null ? null : Number(team.invite_expire_time),
    },
    list,
    total,
  };
};

const addTeamUser: Action = async (ctx) => {
  const team = await ledTeam(ctx.app, post(ctx));
  const id = await addTeamMember(ctx.app, team, ctx.body, ctx.ip);
  return new Success({ id }, 'Added successfully!');
};

const teamchangePassword: Action = async (ctx) => {
  const team = await ledTeam(ctx.app, post(ctx));
  await setTeamMemberPassword(ctx.app, team, ctx.body);
  return new Success(null, 'Update successful!');
};

/** `GET mine`: the member's team (or none, and whether they may create one). */
const mine: Action = async (ctx) => teamState(ctx.app, member(ctx));

/** `POST create {name}` */
const create: Action = async (ctx) => {
  const id = await createTeam(ctx.app, post(ctx), ctx.body);
  return new Success({ id }, 'Team created');
};

/** `POST invite {action: renew | revoke}`: the leader's invitation code. */
const invite: Action = async (ctx) => {
  const team = await ledTeam(ctx.app, post(ctx));
  const answer = await changeInvite(ctx.app, team, ctx.body.action);
  return new Success(answer, answer.invite_code ? 'A new invitation code is ready: the previous one no longer works' : 'The invitation code is revoked: nobody can join with it');
};

/** `GET invitation?code`: the team a code invites to; nothing changes until `accept`. */
const invitationAction: Action = async (ctx) => invitation(ctx.app, member(ctx), ctx.query.code);

/** `POST accept {code}` */
const accept: Action = async (ctx) => {
  const name = await acceptInvitation(ctx.app, post(ctx), ctx.body.code);
  return new Success(null, 'You joined the team %s', [sameText(name)]);
};

/** `POST leave` */
const leave: Action = async (ctx) => {
  const name = await leaveTeam(ctx.app, post(ctx));
  return new Success(null, 'You left the team %s', [sameText(name)]);
};

export const teamController: Controller = {
  name: 'team.team',
  path: 'team/team',
  area: 'user',
  actions: { getTeamList, AddTeamUser: addTeamUser, teamchangePassword, mine, create, invite, invitation: invitationAction, accept, leave },
  noNeedLogin: [],
  // The leader check is the permission: it is the team's, not a node of the member rules. Every other call
  // acts on the member's own membership only.
  noNeedPermission: ['*'],
};
