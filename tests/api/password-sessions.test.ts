import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { ADMIN_PASSWORD, DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A changed password ends the sessions of whoever logged in with the old one (docs/wire-contract.md#tokens,
 * #token-refresh, #own-profile): a super admin resetting an admin, an admin's own change (which needs the
 * current password and keeps the session making it), an admin resetting a member, `ADMIN_PASSWORD` applied
 * at start; and a refresh token works once, for its own account only.
 */

const MEMBER_PASSWORD = 'Member_pass1';
const SECOND_PASSWORD = 'Second_pass1';

interface Session {
  token: string;
  refreshToken: string;
}

interface Refreshed {
  type: string;
  token: string;
  refresh_token: string;
}

describe.each(DATABASES)('password changes and sessions on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  let serial = 0;
  const db = () => server.server.app.db;

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token: superToken } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
  });

  async function addAdmin(username: string): Promise<number> {
    serial += 1;
    const response = await server.admin('auth.Admin/add', {
      token: superToken,
      body: { username, nickname: username, password: SECOND_PASSWORD, email: '', mobile: `137${String(20_000_000 + serial).slice(-8)}`, group_arr: [2], status: '1' },
    });
    expect(response.code, response.msg).toBe(1);
    const row = await db().selectFrom('admin').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function addMember(username: string): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    const row = await db()
      .insertInto('user')
      .values({ group_id: 1, username, nickname: username, email: '', mobile: '', password: await hashPassword(MEMBER_PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number((row as { id: number }).id);
  }

  async function memberSession(username: string, password = MEMBER_PASSWORD): Promise<Session> {
    const response = await server.api<{ userInfo: { token: string; refresh_token: string } }>('user/checkIn', { body: { tab: 'login', username, password, keep: true } });
    expect(response.code, response.msg).toBe(1);
    return { token: response.data.userInfo.token, refreshToken: response.data.userInfo.refresh_token };
  }

  /** What the owner of an admin session sees: whether it still opens the back office, and whether its refresh token still refreshes. */
  async function adminSessionWorks(session: Session): Promise<{ access: number; refresh: string }> {
    const access = (await server.admin('Index/index', { token: session.token })).code;
    const refreshed = await server.api<Refreshed>('common/refreshToken', { token: session.token, body: { refreshToken: session.refreshToken } });
    if (refreshed.code === 1) Object.assign(session, { token: refreshed.data.token, refreshToken: refreshed.data.refresh_token });
    return { access, refresh: refreshed.code === 1 ? 'refreshed' : refreshed.msg };
  }

  async function memberSessionWorks(session: Session): Promise<{ access: number; refresh: string }> {
    const access = (await server.api('account/overview', { userToken: session.token })).code;
    const refreshed = await server.api<Refreshed>('common/refreshToken', { userToken: session.token, body: { refreshToken: session.refreshToken } });
    if (refreshed.code === 1) Object.assign(session, { token: refreshed.data.token, refreshToken: refreshed.data.refresh_token });
    return { access, refresh: refreshed.code === 1 ? 'refreshed' : refreshed.msg };
  }

  const alive = { access: 1, refresh: 'refreshed' };
  const ended = { access: 303, refresh: 'Login expired, please login again.' };

  it('a super admin resetting an admin password logs that admin out everywhere, and an edit without one does not', async () => {
    const id = await addAdmin('reset_by_super');
    const laptop = await server.loginAdmin('reset_by_super', SECOND_PASSWORD, true);
    const phone = await server.loginAdmin('reset_by_super', SECOND_PASSWORD, true);

    expect((await server.admin('auth.Admin/edit', { token: superToken, body: { id, nickname: 'Renamed' } })).code).toBe(1);
    expect(await adminSessionWorks(laptop)).toEqual(alive);

    const reset = await server.admin('auth.Admin/edit', { token: superToken, body: { id, password: 'Reset_pass2' } });
    expect(reset.code, reset.msg).toBe(1);
    expect(await adminSessionWorks(laptop)).toEqual(ended);
    expect(await adminSessionWorks(phone)).toEqual(ended);
    // the super admin's own session is untouched, and the new password logs in
    expect((await server.admin('Index/index', { token: superToken })).code).toBe(1);
    expect(await adminSessionWorks(await server.loginAdmin('reset_by_super', 'Reset_pass2', true))).toEqual(alive);
  });

  it("an admin's own new password needs the current one, and ends every other session of theirs", async () => {
    await addAdmin('own_change');
    const current = await server.loginAdmin('own_change', SECOND_PASSWORD, true);
    const other = await server.loginAdmin('own_change', SECOND_PASSWORD, true);
    const edit = (body: Record<string, unknown>) => server.admin('routine.AdminInfo/edit', { token: current.token, body: { nickname: 'Own', ...body } });

    const missing = await edit({ nickname: 'Changed', password: 'Own_pass2' });
    expect({ code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ code: 0, msg: 'Old password cannot be empty', data: { field: 'oldPassword', errorId: 'oldPasswordMissing' } });
    const wrong = await edit({ nickname: 'Changed', password: 'Own_pass2', oldPassword: 'Guessed_pass9' });
    expect({ code: wrong.code, msg: wrong.msg, data: wrong.data }).toEqual({ code: 0, msg: 'Old password error', data: { field: 'oldPassword', errorId: 'oldPasswordError' } });
    const chinese = await server.admin('routine.AdminInfo/edit', { token: current.token, lang: 'zh-cn', body: { nickname: 'Own', password: 'Own_pass2', oldPassword: 'Guessed_pass9' } });
    expect(chinese.msg).toBe('旧密码错误');
    // refused: nothing changed, nobody logged out
    expect((await db().selectFrom('admin').select('nickname').where('username', '=', 'own_change').executeTakeFirstOrThrow()).nickname).toBe('own_change');
    expect(await adminSessionWorks(other)).toEqual(alive);
    expect((await server.admin('Index/login', { body: { username: 'own_change', password: SECOND_PASSWORD } })).code).toBe(1);

    // the client posts the refresh token it holds: that session stays whole, every other one ends
    const changed = await edit({ password: 'Own_pass2', oldPassword: SECOND_PASSWORD, refresh_token: current.refreshToken });
    expect({ code: changed.code, msg: changed.msg }).toEqual({ code: 1, msg: 'Update successful!' });
    expect(await adminSessionWorks(other)).toEqual(ended);
    expect(await adminSessionWorks(current)).toEqual(alive);
    expect((await server.admin('Index/login', { body: { username: 'own_change', password: SECOND_PASSWORD } })).code).toBe(0);
    expect((await server.admin('Index/login', { body: { username: 'own_change', password: 'Own_pass2' } })).code).toBe(1);
  });

  it('an admin resetting a member password logs the member out everywhere', async () => {
    const id = await addMember('reset_member');
    const first = await memberSession('reset_member');
    const second = await memberSession('reset_member');
    expect(await memberSessionWorks(first)).toEqual(alive);

    const reset = await server.admin('user.User/edit', { token: superToken, body: { id, password: 'Member_pass2' } });
    expect(reset.code, reset.msg).toBe(1);
    expect(await memberSessionWorks(first)).toEqual(ended);
    expect(await memberSessionWorks(second)).toEqual(ended);
    expect(await memberSessionWorks(await memberSession('reset_member', 'Member_pass2'))).toEqual(alive);
  });

  it('a deleted admin or member keeps no session, so a row put back (the recycle bin restores rows whole) brings none back', async () => {
    const adminId = await addAdmin('deleted_admin');
    const adminSession = await server.loginAdmin('deleted_admin', SECOND_PASSWORD, true);
    const memberId = await addMember('deleted_member');
    const memberLogin = await memberSession('deleted_member');
    const adminRow = await db().selectFrom('admin').selectAll().where('id', '=', adminId).executeTakeFirstOrThrow();
    const memberRow = await db().selectFrom('user').selectAll().where('id', '=', memberId).executeTakeFirstOrThrow();

    const deletedAdmin = await server.admin('auth.Admin/del', { token: superToken, method: 'DELETE', query: { ids: [adminId] } });
    expect(deletedAdmin.code, deletedAdmin.msg).toBe(1);
    const deletedMember = await server.admin('user.User/del', { token: superToken, method: 'DELETE', query: { ids: [memberId] } });
    expect(deletedMember.code, deletedMember.msg).toBe(1);

    await db().insertInto('admin').values(adminRow).execute();
    await db().insertInto('user').values(memberRow).execute();
    expect(await adminSessionWorks(adminSession)).toEqual(ended);
    expect(await memberSessionWorks(memberLogin)).toEqual(ended);
    // the accounts themselves are back: their passwords log in afresh (the admin without the groups it lost)
    expect((await server.admin('Index/login', { body: { username: 'deleted_admin', password: SECOND_PASSWORD } })).code).toBe(1);
    expect(await memberSessionWorks(await memberSession('deleted_member'))).toEqual(alive);
  });

  it('a refresh token works once, and only with a real access token of its own account', async () => {
    await addAdmin('refresher');
    const session = await server.loginAdmin('refresher', SECOND_PASSWORD, true);
    const someoneElse = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
    const refresh = (token: string, refreshToken: string) => server.api<Refreshed>('common/refreshToken', { token, body: { refreshToken } });

    // the stale token must be an access token of the same account: not made up, not another admin's, not a refresh token
    for (const stale of ['made-up-token', someoneElse.token, session.refreshToken]) {
      const refused = await refresh(stale, session.refreshToken);
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'Invalid token' });
    }

    const first = await refresh(session.token, session.refreshToken);
    expect(first.code, first.msg).toBe(1);
    expect(Object.keys(first.data).sort()).toEqual(['refresh_token', 'token', 'type']);
    expect(first.data.refresh_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.data.refresh_token).not.toBe(session.refreshToken);
    // the rotated token ends when the one it replaces would have
    const expiry = async (token: string) => Number((await db().selectFrom('token').select('expire_time').where('token', '=', server.server.app.tokens.digest(token)).executeTakeFirstOrThrow()).expire_time);
    const originalEnd = Number(
      (await db().selectFrom('token').select('expire_time').where('type', '=', 'admin-refresh').where('user_id', '=', Number((await db().selectFrom('admin').select('id').where('username', '=', 'refresher').executeTakeFirstOrThrow()).id)).executeTakeFirstOrThrow()).expire_time,
    );
    expect(await expiry(first.data.refresh_token)).toBe(originalEnd);

    // the used one is refused, whoever brings it
    const replay = await refresh(first.data.token, session.refreshToken);
    expect({ code: replay.code, msg: replay.msg }).toEqual({ code: 0, msg: 'Login expired, please login again.' });
    expect((await server.admin('Index/index', { token: first.data.token })).code).toBe(1);
    const next = await refresh(first.data.token, first.data.refresh_token);
    expect(next.code, next.msg).toBe(1);
    expect((await server.admin('Index/index', { token: first.data.token })).code).toBe(303);
    expect((await server.admin('Index/index', { token: next.data.token })).code).toBe(1);
  });

  it('of two refreshes racing with one refresh token, exactly one gets through', async () => {
    const session = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
    const outcomes = await Promise.all([1, 2, 3].map(() => server.api<Refreshed>('common/refreshToken', { token: session.token, body: { refreshToken: session.refreshToken } })));
    expect(outcomes.filter((outcome) => outcome.code === 1)).toHaveLength(1);
    expect(await db().selectFrom('token').select('type').where('token', '=', server.server.app.tokens.digest(session.refreshToken)).executeTakeFirst()).toBeUndefined();
  });

  it('ADMIN_PASSWORD at start keeps the sessions when it is the password already, and ends them when it is new', async () => {
    const session = await server.loginAdmin('admin', ADMIN_PASSWORD, true);
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
    expect(await adminSessionWorks(session)).toEqual(alive);

    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true, env: { ADMIN_PASSWORD: 'Started_pass2' } })).close();
    expect(await adminSessionWorks(session)).toEqual(ended);
    expect((await server.admin('Index/login', { body: { username: 'admin', password: 'Started_pass2' } })).code).toBe(1);
    // back to the suite's password for whatever runs after
    await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
    ({ token: superToken } = await server.loginAdmin());
  });
});
