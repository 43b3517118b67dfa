import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Teams (docs/survey-domain.md#teams) on both databases: the leader's calls, only on their own team; a member
 * creating a team, joining one by its invitation code and leaving it; the leader's figures and commission.
 */

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

  const SECRET = 'team-provider-secret';
  const ownTeam = async (userId: number) => ((await db().selectFrom('user').select('teamid').where('id', '=', userId).executeTakeFirstOrThrow()) as Row).teamid;
  const teamRow = async (id: number) => (await db().selectFrom('team').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
  const inviteOf = async (leader: { token: string }) => (await server.api<{ team: Row }>('team.team/getTeamList', { userToken: leader.token })).data.team.invite_code as string;

  /** A credited complete of a ¥`reward` survey by `taker`, through the survey start and the provider's signed return. */
  async function complete(taker: { token: string }, reward: string): Promise<void> {
    const code = `tp${++counter}`;
    expect((await admin('survey.Provider/add', { body: { code, name: `Provider ${code}`, secret: SECRET } })).code).toBe(1);
    const provider = (await db().selectFrom('survey_provider').select('id').where('code', '=', code).executeTakeFirstOrThrow()) as Row;
    const title = `Team survey ${counter}`;
    expect((await admin('survey.Survey/add', { body: { provider_id: provider.id, title, entry_url: 'https://panel.example/s?r={rid}', reward_money: reward, reward_score: 0, loi_minutes: 1, status: 'active' } })).code).toBe(1);
    const survey = (await db().selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow()) as Row;
    const started = await server.api<{ url: string }>('survey/start', { body: { id: survey.id }, userToken: taker.token });
    expect(started.code).toBe(1);
    const rid = new URL(started.data.url).searchParams.get('r') as string;
    await db().updateTable('survey_participation').set({ enter_time: Math.floor(Date.now() / 1000) - 3600 }).where('rid', '=', rid).execute();
    const unsigned = `rid=${rid}`;
    const query = `${unsigned}&sig=${createHmac('sha256', SECRET).update(`/success?${unsigned}`).digest('hex')}`;
    expect((await server.api('survey/outcome', { body: { outcome: 'success', query } })).code).toBe(1);
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
    expect(badName.data).toEqual({ field: 'username', errorId: 'teamFieldInvalid' });

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
          code: 0, msg: 'You do not lead a team: only a team leader sees and manages its members', data: { type: 'no team', errorId: 'teamNotLed' },
        });
      }
    }
    // Another team's leader may not touch this team's member.
    const foreign = await server.api('team.team/teamchangePassword', { userToken: otherLeader.token, body: { id: mate.id, password: 'Other_pass2' } });
    expect({ code: foreign.code, msg: foreign.msg, data: foreign.data }).toEqual({ code: 0, msg: 'This member is not in your team', data: { field: 'id', errorId: 'teamMemberNotYours' } });
    const zh = await server.api('team.team/getTeamList', { userToken: plain.token, lang: 'zh-cn' });
    expect(zh.msg).toBe('您不是团队队长：只有队长可以查看和管理团队成员');
    const zhForeign = await server.api('team.team/teamchangePassword', { userToken: otherLeader.token, body: { id: mate.id, password: 'Other_pass2' }, lang: 'zh-cn' });
    expect(zhForeign.msg).toBe('该会员不在您的团队中');
    expect(await db().selectFrom('user').select('id').execute()).toHaveLength(users.length);
    expect((await server.api('user/checkIn', { body: { tab: 'login', username: mate.username, password: PASSWORD } })).code).toBe(1);
  });

  it('lets a member create a team they lead and belong to, with an invitation code ready; the operator can close it', async () => {
    const founder = await member();
    expect((await server.api<Row>('team.team/mine', { userToken: founder.token })).data).toEqual({ can_create: true, team: null });
    const empty = await server.api('team.team/create', { userToken: founder.token, body: { name: '  ' }, lang: 'en' });
    expect({ code: empty.code, data: empty.data }).toEqual({ code: 0, data: { field: 'name', errorId: 'validation' } });
    const name = `Founders ${counter}`;
    const created = await server.api<{ id: number }>('team.team/create', { userToken: founder.token, body: { name: ` ${name} ` }, lang: 'zh-cn' });
    expect({ code: created.code, msg: created.msg }).toEqual({ code: 1, msg: '团队已创建' });
    const teamId = created.data.id;
    expect(await teamRow(teamId)).toMatchObject({ name, leader_id: founder.id, status: 'enable', commission_rate_bp: 0 });
    expect(await ownTeam(founder.id)).toBe(teamId);
    const state = await server.api<Row>('team.team/mine', { userToken: founder.token });
    expect(state.data).toEqual({ can_create: false, team: { id: teamId, name, leader: `Nick ${founder.username}`, members: 1, is_leader: true } });
    const listed = await server.api<{ team: Row; list: Row[] }>('team.team/getTeamList', { userToken: founder.token });
    expect(listed.data.team.invite_code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(Number(listed.data.team.invite_expire_time)).toBeGreaterThan(Date.now() / 1000 + 6 * 86_400);
    expect(listed.data.list.map((row) => [row.id, row.is_leader])).toEqual([[founder.id, true]]);

    // A second team of the same name, or a second team of the same member, is refused and writes nothing.
    const rival = await member();
    const sameName = await server.api('team.team/create', { userToken: rival.token, body: { name }, lang: 'en' });
    expect({ code: sameName.code, msg: sameName.msg, data: sameName.data }).toEqual({ code: 0, msg: 'Team name already exists', data: { field: 'name', errorId: 'alreadyExists' } });
    const again = await server.api('team.team/create', { userToken: founder.token, body: { name: `${name} two` }, lang: 'en' });
    expect({ code: again.code, msg: again.msg }).toEqual({ code: 0, msg: `You are already in the team ${name}: leave it first to join or create another` });
    expect(await db().selectFrom('team').select('id').where('name', 'like', `${name}%`).execute()).toHaveLength(1);

    await db().updateTable('config').set({ value: '0' }).where('name', '=', 'team_member_create').execute();
    try {
      expect((await server.api<Row>('team.team/mine', { userToken: rival.token })).data).toEqual({ can_create: false, team: null });
      const closed = await server.api('team.team/create', { userToken: rival.token, body: { name: `Closed ${counter}` }, lang: 'zh-cn' });
      expect({ code: closed.code, msg: closed.msg }).toEqual({ code: 0, msg: '本站不允许会员创建团队：请使用队长提供的邀请码加入团队' });
      expect(await ownTeam(rival.id)).toBeNull();
    } finally {
      await db().updateTable('config').set({ value: '1' }).where('name', '=', 'team_member_create').execute();
    }
  });

  it('lets a member see which team a code invites to and join it only by accepting; bad, revoked and expired codes change nothing', async () => {
    const leader = await member();
    const teamName = `Invited ${counter}`;
    const teamId = (await server.api<{ id: number }>('team.team/create', { userToken: leader.token, body: { name: teamName } })).data.id;
    const code = await inviteOf(leader);
    const guest = await member();

    // Looking at the invitation (as the link does) moves nobody.
    const seen = await server.api<Row>('team.team/invitation', { userToken: guest.token, query: { code: code.toLowerCase().replace(/^(....)/, '$1-') } });
    expect(seen.data).toEqual({ code, team: { name: teamName, leader: `Nick ${leader.username}`, members: 1 }, current_team: null });
    expect(await ownTeam(guest.id)).toBeNull();

    for (const [bad, zh, en] of [
      ['NOPE', '邀请码无效：可能输入有误，或已被更换、撤销。请向队长索取当前的邀请码', 'This invitation code is not valid: it may have been mistyped, replaced or revoked. Ask the team leader for the current one'],
      ['ABCDEFGH', '邀请码无效：可能输入有误，或已被更换、撤销。请向队长索取当前的邀请码', 'This invitation code is not valid: it may have been mistyped, replaced or revoked. Ask the team leader for the current one'],
    ] as const) {
      for (const [lang, message] of [['zh-cn', zh], ['en', en]] as const) {
        const refused = await server.api('team.team/accept', { userToken: guest.token, body: { code: bad }, lang });
        expect({ code: refused.code, msg: refused.msg, data: refused.data }).toEqual({ code: 0, msg: message, data: { field: 'code', errorId: 'teamInviteInvalid' } });
      }
    }

    // A renewed code replaces the old one; a revoked one works no more.
    const renewed = await server.api<Row>('team.team/invite', { userToken: leader.token, body: { action: 'renew' }, lang: 'en' });
    expect(renewed.msg).toBe('A new invitation code is ready: the previous one no longer works');
    const fresh = String(renewed.data.invite_code);
    expect(fresh).not.toBe(code);
    expect((await server.api('team.team/accept', { userToken: guest.token, body: { code } })).data).toEqual({ field: 'code', errorId: 'teamInviteInvalid' });
    const revoked = await server.api<Row>('team.team/invite', { userToken: leader.token, body: { action: 'revoke' }, lang: 'zh-cn' });
    expect({ msg: revoked.msg, data: revoked.data }).toEqual({ msg: '邀请码已撤销，任何人都无法再用它加入', data: { invite_code: null, invite_expire_time: null } });
    expect((await server.api('team.team/invitation', { userToken: guest.token, query: { code: fresh } })).data).toEqual({ field: 'code', errorId: 'teamInviteInvalid' });
    // Only the leader renews or revokes.
    const notLeader = await server.api('team.team/invite', { userToken: guest.token, body: { action: 'renew' } });
    expect(notLeader.data).toEqual({ type: 'no team', errorId: 'teamNotLed' });

    const current = String((await server.api<Row>('team.team/invite', { userToken: leader.token, body: { action: 'renew' } })).data.invite_code);
    await db().updateTable('team').set({ invite_expire_time: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', teamId).execute();
    for (const [lang, message] of [['zh-cn', '邀请码已过期：请向队长索取新的邀请码'], ['en', 'This invitation code has expired: ask the team leader for a new one']] as const) {
      const expired = await server.api('team.team/accept', { userToken: guest.token, body: { code: current }, lang });
      expect({ code: expired.code, msg: expired.msg, data: expired.data }).toEqual({ code: 0, msg: message, data: { field: 'code', errorId: 'teamInviteExpired' } });
    }
    expect(await ownTeam(guest.id)).toBeNull();

    const working = String((await server.api<Row>('team.team/invite', { userToken: leader.token, body: { action: 'renew' } })).data.invite_code);
    const joined = await server.api('team.team/accept', { userToken: guest.token, body: { code: working }, lang: 'en' });
    expect({ code: joined.code, msg: joined.msg }).toEqual({ code: 1, msg: `You joined the team ${teamName}` });
    expect(await ownTeam(guest.id)).toBe(teamId);
    expect((await server.api<Row>('team.team/mine', { userToken: guest.token })).data).toMatchObject({ team: { id: teamId, members: 2, is_leader: false } });

    // A member of a team is told so, for this team or another, and stays where they are until they leave.
    const otherLeader = await member();
    const otherId = (await server.api<{ id: number }>('team.team/create', { userToken: otherLeader.token, body: { name: `Other ${counter}` } })).data.id;
    const otherCode = await inviteOf(otherLeader);
    expect((await server.api<Row>('team.team/invitation', { userToken: guest.token, query: { code: otherCode } })).data).toMatchObject({ current_team: teamName });
    const moved = await server.api('team.team/accept', { userToken: guest.token, body: { code: otherCode }, lang: 'zh-cn' });
    expect({ code: moved.code, msg: moved.msg }).toEqual({ code: 0, msg: `您已在团队「${teamName}」中：请先退出，才能加入或创建其他团队` });
    expect(await ownTeam(guest.id)).toBe(teamId);
    const leaderLeaves = await server.api('team.team/leave', { userToken: leader.token, body: {}, lang: 'en' });
    expect({ code: leaderLeaves.code, msg: leaderLeaves.msg }).toEqual({ code: 0, msg: 'A leader cannot leave their own team: the operator can name another leader or disable the team' });
    expect(await ownTeam(leader.id)).toBe(teamId);
    const left = await server.api('team.team/leave', { userToken: guest.token, body: {}, lang: 'zh-cn' });
    expect({ code: left.code, msg: left.msg }).toEqual({ code: 1, msg: `您已退出团队「${teamName}」` });
    expect(await ownTeam(guest.id)).toBeNull();
    expect((await server.api('team.team/accept', { userToken: guest.token, body: { code: otherCode } })).code).toBe(1);
    expect(await ownTeam(guest.id)).toBe(otherId);
    expect((await server.api('team.team/leave', { userToken: (await member()).token, body: {}, lang: 'en' })).msg).toBe('You are not in a team');
  });

  it('keeps the commission rate in basis points and says a wrong or out-of-range rate as a percentage, in both languages, changing nothing', async () => {
    const leader = await member();
    const teamId = await team(leader.id);
    const edit = (rate: unknown, lang: 'en' | 'zh-cn' = 'en') => admin('team.Team/edit', { lang, body: { id: teamId, commission_rate_bp: rate } });
    expect((await edit(1550)).code).toBe(1);
    expect((await teamRow(teamId)).commission_rate_bp).toBe(1550);
    const read = await admin<{ row: Row }>('team.Team/edit', { query: { id: teamId } });
    expect(read.data.row.commission_rate_bp).toBe(1550);

    for (const [rate, en, zh] of [
      [10001, 'Commission rate must not be more than 100%', '佣金比例不能大于 100%'],
      [-1, 'Commission rate must not be less than 0%', '佣金比例不能小于 0%'],
      [15.5, 'Commission rate must be a percentage such as 15 or 15.5', '佣金比例必须是百分比，例如 15 或 15.5'],
      ['1e3', 'Commission rate must be a percentage such as 15 or 15.5', '佣金比例必须是百分比，例如 15 或 15.5'],
    ] as const) {
      const english = await edit(rate);
      expect({ code: english.code, msg: english.msg }, String(rate)).toEqual({ code: 0, msg: en });
      expect((await edit(rate, 'zh-cn')).msg, String(rate)).toBe(zh);
    }
    expect((await teamRow(teamId)).commission_rate_bp).toBe(1550);

    const exported = await server.raw('/chidaoadminstator.php/team.Team/export', { headers: { batoken: token, 'think-lang': 'en' } });
    const line = (await exported.text()).split('\r\n').find((row) => row.startsWith(`${teamId},`));
    expect(line).toContain(',15.5%,');
  });

  it('shows the leader each member’s activity, earnings and the commission at the team’s rate, for their own team only', async () => {
    const leader = await member();
    const teamId = (await server.api<{ id: number }>('team.team/create', { userToken: leader.token, body: { name: `Earners ${counter}` } })).data.id;
    expect((await admin('team.Team/edit', { body: { id: teamId, name: `Earners ${counter}`, leader_id: leader.id, commission_rate_bp: 1050, status: 'enable' } })).code).toBe(1);
    const code = await inviteOf(leader);
    const [earner, idle] = [await member(), await member()];
    for (const who of [earner, idle]) expect((await server.api('team.team/accept', { userToken: who.token, body: { code } })).code).toBe(1);
    await complete(earner, '3.00');
    await complete(earner, '0.99');
    await complete(leader, '2.00');
    // Someone outside the team earns too: it counts for nobody here.
    await complete(await member(), '5.00');

    const listed = await server.api<{ team: Row; list: Row[]; total: number }>('team.team/getTeamList', { userToken: leader.token, query: { days: 30 } });
    expect(listed.code).toBe(1);
    // 10.5 % of ¥3.99 is ¥0.41895: the commission is rounded down to the cent.
    expect(listed.data.team).toMatchObject({ commission_rate_bp: 1050, days: 30, commission: '0.41' });
    expect(listed.data.total).toBe(3);
    const byId = new Map(listed.data.list.map((row) => [row.id, row]));
    expect(byId.get(earner.id)).toMatchObject({ completes: 2, earnings: '3.99', commission: '0.41', is_leader: false });
    expect(byId.get(idle.id)).toMatchObject({ completes: 0, earnings: '0.00', commission: '0.00', is_leader: false });
    expect(byId.get(leader.id)).toMatchObject({ completes: 1, earnings: '2.00', commission: '0.00', is_leader: true });
    expect(listed.data.list[0].id).toBe(leader.id);
    expect(Number(byId.get(earner.id)?.last_active_time)).toBeGreaterThan(Date.now() / 1000 - 7200);
    // What a team page needs of a member, and no more: no mobile, email or bank details.
    expect(Object.keys(byId.get(earner.id) as Row).sort()).toEqual(['avatar', 'commission', 'completes', 'earnings', 'id', 'is_leader', 'join_time', 'last_active_time', 'last_login_time', 'money', 'nickname', 'username']);

    // Completes of earlier periods leave the last 7 days; the whole history keeps them.
    await db().updateTable('survey_participation').set({ finish_time: Math.floor(Date.now() / 1000) - 20 * 86_400 }).where('user_id', '=', earner.id).execute();
    const week = await server.api<{ team: Row; list: Row[] }>('team.team/getTeamList', { userToken: leader.token, query: { days: 7 } });
    expect(week.data.list.find((row) => row.id === earner.id)).toMatchObject({ completes: 0, earnings: '0.00', commission: '0.00' });
    expect(week.data.team.commission).toBe('0.00');
    const always = await server.api<{ list: Row[] }>('team.team/getTeamList', { userToken: leader.token });
    expect(always.data.list.find((row) => row.id === earner.id)).toMatchObject({ completes: 2, earnings: '3.99' });
    const badPeriod = await server.api('team.team/getTeamList', { userToken: leader.token, query: { days: 12 }, lang: 'en' });
    expect({ code: badPeriod.code, data: badPeriod.data }).toEqual({ code: 0, data: { field: 'days', errorId: 'invalidChoice' } });

    // A member of the team reads no figures, and another team's leader reads only their own team.
    expect((await server.api('team.team/getTeamList', { userToken: earner.token })).data).toEqual({ type: 'no team', errorId: 'teamNotLed' });
    const stranger = await member();
    await server.api('team.team/create', { userToken: stranger.token, body: { name: `Strangers ${counter}` } });
    const theirs = await server.api<{ list: Row[] }>('team.team/getTeamList', { userToken: stranger.token, query: { keyword: earner.username } });
    expect(theirs.data.list).toEqual([]);
  });

  it('shows when each member joined the team, however they joined, and when a member added in the back office signed up', async () => {
    const stored = async (id: number) => (await db().selectFrom('user').select(['join_time', 'team_join_time']).where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    const since = Math.floor(Date.now() / 1000);
    const within = (value: unknown) => {
      expect(Number(value)).toBeGreaterThanOrEqual(since);
      expect(Number(value)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    };
    const founder = await member();
    // The back office's add signs the member up now; they are in no team yet.
    within((await stored(founder.id)).join_time);
    expect((await stored(founder.id)).team_join_time).toBeNull();
    const teamId = (await server.api<{ id: number }>('team.team/create', { userToken: founder.token, body: { name: `Joined ${counter}` } })).data.id;
    const guest = await member();
    // A sign-up long ago is not when they joined the team.
    await db().updateTable('user').set({ join_time: 1_000_000 }).where('id', '=', guest.id).execute();
    expect((await server.api('team.team/accept', { userToken: guest.token, body: { code: await inviteOf(founder) } })).code).toBe(1);
    const added = await member(teamId);
    within((await stored(added.id)).team_join_time);
    const listed = await server.api<{ list: Row[] }>('team.team/getTeamList', { userToken: founder.token });
    const joined = new Map(listed.data.list.map((row) => [row.id, row.join_time]));
    expect([...joined.keys()].sort()).toEqual([founder.id, guest.id, added.id].sort());
    for (const value of joined.values()) within(value);

    // An edit that leaves the team alone keeps the time; moving to another team starts it again, leaving clears it.
    await db().updateTable('user').set({ team_join_time: 2_000_000 }).where('id', '=', guest.id).execute();
    expect((await admin('user.User/edit', { body: { id: guest.id, nickname: 'Renamed', teamid: teamId } })).code).toBe(1);
    expect((await stored(guest.id)).team_join_time).toBe(2_000_000);
    const otherLeader = await member();
    const otherTeam = await team(otherLeader.id);
    within((await stored(otherLeader.id)).team_join_time);
    expect((await admin('user.User/edit', { body: { id: guest.id, teamid: otherTeam } })).code).toBe(1);
    within((await stored(guest.id)).team_join_time);
    expect((await server.api('team.team/leave', { userToken: guest.token, body: {} })).code).toBe(1);
    expect((await stored(guest.id)).team_join_time).toBeNull();
    expect((await admin('user.User/edit', { body: { id: added.id, teamid: null } })).code).toBe(1);
    expect((await stored(added.id)).team_join_time).toBeNull();
  });

  it('makes the leader an operator names a member of the team, and refuses a leader of another team', async () => {
    const leader = await member();
    const teamId = await team(leader.id);
    expect(await ownTeam(leader.id)).toBe(teamId);
    const listed = await server.api<{ list: Row[] }>('team.team/getTeamList', { userToken: leader.token });
    expect(listed.data.list.map((row) => row.id)).toEqual([leader.id]);

    const elsewhere = await member(teamId);
    const name = `Second ${++counter}`;
    const refused = await admin('team.Team/add', { body: { name, leader_id: elsewhere.id }, lang: 'en' });
    expect({ code: refused.code, data: refused.data }).toEqual({ code: 0, data: { field: 'leader_id', errorId: 'teamLeaderElsewhere' } });
    expect(refused.msg).toBe(`This member is already in the team ${(await teamRow(teamId)).name}: a leader must be a member of the team they lead`);
    const twice = await admin('team.Team/add', { body: { name, leader_id: leader.id }, lang: 'zh-cn' });
    expect(twice.msg).toBe(`该会员已在团队「${(await teamRow(teamId)).name}」中：队长必须是其所带团队的成员`);
    expect(await db().selectFrom('team').select('id').where('name', '=', name).execute()).toHaveLength(0);
    expect(await ownTeam(elsewhere.id)).toBe(teamId);
  });
});

