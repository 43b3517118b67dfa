import type { TeamInvitation, TeamInvite, TeamOverview, TeamPeriod, TeamState } from '../../../../contract/member-api.js';
import { httpClient, type HttpClient } from '../../../http/index.js';

/** The team page's calls (`/api/team.team/*`, docs/survey-domain.md#teams); the server checks who may make each. */

export type { TeamInvitation, TeamInvite, TeamMemberRow, TeamOverview, TeamPeriod, TeamState } from '../../../../contract/member-api.js';

export interface TeamApi {
  mine(): Promise<TeamState>;
  members(page: number, limit: number, keyword: string, days: TeamPeriod): Promise<TeamOverview>;
  add(input: { username: string; nickname: string; password: string }): Promise<string>;
  setPassword(id: number, password: string): Promise<string>;
  create(name: string): Promise<string>;
  /** a new code (the old one stops working) or none */
  invite(action: 'renew' | 'revoke'): Promise<{ message: string; invite: TeamInvite }>;
  invitation(code: string): Promise<TeamInvitation>;
  accept(code: string): Promise<string>;
  leave(): Promise<string>;
}

function createTeamApi(client: HttpClient = httpClient): TeamApi {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  const post = async <T = unknown>(action: string, data: object = {}) => client.request<T>(`/api/team.team/${action}`, { ...quiet, method: 'POST', data });
  return {
    async mine() {
      return (await client.request<TeamState>('/api/team.team/mine', quiet)).data;
    },
    async members(page, limit, keyword, days) {
      return (await client.request<TeamOverview>('/api/team.team/getTeamList', { ...quiet, params: { page, limit, keyword, days } })).data;
    },
    async add(input) {
      return (await post('AddTeamUser', input)).msg;
    },
    async setPassword(id, password) {
      return (await post('teamchangePassword', { id, password })).msg;
    },
    async create(name) {
      return (await post('create', { name })).msg;
    },
    async invite(action) {
      const answer = await post<TeamInvite>('invite', { action });
      return { message: answer.msg, invite: answer.data };
    },
    async invitation(code) {
      return (await client.request<TeamInvitation>('/api/team.team/invitation', { ...quiet, params: { code } })).data;
    },
    async accept(code) {
      return (await post('accept', { code })).msg;
    },
    async leave() {
      return (await post('leave')).msg;
    },
  };
}

export const teamApi: TeamApi = createTeamApi();

/** The address a leader shares: the team page, which opens the invitation for the member to accept. */
export function invitationLink(code: string, origin = window.location.origin): string {
  return `${origin}/user/team/members?invite=${encodeURIComponent(code)}`;
}
