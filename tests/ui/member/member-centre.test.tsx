// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readUserInfo } from '../../../src/client/http/session.js';
import { setMemberBootstrap } from '../../../src/client/member/shell/member-bootstrap.js';
import type { MemberRule } from '../../../src/client/providers/member-bootstrap.js';
import { renderApp } from '../shell/render-app.js';
import { fail, http, imagesRenderedAt, ok, PUZZLE, useEnglish } from '../shell/support.js';

/** The member centre (`/user/*`) as a member uses it, over msw answers shaped like the server's. */

const server = setupServer();
const calls: string[] = [];

const member = { id: 7, username: 'amy', nickname: 'Amy', email: 'amy@example.com', mobile: '', avatar: '/static/images/avatar.png', gender: 0, birthday: null, money: '12.50', score: 30, join_time: 0, motto: 'Keep going', last_login_time: 0, last_login_ip: '', token: 'utok', refresh_token: '' };

function rule(id: number, pid: number, name: string, title: string, component = '', type: MemberRule['type'] = 'menu', children?: MemberRule[]): MemberRule {
  return { id, pid, type, title, name, path: name, icon: 'fa fa-circle', menu_type: type === 'menu' ? 'tab' : null, url: '', component, extend: 'none', ...(children ? { children } : {}) };
}

const MENUS: MemberRule[] = [
  rule(7, 0, 'survey', '问卷任务', '', 'menu_dir', [rule(8, 7, 'survey/tasks', '任务大厅', 'survey/tasks'), rule(10, 7, 'survey/ranking', '排行榜', 'survey/ranking')]),
  // as the server seeds them: BuildAdmin's view files where it has the page, our names otherwise
  rule(1, 0, 'account', '我的账户', '', 'menu_dir', [
    rule(2, 1, 'account/overview', '账户概览', '/src/views/frontend/user/account/overview.vue'),
    rule(3, 1, 'account/profile', '个人资料', '/src/views/frontend/user/account/profile.vue'),
    rule(4, 1, 'account/changePassword', '修改密码', '/src/views/frontend/user/account/changePassword.vue'),
    rule(6, 1, 'account/balance', '余额记录', 'account/balance'),
    rule(20, 1, 'account/custom', 'Custom page', 'account/custom'),
    { ...rule(21, 1, 'account/help', 'Help centre'), menu_type: 'iframe', url: 'https://example.com/help' },
  ]),
  rule(12, 0, 'team', '我的团队', '', 'menu_dir', [rule(13, 12, 'team/members', '团队成员', 'team/members')]),
];

/** Every code asks the click captcha first: solved here as a person clicks the two targets. */
async function solveCaptcha(): Promise<void> {
  const image = await screen.findByRole('img', { name: 'Click captcha' });
  fireEvent.click(image, { clientX: 10, clientY: 10 });
  fireEvent.click(image, { clientX: 100, clientY: 90 });
}

/** What a code request carries besides the address and event: the solved captcha. */
const SOLVED = { captchaId: PUZZLE.id, captchaInfo: '10,10-100,90;350;200' };

