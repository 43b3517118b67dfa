// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readUserInfo } from '../../../src/client/http/session.js';
import { setMemberBootstrap } from '../../../src/client/member/shell/member-bootstrap.js';
import type { MemberRule } from '../../../src/client/providers/member-bootstrap.js';
import { renderApp } from '../shell/render-app.js';
import { fail, http, ok, useEnglish } from '../shell/support.js';

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
    http.get('/api/account/getUserData', () => ok({ today: { money: '1.50', completes: 1 }, month: { money: '9.25', completes: 4 }, total: { money: '20.00', completes: 9 }, balance: '12.50', score: 30 })),
    http.get('/api/account/getUserCharts', () => ok({ days: ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'], money: ['0.00', '0.00', '2.00', '0.00', '5.75', '0.00', '1.50'], completes: [0, 0, 1, 0, 2, 0, 1] })),
    http.get('/api/account/profile', () => ok({ accountVerificationType: ['email', 'mobile'] })),
    http.get('/api/account/pendingCredits', () => ok({ list: [], total: 0, money: '0.00', score: 0 })),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
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
    expect(calls).toEqual(['index?requiredLogin=1']);
    const menu = screen.getByRole('navigation', { name: 'Member menu' });
    // Titles of the rules in the chosen language, the stored title for a rule the pack does not name.
    for (const name of ['Surveys', 'Available surveys', 'Ranking', 'My account', 'Overview', 'Balance log', 'Custom page', 'Team members']) expect(within(menu).getByText(name)).toBeTruthy();
    expect(screen.getByTestId('member-name').textContent).toBe('Amy');
    await waitFor(() => expect(document.title).toBe('Available surveys - Panel'));
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

  it('shows the overview: the member, the figures and the 7-day chart', async () => {
    signIn();
    renderApp('/user/account/overview');
    expect(await screen.findByText('Welcome back, Amy')).toBeTruthy();
    expect(screen.getByTestId('stat-balance').textContent).toBe('Balance¥12.50');
    expect((await screen.findByTestId('earned-month')).textContent).toBe('This month¥9.254 completes');
    expect(screen.getByRole('img', { name: 'Your earnings' })).toBeTruthy();
  });

  it('shows what is pending beside the available balance, each credit with the day it becomes available', async () => {
    signIn();
    // 2026-12-01 06:30 UTC: 14:30 on the site's clock (Asia/Shanghai).
    const releaseAt = Date.UTC(2026, 11, 1, 6, 30) / 1000;
    const credit = { release_at: releaseAt, memo: 'Survey reward: #3 Coffee habits', create_time: releaseAt - 7 * 86_400 };
    server.use(
      http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '', timeZone: 'Asia/Shanghai' }, openMemberCenter: true, userInfo: member, rules: [], menus: MENUS })),
      http.get('/api/account/pendingCredits', ({ request }) => {
        expect(new URL(request.url).searchParams.get('limit')).toBe('5');
        return ok({ list: [{ id: 1, kind: 'money', money: '20.00', ...credit }, { id: 2, kind: 'score', score: 10, ...credit }], total: 7, money: '26.00', score: 10 });
      }),
    );
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-pending')).textContent).toBe('Pending¥26.00 + 10 points');
    expect(screen.getByTestId('stat-balance').textContent).toBe('Available balance¥12.50');
    const list = screen.getByRole('region', { name: 'Pending credits' });
    expect(within(list).getAllByTestId('pending-credit').map((item) => item.textContent)).toEqual([
      '¥20.00Survey reward: #3 Coffee habitsAvailable from 2026-12-01 14:30',
      '10 pointsSurvey reward: #3 Coffee habitsAvailable from 2026-12-01 14:30',
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
      http.post('/api/common/checkClickCaptcha', () => ok(null)),
    );
    renderApp('/user/account/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Bind' }));
    let dialog = await screen.findByRole('dialog', { name: 'Bind Mobile' });
    fireEvent.change(within(dialog).getByLabelText('Login password'), { target: { value: 'wrong' } });
    fireEvent.change(within(dialog).getByLabelText('New Mobile'), { target: { value: '13900139000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(sent).toEqual([{ mobile: '13900139000', template_code: 'user_change_mobile', event: 'user_change_mobile' }]));
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
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: 'AB3D' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.change(await within(dialog).findByLabelText('New Email'), { target: { value: 'amy@new.example' } });
    fireEvent.change(within(dialog).getByLabelText('Verification code'), { target: { value: 'CD5E' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('bound-email').textContent).toBe('amy@new.example'));
    expect(bound[2]).toEqual({ type: 'email', email: 'amy@new.example', captcha: 'CD5E', accountVerificationToken: 'pass-1' });
  });

  it('lets a team leader add a member, with the server’s refusal on its field', async () => {
    signIn();
    const team = [{ id: 31, username: 'mate', nickname: 'Mate', money: '3.00', completes: 4, earnings: '6.00', join_time: 0 }];
    let added: Record<string, unknown> | undefined;
    server.use(
      http.get('/api/team.team/getTeamList', () => ok({ team: { id: 2, name: 'Blue' }, list: team, total: team.length })),
      http.post('/api/team.team/AddTeamUser', async ({ request }) => {
        added = (await request.json()) as Record<string, unknown>;
        if (added.username === 'mate') return fail('Username already exists', 0, { field: 'username' });
        team.unshift({ id: 32, username: String(added.username), nickname: String(added.nickname), money: '0.00', completes: 0, earnings: '0.00', join_time: 0 });
        return ok({ id: 32 }, 'Added successfully!');
      }),
    );
    renderApp('/user/team/members');
    expect(await screen.findByText('Team: Blue')).toBeTruthy();
    expect(screen.getByRole('row', { name: /mate Mate 4 ¥6.00/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'mate' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Fresh_pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Username already exists')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'rookie' } });
    fireEvent.change(within(dialog).getByLabelText('Nickname'), { target: { value: 'Rookie' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('rookie')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(added).toEqual({ username: 'rookie', nickname: 'Rookie', password: 'Fresh_pass1' });
  });

  it('changes the password: checks the fields, shows the server’s refusal, then ends the session', async () => {
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
  });

  it('tells a member who leads no team just that: no search, no list, no add button', async () => {
    signIn();
    const refusal = 'You do not lead a team: only a team leader sees and manages its members';
    server.use(http.get('/api/team.team/getTeamList', () => fail(refusal, 0, { type: 'no team' })));
    renderApp('/user/team/members');
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Username or nickname' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Search' })).toBeNull();
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
    fireEvent.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('Please enter a username')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'newbie' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.change(await within(form).findByLabelText('Mobile number'), { target: { value: '13800138000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByText('SMS sent successfully')).toBeTruthy();
    expect(sent).toEqual([{ mobile: '13800138000', template_code: 'user_register', event: 'user_register' }]);
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

  it('says so instead of a form when the site can deliver no code', async () => {
    server.use(http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })));
    renderApp('/user/login?tab=register');
    expect((await screen.findByRole('alert')).textContent).toBe('No way to send a verification code is set up on this site yet. Please contact the site administrator.');
    expect(screen.queryByRole('form', { name: 'Create your account' })).toBeNull();
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
    await within(form).findByText('SMS sent successfully');
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
