import { errors, Success } from '../../errors.js';
import { addTeamMember, ledTeam, setTeamMemberPassword, teamMembers } from '../../services/teams.js';
import type { Action, Controller, RequestContext } from '../../http/controller.js';
import { paging } from '../paging.js';

/** `/api/team.team/*`: the leader's calls on their own team (docs/survey-domain.md#teams). */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}

const getTeamList: Action = async (ctx) => {
  const team = await ledTeam(ctx.app, member(ctx));
  const keyword = typeof ctx.query.keyword === 'string' ? ctx.query.keyword.slice(0, 50) : typeof ctx.query.quickSearch === 'string' ? ctx.query.quickSearch.slice(0, 50) : '';
  const { list, total } = await teamMembers(ctx.app, team, { ...paging(ctx.query), keyword });
  return { team: { id: Number(team.id), name: team.name }, list, total };
};

const addTeamUser: Action = async (ctx) => {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const team = await ledTeam(ctx.app, member(ctx));
  const id = await addTeamMember(ctx.app, team, ctx.body, ctx.ip);
  return new Success({ id }, 'Added successfully!');
};

const teamchangePassword: Action = async (ctx) => {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const team = await ledTeam(ctx.app, member(ctx));
  await setTeamMemberPassword(ctx.app, team, ctx.body);
  return new Success(null, 'Update successful!');
};

export const teamController: Controller = {
  name: 'team.team',
  path: 'team/team',
  area: 'user',
  actions: { getTeamList, AddTeamUser: addTeamUser, teamchangePassword },
  noNeedLogin: [],
  // The leader check is the permission: it is the team's, not a node of the member rules.
  noNeedPermission: ['*'],
};