function signIn(): void {
  localStorage.setItem('userInfo', JSON.stringify({ ...member, refresh_token: 'uref' }));
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  setMemberBootstrap(undefined);
  useEnglish();
  calls.length = 0;
  server.use(
    http.get('/api/index/index', ({ request }) => {
      calls.push(`index?${new URL(request.url).searchParams.toString()}`);
      return ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '' }, openMemberCenter: true, userInfo: member, rules: [], menus: MENUS });
    }),
    http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: ['mobile'] })),
    http.get('/api/survey/tasks', () => ok({ list: [{ id: 3, title: 'Coffee habits', description: '', reward_money: '1.50', reward_score: 10, loi_minutes: 9, end_time: null }] })),
    http.get('/api/survey/walls', () => ok({ list: [{ code: 'cpx', name: 'CPX Research' }] })),
    http.get('/api/survey/quickTasks', () => ok({ list: [] })),
    http.get('/api/account/getUserData', () => ok({ today: { money: '1.50', completes: 1 }, month: { money: '9.25', completes: 4 }, total: { money: '20.00', completes: 9 }, balance: '12.50', score: 30 })),
    http.get('/api/account/getUserCharts', () => ok({ days: ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'], money: ['0.00', '0.00', '2.00', '0.00', '5.75', '0.00', '1.50'], completes: [0, 0, 1, 0, 2, 0, 1] })),
    http.get('/api/account/profile', () => ok({ accountVerificationType: ['email', 'mobile'] })),
    http.get('/api/account/pendingCredits', () => ok({ list: [], total: 0, money: '0.00', score: 0 })),
    http.get('/api/common/clickCaptcha', () => ok(PUZZLE)),
    http.post('/api/common/checkClickCaptcha', () => ok(null, 'Verification is successful!')),
  );
  imagesRenderedAt({ left: 0, top: 0, width: 350, height: 200 });
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('member centre', () => {
  it('signs in, loads the menus once, opens the first page and draws the left menu', async () => {
    let loginStateRead = false;
    server.use(
      http.post('/api/user/checkIn', () => ok({ userInfo: member, routePath: '/user' }, 'Login succeeded!')),
      http.get('/api/user/checkIn', () => {
        loginStateRead = true;
        return ok({ userLoginCaptchaSwitch: false, accountVerificationType: ['mobile'] });
      }),
    );
    const { router } = renderApp('/user/login');
    fireEvent.change(await screen.findByLabelText('Username / email / mobile'), { target: { value: 'amy' } });
    // The form learns that the site asks no captcha from checkIn; a click before that answer opens the captcha.
    await waitFor(() => expect(loginStateRead).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Coffee habits')).toBeTruthy();
    expect(router.location.pathname).toBe('/user/survey/tasks');
    // the survey walls sit beside the surveys, one "more surveys" entry each
    expect(await screen.findByRole('button', { name: 'More surveys: CPX Research' })).toBeTruthy();
    expect(calls).toEqual(['index?requiredLogin=1']);
    const menu = screen.getByRole('navigation', { name: 'Member menu' });
    // Titles of the rules in the chosen language, the stored title for a rule the pack does not name.
    for (const name of ['Surveys', 'Task hall', 'Ranking', 'My account', 'Overview', 'Balance log', 'Custom page', 'Team members']) expect(within(menu).getByText(name)).toBeTruthy();
    expect(screen.getByTestId('member-name').textContent).toBe('Amy');
    await waitFor(() => expect(document.title).toBe('Task hall - Panel'));
  });

  it('sends a logged-out deep link through the login and back, with its query', async () => {
    const { router } = renderApp('/user/account/balance?page=2');
    await waitFor(() => expect(router.location.pathname).toBe('/user/login'));
    expect(new URLSearchParams(router.location.search).get('redirect')).toBe('/user/account/balance?page=2');
    cleanup();

    signIn();
    server.use(http.get('/api/account/balance', () => ok({ list: [{ id: 1, user_id: 7, money: '-2.00', before: '14.50', after: '12.50', memo: 'Payout frozen', create_time: 0 }], total: 1 })));
    const again = renderApp('/user/account/balance?page=2');
    expect(await screen.findByText('Payout frozen')).toBeTruthy();
    expect(again.router.location.pathname).toBe('/user/account/balance');
    expect(again.router.location.search).toBe('?page=2');
    expect(screen.getByText('-2.00')).toBeTruthy();
  });

  it('shows the overview: the member, the figures and the 7-day chart, switched to 30 days on the server', async () => {
    signIn();
    const periods: string[] = [];
    server.use(
      http.get('/api/account/getUserCharts', ({ request }) => {
        const period = new URL(request.url).searchParams.get('period') ?? '';
        periods.push(period);
        const days = Number(period);
        return ok({ days: Array.from({ length: days }, (_, index) => `2026-11-${String(index + 1).padStart(2, '0')}`), money: Array(days).fill('1.00'), completes: Array(days).fill(1) });
      }),
    );
    renderApp('/user/account/overview');
    expect(await screen.findByText('Welcome back, Amy')).toBeTruthy();
    expect(screen.getByTestId('stat-balance').textContent).toBe('Balance¥12.50');
    expect((await screen.findByTestId('earned-month')).textContent).toBe('This month¥9.254 completes');
    // One complete is counted in the singular.
    expect(screen.getByTestId('earned-today').textContent).toBe('Today¥1.501 complete');
    expect(screen.getByRole('img', { name: 'Earnings (¥) and completes per day, last 7 days' })).toBeTruthy();
    const switcher = screen.getByRole('group', { name: 'Chart period' });
    expect(within(switcher).getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(switcher).getByRole('button', { name: 'Last 30 days' }));
    expect(await screen.findByRole('img', { name: 'Earnings (¥) and completes per day, last 30 days' })).toBeTruthy();
    expect(within(switcher).getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(periods).toEqual(['7', '30']);
  });

  it('ranks by completes, one complete in the singular', async () => {
    signIn();
    server.use(
      http.get('/api/account/getUserRanking', () =>
        ok({ computed_at: 1_700_000_000, refresh_at: 1_700_000_600, list: [{ rank: 1, nickname: 'Amy', avatar: '', value: 3, is_me: true }, { rank: 2, nickname: 'Bo', avatar: '', value: 1, is_me: false }], mine: { rank: 1, value: 3 } }),
      ),
    );
    renderApp('/user/survey/ranking');
    fireEvent.click(await screen.findByRole('button', { name: 'Completes' }));
    expect(await screen.findByText('1 complete')).toBeTruthy();
    expect(screen.getAllByText('3 completes').length).toBeGreaterThan(0);
  });

  it('names the previous login as "Last login", on the site clock with its address, or says it is the first', async () => {
    signIn();
    // 2026-12-01 06:30:05 UTC: 14:30:05 on the site's clock (Asia/Shanghai); this login is userInfo.last_login_time
    const previousLogin = { time: Date.UTC(2026, 11, 1, 6, 30, 5) / 1000, ip: '203.0.113.5' };
    const site = { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '', timeZone: 'Asia/Shanghai' };
    server.use(http.get('/api/index/index', () => ok({ site, openMemberCenter: true, userInfo: { ...member, last_login_time: previousLogin.time + 86_400 }, previousLogin, rules: [], menus: MENUS })));
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-lastLogin')).textContent).toBe('Last login2026-12-01 14:30:05 from 203.0.113.5');
    cleanup();
    setMemberBootstrap(undefined);
    server.use(http.get('/api/index/index', () => ok({ site, openMemberCenter: true, userInfo: member, previousLogin: { time: null, ip: '' }, rules: [], menus: MENUS })));
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-lastLogin')).textContent).toBe('Last loginFirst login');
  });

  it('shows what is pending beside the available balance, each credit with the day it becomes available', async () => {
    signIn();
    // 2026-12-01 06:30 UTC: 14:30 on the site's clock (Asia/Shanghai).
    const releaseAt = Date.UTC(2026, 11, 1, 6, 30) / 1000;
    const credit = { release_at: releaseAt, memo: 'Survey reward: Coffee habits', create_time: releaseAt - 7 * 86_400 };
    server.use(
      http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '', timeZone: 'Asia/Shanghai' }, openMemberCenter: true, userInfo: member, rules: [], menus: MENUS })),
      http.get('/api/account/pendingCredits', ({ request }) => {
        expect(new URL(request.url).searchParams.get('limit')).toBe('5');
        return ok({ list: [{ id: 1, kind: 'money', money: '20.00', ...credit }, { id: 2, kind: 'score', score: 1, ...credit }], total: 7, money: '26.00', score: 10 });
      }),
    );
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-pending')).textContent).toBe('Pending¥26.00 + 10 points');
    expect(screen.getByTestId('stat-balance').textContent).toBe('Available balance¥12.50');
    const list = screen.getByRole('region', { name: 'Pending credits' });
    expect(within(list).getAllByTestId('pending-credit').map((item) => item.textContent)).toEqual([
      '¥20.00Survey reward: Coffee habitsAvailable from 2026-12-01 14:30',
      // one point in the singular
      '1 pointSurvey reward: Coffee habitsAvailable from 2026-12-01 14:30',
    ]);
    expect(within(list).getByText('and 5 more')).toBeTruthy();
    // Dates are for people: no Unix time anywhere on the page.
    expect(document.body.textContent).not.toMatch(/\d{10}/);
  });

  it('shows no pending figures when nothing is held', async () => {
    signIn();
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('earned-month')).textContent).toBe('This month¥9.254 completes');
    expect(screen.queryByTestId('stat-pending')).toBeNull();
    expect(screen.getByTestId('stat-balance').textContent).toBe('Balance¥12.50');
    expect(screen.queryByRole('region', { name: 'Pending credits' })).toBeNull();
  });

  it('saves the profile and shows a refusal on its field', async () => {
    signIn();
    let posted: Record<string, unknown> | undefined;
    server.use(
      http.post('/api/account/profile', async ({ request }) => {
        posted = (await request.json()) as Record<string, unknown>;
        return posted.username === 'taken' ? fail('Username already exists', 0, { field: 'username' }) : ok(null, 'Data updated successfully~');
      }),
    );
    renderApp('/user/account/profile');
    const username = await screen.findByLabelText('Username');
    fireEvent.change(username, { target: { value: 'taken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Username already exists')).toBeTruthy();
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(posted).toMatchObject({ id: 7, username: 'taken', nickname: 'Amy' });

    fireEvent.change(username, { target: { value: 'amy2' } });
    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Amy B' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Data updated successfully~')).toBeTruthy();
    expect(readUserInfo()).toMatchObject({ username: 'amy2', nickname: 'Amy B', token: 'utok' });
    expect(screen.getByTestId('member-name').textContent).toBe('Amy B');
    expect(screen.getByTestId('bound-email').textContent).toBe('amy@example.com');
  });

  it('binds a mobile number with the password and a texted code, and changes the email after proving the old one', async () => {
    signIn();
    const sent: unknown[] = [];
    const mailed: unknown[] = [];
    const bound: unknown[] = [];
    server.use(
      http.post('/api/Sms/send', async ({ request }) => {
        sent.push(await request.json());
        return ok(null, 'SMS sent successfully');
      }),
      http.post('/api/account/changeBind', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bound.push(body);
        return body.password === 'wrong' ? fail('Password error', 0, { field: 'password' }) : ok(null, 'Update successful!');
      }),
      http.post('/api/account/verification', () => ok({ type: 'email', accountVerificationToken: 'pass-1' })),
      http.post('/api/Ems/send', async ({ request }) => {
        mailed.push(await request.json());
        return ok(null, 'Mail sent successfully~');
      }),
    );
    renderApp('/user/account/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Bind' }));
    let dialog = await screen.findByRole('dialog', { name: 'Bind Mobile' });
    fireEvent.change(within(dialog).getByLabelText('Login password'), { target: { value: 'wrong' } });
    fireEvent.change(within(dialog).getByLabelText('New Mobile'), { target: { value: '13900139000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await solveCaptcha();
    await waitFor(() => expect(sent).toEqual([{ mobile: '13900139000', template_code: 'user_change_mobile', event: 'user_change_mobile', ...SOLVED }]));
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: '5555' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Password error')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Login password'), { target: { value: 'Member_pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bound[1]).toEqual({ type: 'mobile', mobile: '13900139000', captcha: '5555', password: 'Member_pass1' });
    expect(screen.getByTestId('bound-mobile').textContent).toBe('13900139000');
    expect(readUserInfo()).toMatchObject({ mobile: '13900139000' });

    // A bound email: a code to the old address first, then the new one with the pass token.
    fireEvent.click(screen.getAllByRole('button', { name: 'Change' })[0]);
    dialog = await screen.findByRole('dialog', { name: 'Change Email' });
    expect(within(dialog).getByText('First prove it is you: we send a code to amy@example.com.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Login password'), { target: { value: 'Member_pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await solveCaptcha();
    await waitFor(() => expect(mailed).toEqual([{ email: 'amy@example.com', event: 'user_email_verify', password: 'Member_pass1', ...SOLVED }]));
    expect((within(dialog).getByRole('button', { name: /^Resend in \d+ s$/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: 'AB3D' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.change(await within(dialog).findByLabelText('New Email'), { target: { value: 'amy@new.example' } });
    // the new address's code is asked afresh: step 1's countdown does not carry over
    expect((within(dialog).getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(dialog).queryByRole('button', { name: /Resend/ })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: 'CD5E' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('bound-email').textContent).toBe('amy@new.example'));
    expect(bound[2]).toEqual({ type: 'email', email: 'amy@new.example', captcha: 'CD5E', accountVerificationToken: 'pass-1' });
  });

  it('says why an address cannot be bound while its channel cannot deliver a code, and offers the one that can', async () => {
    signIn();
    server.use(http.get('/api/account/profile', () => ok({ accountVerificationType: ['mobile'] })));
    renderApp('/user/account/profile');
    expect((await screen.findByTestId('bind-email-unavailable')).textContent).toBe(
      'An email address is bound with a code sent to it by mail, and this site cannot send mail yet. Please contact the site administrator.',
    );
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Bind' })).toBeTruthy();
    expect(screen.queryByTestId('bind-mobile-unavailable')).toBeNull();
  });

  it('lets a team leader add a member, with the server’s refusal on its field', async () => {
    signIn();
    const row = { avatar: '', money: '3.00', commission: '0.60', is_leader: false, join_time: 0, last_login_time: 0, last_active_time: 0 };
    const team = [{ ...row, id: 31, username: 'mate', nickname: 'Mate', completes: 4, earnings: '6.00' }];
    let added: Record<string, unknown> | undefined;
    server.use(
      http.get('/api/team.team/mine', () => ok({ can_create: false, team: { id: 2, name: 'Blue', leader: 'Boss', members: 1, is_leader: true } })),
      http.get('/api/team.team/getTeamList', () =>
        ok({ team: { id: 2, name: 'Blue', commission_rate_bp: 1000, days: 30, commission: '0.60', invite_code: 'ABCD2345', invite_expire_time: 1_900_000_000 }, list: team, total: team.length }),
      ),
      http.post('/api/team.team/AddTeamUser', async ({ request }) => {
        added = (await request.json()) as Record<string, unknown>;
        if (added.username === 'mate') return fail('Username already exists', 0, { field: 'username' });
        team.unshift({ ...row, id: 32, username: String(added.username), nickname: String(added.nickname), money: '0.00', completes: 0, earnings: '0.00', commission: '0.00' });
        return ok({ id: 32 }, 'Added successfully!');
      }),
    );
    renderApp('/user/team/members');
    expect(await screen.findByText('Team: Blue')).toBeTruthy();
    expect(screen.getByRole('row', { name: /Mate \(mate\) Never 4 ¥6.00 ¥0.60/ })).toBeTruthy();
    expect(screen.getByTestId('team-rate').textContent).toContain('10%');
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'mate' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Fresh_pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Username already exists')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'rookie' } });
    fireEvent.change(within(dialog).getByLabelText('Nickname'), { target: { value: 'Rookie' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Rookie (rookie)')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(added).toEqual({ username: 'rookie', nickname: 'Rookie', password: 'Fresh_pass1' });
  });

  it('changes the password: checks the fields, shows the server’s refusal, then ends the session and says so on the login page', async () => {
    signIn();
    let attempts = 0;
    server.use(
      http.post('/api/account/changePassword', () => (++attempts === 1 ? fail('Old password error', 0, { field: 'oldPassword' }) : ok(null, 'Password has been changed, please login again~'))),
      http.post('/api/user/logout', () => ok(null)),
    );
    const { router } = renderApp('/user/account/changePassword');
    fireEvent.change(await screen.findByLabelText('Old password'), { target: { value: 'wrong_one' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Fresh_pass1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'Fresh_pass2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(attempts).toBe(0);

    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'Fresh_pass1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Old password error')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.location.pathname).toBe('/user/login'));
    expect(readUserInfo()).toBeUndefined();
    expect((await screen.findByRole('status')).textContent).toBe('Password has been changed, please login again~');
  });

  it('offers a member in no team to join by code or create one: no member list, no add button', async () => {
    signIn();
    server.use(http.get('/api/team.team/mine', () => ok({ can_create: true, team: null })));
    renderApp('/user/team/members');
    expect(await screen.findByText('You are not in a team yet.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Invitation code' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create team' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add member' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a page the client does not have as not available, and an unknown path as 404', async () => {
    signIn();
    const { router } = renderApp('/user/account/custom');
    expect(await screen.findByText('This page is not available in this version.')).toBeTruthy();
    await router.navigate('/user/no/such/page');
    await waitFor(() => expect(router.location.pathname).toBe('/404'));
  });

  it('opens a menu directory’s path on the first page the member has in it', async () => {
    signIn();
    const { router } = renderApp('/user/account');
    expect(await screen.findByText('Keep going')).toBeTruthy();
    expect(router.location.pathname).toBe('/user/account/overview');
    await router.navigate('/user/survey');
    expect(await screen.findByText('Coffee habits')).toBeTruthy();
    expect(router.location.pathname).toBe('/user/survey/tasks');
  });

  it('opens an iframe menu inside the centre', async () => {
    signIn();
    const { router } = renderApp('/user/account/overview');
    fireEvent.click(await screen.findByRole('link', { name: 'Help centre' }));
    await waitFor(() => expect(router.location.pathname).toBe('/user/iframe/https%3A%2F%2Fexample.com%2Fhelp'));
    await screen.findAllByTitle('https://example.com/help');
    expect(document.querySelector('iframe')?.getAttribute('src')).toBe('https://example.com/help');
  });

  it('logs out from the member menu', async () => {
    signIn();
    let body: unknown;
    server.use(
      http.post('/api/user/logout', async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    const { router } = renderApp('/user');
    fireEvent.click(await screen.findByRole('button', { name: /\(my account\)$/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.location.pathname).toBe('/user/login'));
    expect(body).toEqual({ refreshToken: 'uref' });
    expect(readUserInfo()).toBeUndefined();
  });
});

describe('registering and retrieving a password on the login page', () => {
  it('registers with a code sent by SMS, and shows a wrong code on its field', async () => {
    const sent: unknown[] = [];
    let registered: Record<string, unknown> | undefined;
    server.use(
      http.post('/api/Sms/send', async ({ request }) => {
        sent.push(await request.json());
        return ok(null, 'SMS sent successfully');
      }),
      http.post('/api/user/checkIn', async ({ request }) => {
        registered = (await request.json()) as Record<string, unknown>;
        return registered.captcha === '0000' ? fail('Please enter the correct verification code', 0, { field: 'captcha' }) : ok({ userInfo: member, routePath: '/user' }, 'Login succeeded!');
      }),
    );
    const { router } = renderApp('/user/login');
    fireEvent.click(await screen.findByRole('link', { name: 'Create an account' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
    // The form waits for the ways the site can deliver a code: here only SMS, so the mobile number, no choice.
    const form = await screen.findByRole('form', { name: 'Create your account' });
    expect(within(form).queryByRole('radio')).toBeNull();
    expect(within(form).queryByLabelText('Email')).toBeNull();
    // the rules show up front, under their fields
    expect(within(form).getByText('3 to 15 characters (letters, digits, _), a letter first')).toBeTruthy();
    expect(within(form).getByLabelText('Password').getAttribute('aria-describedby')).toBe('account-password-error');
    expect(document.getElementById('account-password-error')?.textContent).toBe('6 to 32 characters, without & < > " \'');
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('Please enter a username')).toBeTruthy();
    expect(within(form).getByText('Please enter a password')).toBeTruthy();

    // every broken rule at once, before any code is asked or anything sent
    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: '9lives' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'a<b' } });
    fireEvent.change(within(form).getByLabelText('Mobile number'), { target: { value: '1234' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('The username is 3 to 15 characters: a letter first, then letters, digits or _')).toBeTruthy();
    expect(within(form).getByText('The password requires 6 to 32 characters and cannot contain & < > " \'')).toBeTruthy();
    expect(within(form).getByText('Please enter a valid mobile number: 11 digits starting with 1')).toBeTruthy();
    expect(within(form).getByText('Please enter the verification code')).toBeTruthy();
    for (const label of ['Username', 'Password', 'Mobile number', 'Verification code']) expect(within(form).getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    // a code is not sent to a number that cannot be one
    fireEvent.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(registered).toBeUndefined();

    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'newbie' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.change(await within(form).findByLabelText('Mobile number'), { target: { value: '13800138000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send code' }));
    await solveCaptcha();
    expect(await within(form).findByText('SMS sent successfully', undefined, { timeout: 3000 })).toBeTruthy();
    expect(sent).toEqual([{ mobile: '13800138000', template_code: 'user_register', event: 'user_register', ...SOLVED }]);
    expect(within(form).getByRole('button', { name: /Resend in \d+ s/ })).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('Verification code'), { target: { value: '0000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('Please enter the correct verification code')).toBeTruthy();
    expect(within(form).getByLabelText('Verification code').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(within(form).getByLabelText('Verification code'), { target: { value: '4821' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(router.location.pathname).toBe('/user/survey/tasks'));
    expect(registered).toEqual({ tab: 'register', registerType: 'mobile', username: 'newbie', password: 'Secret_123', mobile: '13800138000', captcha: '4821' });
    expect(readUserInfo()).toMatchObject({ id: 7, token: 'utok' });
  });

  it('says so instead of a form when the site can deliver no code and registration needs one', async () => {
    server.use(http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [], registerWithoutCode: false })));
    renderApp('/user/login?tab=register');
    expect((await screen.findByRole('alert')).textContent).toBe('No way to send a verification code is set up on this site yet. Please contact the site administrator.');
    expect(screen.queryByRole('form', { name: 'Create your account' })).toBeNull();
  });

  it('registers without a code where the site allows it, after the click captcha the form announces, whatever the login captcha switch says', async () => {
    let registered: Record<string, unknown> | undefined;
    server.use(
      http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [], registerWithoutCode: true })),
      http.post('/api/user/checkIn', async ({ request }) => {
        registered = (await request.json()) as Record<string, unknown>;
        return ok({ userInfo: member, routePath: '/user' }, 'Login succeeded!');
      }),
    );
    const { router } = renderApp('/user/login?tab=register');
    const form = await screen.findByRole('form', { name: 'Create your account' });
    expect(form.getAttribute('aria-describedby')).toBe('register-without-code');
    // the member login's captcha switch is off here, but registering without a code asks the click captcha all the same, and the form says so
    expect(document.getElementById('register-without-code')?.textContent).toBe(
      'No code by mail or SMS is needed: you solve a click captcha when you register, and can bind an email address or mobile number in your profile afterwards.',
    );
    expect(within(form).queryByLabelText('Verification code')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('Please enter a username')).toBeTruthy();
    expect(within(form).getByText('Please enter a password')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'newbie' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    await solveCaptcha();
    await waitFor(() => expect(router.location.pathname).toBe('/user/survey/tasks'), { timeout: 3000 });
    expect(registered).toEqual({ tab: 'register', username: 'newbie', password: 'Secret_123', ...SOLVED });
  });

  it('sets a new password with a code and comes back to the login', async () => {
    let body: unknown;
    server.use(
      http.post('/api/Sms/send', () => ok(null, 'SMS sent successfully')),
      http.post('/api/account/retrievePassword', async ({ request }) => {
        body = await request.json();
        return ok(null, 'Password has been changed~');
      }),
    );
    const { router } = renderApp('/user/login?tab=retrieve');
    const form = await screen.findByRole('form', { name: 'Reset your password' });
    fireEvent.change(await within(form).findByLabelText('Mobile number'), { target: { value: '13800138000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send code' }));
    await solveCaptcha();
    await within(form).findByText('SMS sent successfully', undefined, { timeout: 3000 });
    fireEvent.change(within(form).getByLabelText('Verification code'), { target: { value: '1234' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'Fresh_pass1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password has been changed~')).toBeTruthy();
    expect(body).toEqual({ type: 'mobile', account: '13800138000', captcha: '1234', password: 'Fresh_pass1' });
    // The query goes in a transition, drawn just after the message.
    await waitFor(() => expect(router.location.search).toBe(''));
    expect(await screen.findByRole('heading', { name: 'Member Login' })).toBeTruthy();
  });
});
