import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/** The team leader's calls (docs/survey-domain.md#teams) on both databases: only the leader, only on their own team. */

type Row = Record<string, unknown>;
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('teams on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function member(teamid?: number): Promise<{ id: number; token: string; username: string }> {
    const username = `tm${++counter}${kind.slice(0, 2)}`;
    expect((await admin('user.User/add', { body: { username, nickname: `Nick ${username}`, group_id: 1, password: PASSWORD, ...(teamid ? { teamid } : {}) } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    return { id: login.data.userInfo.id, token: login.data.userInfo.token, username };
  }

  async function team(leaderId: number): Promise<number> {
    const name = `Team ${++counter}`;
    expect((await admin('team.Team/add', { body: { name, leader_id: leaderId } })).code).toBe(1);
    return Number(((await db().selectFrom('team').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as Row).id);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lets the leader list, add and reset the password of the team’s members', async () => {
    const leader = await member();
    const teamId = await team(leader.id);
    await admin('user.User/edit', { body: { id: leader.id, teamid: teamId } });
    const mate = await member(teamId);

    const listed = await server.api<{ list: Row[]; total: number; team: Row }>('team.team/getTeamList', { userToken: leader.token });
    expect(listed.code).toBe(1);
    expect(listed.data.total).toBe(2);
    expect(listed.data.list.find((row) => row.id === mate.id)).toMatchObject({ username: mate.username, completes: 0, earnings: '0.00' });
    const searched = await server.api<{ list: Row[]; total: number }>('team.team/getTeamList', { userToken: leader.token, query: { keyword: mate.username } });
    expect(searched.data.list.map((row) => row.id)).toEqual([mate.id]);

    const added = await server.api('team.team/AddTeamUser', { userToken: leader.token, body: { username: `new${counter}`, password: 'Fresh_pass1' } });
    expect(added.code).toBe(1);
    expect(((await db().selectFrom('user').select('teamid').where('username', '=', `new${counter}`).executeTakeFirstOrThrow()) as Row).teamid).toBe(teamId);
    const login = await server.api('user/checkIn', { body: { tab: 'login', username: `new${counter}`, password: 'Fresh_pass1' } });
    expect(login.code).toBe(1);
    const badName = await server.api('team.team/AddTeamUser', { userToken: leader.token, body: { username: '1bad', password: 'Fresh_pass1' } });
    expect(badName.data).toEqual({ field: 'username' });

    expect((await server.api('team.team/teamchangePassword', { userToken: leader.token, body: { id: mate.id, password: 'Other_pass2' } })).code).toBe(1);
    expect((await server.api('account/balance', { userToken: mate.token })).code).toBe(303);
    expect((await server.api('user/checkIn', { body: { tab: 'login', username: mate.username, password: 'Other_pass2' } })).code).toBe(1);
  });

  it('tells everyone else the truth (they lead no team, the member is not in their team), and writes nothing', async () => {
    const leader = await member();
    const teamId = await team(leader.id);
    const mate = await member(teamId);
    const otherLeader = await member();
    await team(otherLeader.id);
    const plain = await member();
    const users = await db().selectFrom('user').select('id').execute();
    for (const who of [mate, plain]) {
      for (const [path, body] of [['team.team/getTeamList', undefined], ['team.team/AddTeamUser', { username: `x${counter}x`, password: 'Fresh_pass1' }], ['team.team/teamchangePassword', { id: mate.id, password: 'Other_pass2' }]] as const) {
        const answer = await server.api(path, { userToken: who.token, body, lang: 'en' });
        expect({ code: answer.code, msg: answer.msg, data: answer.data }, path).toEqual({
          code: 0, msg: 'You do not lead a team: only a team leader sees and manages its members', data: { type: 'no team' },
        });
      }
    }
    // Another team's leader may not touch this team's member.
    const foreign = await server.api('team.team/teamchangePassword', { userToken: otherLeader.token, body: { id: mate.id, password: 'Other_pass2' } });
    expect({ code: foreign.code, msg: foreign.msg, data: foreign.data }).toEqual({ code: 0, msg: 'This member is not in your team', data: { field: 'id' } });
    const zh = await server.api('team.team/getTeamList', { userToken: plain.token, lang: 'zh-cn' });
    expect(zh.msg).toBe('您不是团队队长：只有队长可以查看和管理团队成员');
    const zhForeign = await server.api('team.team/teamchangePassword', { userToken: otherLeader.token, body: { id: mate.id, password: 'Other_pass2' }, lang: 'zh-cn' });
    expect(zhForeign.msg).toBe('该会员不在您的团队中');
    expect(await db().selectFrom('user').select('id').execute()).toHaveLength(users.length);
    expect((await server.api('user/checkIn', { body: { tab: 'login', username: mate.username, password: PASSWORD } })).code).toBe(1);
  });
});
