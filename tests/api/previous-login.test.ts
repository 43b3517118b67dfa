import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../src/contract/site-time.js';
import { nowSeconds, pastSecond } from '../support/clock.js';
import { DATABASES, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

/**
 * The previous login (docs/wire-contract.md#previous-login): `last_login_time` / `last_login_ip` name this
 * login as BuildAdmin's do, and both bootstraps answer the successful login before it as `previousLogin`,
 * which the dashboard and the member overview show as "Last login".
 */

const PASSWORD = 'Prev_login1';
const FIRST_ADDRESS = '203.0.113.5';
const SECOND_ADDRESS = '198.51.100.7';

interface PreviousLogin {
  time: number | null;
  ip: string;
}


function ok<T>(response: ApiResponse<T>): T {
  expect(response.code, JSON.stringify({ msg: response.msg, data: response.data })).toBe(1);
  return response.data;
}

describe.each(DATABASES)('previous login on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  const db = () => server.server.app.db;
  const row = async (table: 'admin' | 'user', username: string) =>
    (await db().selectFrom(table).selectAll().where('username', '=', username).executeTakeFirstOrThrow()) as Record<string, unknown>;

  const adminLogin = (username: string, password: string, ip: string) =>
    server.admin<{ userInfo: { token: string; last_login_time: string }; bootstrap?: { previousLogin: PreviousLogin } }>('Index/login', {
      body: { username, password, bootstrap: true },
      headers: { 'x-forwarded-for': ip },
    });
  const adminBootstrap = async (token: string) =>
    ok(await server.admin<{ adminInfo: Record<string, unknown>; previousLogin: PreviousLogin }>('Index/index', { token }));
  const memberLogin = (username: string, password: string, ip: string) =>
    server.api<{ userInfo: { token: string; last_login_time: number } }>('user/checkIn', { body: { tab: 'login', username, password }, headers: { 'x-forwarded-for': ip } });
  const memberBootstrap = async (token: string) =>
    ok(await server.api<{ userInfo: Record<string, unknown>; previousLogin: PreviousLogin }>('index/index', { userToken: token, query: { requiredLogin: 1 } }));

  beforeAll(async () => {
    server = await startTestServer(kind);
    superToken = (await server.loginAdmin()).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an administrator: the first login says there was none, the second answers the first (time and address), a wrong password between changes neither', async () => {
    ok(await server.admin('auth.Admin/add', { token: superToken, body: { username: 'warden', nickname: 'Warden', password: PASSWORD, group_arr: [1], status: '1' } }));

    const first = ok(await adminLogin('warden', PASSWORD, FIRST_ADDRESS));
    expect(first.bootstrap?.previousLogin).toEqual({ time: null, ip: '' });
    const firstBootstrap = await adminBootstrap(first.userInfo.token);
    expect(firstBootstrap.previousLogin).toEqual({ time: null, ip: '' });
    // adminInfo keeps BuildAdmin's keys
    expect(Object.keys(firstBootstrap.adminInfo).sort()).toEqual(['avatar', 'id', 'last_login_time', 'nickname', 'super', 'username']);
    const afterFirst = await row('admin', 'warden');
    const firstTime = Number(afterFirst.last_login_time);
    expect(afterFirst.last_login_ip).toBe(FIRST_ADDRESS);

    await pastSecond(firstTime);
    const wrong = await adminLogin('warden', 'Not_the_password1', SECOND_ADDRESS);
    expect(wrong.code).toBe(0);
    const afterWrong = await row('admin', 'warden');
    // as BuildAdmin's: a wrong password writes the login time, not the address
    expect(Number(afterWrong.last_login_time)).toBeGreaterThan(firstTime);
    expect(afterWrong.last_login_ip).toBe(FIRST_ADDRESS);
    expect(afterWrong.prev_login_time).toBeNull();

    await pastSecond(Number(afterWrong.last_login_time));
    const second = ok(await adminLogin('warden', PASSWORD, SECOND_ADDRESS));
    expect(second.bootstrap?.previousLogin).toEqual({ time: firstTime, ip: FIRST_ADDRESS });
    expect((await adminBootstrap(second.userInfo.token)).previousLogin).toEqual({ time: firstTime, ip: FIRST_ADDRESS });
    // last_login_time still names this login, formatted on the site's clock as BuildAdmin's getter does
    const afterSecond = await row('admin', 'warden');
    expect(Number(afterSecond.last_login_time)).toBeGreaterThan(Number(afterWrong.last_login_time));
    expect(afterSecond.last_login_ip).toBe(SECOND_ADDRESS);
    expect(second.userInfo.last_login_time).toBe(formatLocalDateTime(Number(afterSecond.last_login_time), await server.server.app.config.timeZone()));

    await pastSecond(Number(afterSecond.last_login_time));
    const third = ok(await adminLogin('warden', PASSWORD, FIRST_ADDRESS));
    expect(third.bootstrap?.previousLogin).toEqual({ time: Number(afterSecond.last_login_time), ip: SECOND_ADDRESS });
  });

  it('a member: the first login says there was none, the second answers the first; the bootstrap keeps BuildAdmin’s userInfo', async () => {
    ok(await server.admin('user.User/add', { token: superToken, body: { username: 'heron', nickname: 'Heron', group_id: 1, password: PASSWORD } }));

    const first = ok(await memberLogin('heron', PASSWORD, FIRST_ADDRESS));
    const firstBootstrap = await memberBootstrap(first.userInfo.token);
    expect(firstBootstrap.previousLogin).toEqual({ time: null, ip: '' });
    expect(firstBootstrap.userInfo).not.toHaveProperty('prev_login_time');
    expect(firstBootstrap.userInfo).not.toHaveProperty('last_success_time');
    const firstTime = first.userInfo.last_login_time;
    expect(firstTime).toBe(Number((await row('user', 'heron')).last_login_time));

    await pastSecond(firstTime);
    const second = ok(await memberLogin('heron', PASSWORD, SECOND_ADDRESS));
    expect(second.userInfo.last_login_time).toBeGreaterThan(firstTime);
    const secondBootstrap = await memberBootstrap(second.userInfo.token);
    expect(secondBootstrap.previousLogin).toEqual({ time: firstTime, ip: FIRST_ADDRESS });
    expect(secondBootstrap.userInfo.last_login_time).toBe(second.userInfo.last_login_time);
    expect(secondBootstrap.userInfo.last_login_ip).toBe(SECOND_ADDRESS);
  });

  it('an account no login of this version has written (an older install, an import) counts its last_login_time as the last success only when no wrong password came after it', async () => {
    ok(await server.admin('user.User/add', { token: superToken, body: { username: 'ibis', nickname: 'Ibis', group_id: 1, password: PASSWORD } }));
    ok(await server.admin('user.User/add', { token: superToken, body: { username: 'crane', nickname: 'Crane', group_id: 1, password: PASSWORD } }));
    const earlier = nowSeconds() - 86_400 * 3;
    await db().updateTable('user').set({ last_login_time: earlier, last_login_ip: FIRST_ADDRESS, login_failure: 0, last_success_time: null }).where('username', '=', 'ibis').execute();
    await db().updateTable('user').set({ last_login_time: earlier, last_login_ip: FIRST_ADDRESS, login_failure: 2, last_success_time: null }).where('username', '=', 'crane').execute();

    const ibis = ok(await memberLogin('ibis', PASSWORD, SECOND_ADDRESS));
    expect((await memberBootstrap(ibis.userInfo.token)).previousLogin).toEqual({ time: earlier, ip: FIRST_ADDRESS });
    const crane = ok(await memberLogin('crane', PASSWORD, SECOND_ADDRESS));
    expect((await memberBootstrap(crane.userInfo.token)).previousLogin).toEqual({ time: null, ip: '' });
    expect(await row('user', 'crane')).toMatchObject({ prev_login_time: null, prev_login_ip: '', last_login_ip: SECOND_ADDRESS });
  });
});
