// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readUserInfo } from '../../../src/client/http/session.js';
import { MemberHome } from '../../../src/client/member/MemberHome.js';
import { MemberLoginPage } from '../../../src/client/member/login/MemberLoginPage.js';
import { createMemberApi } from '../../../src/client/member/login/member-api.js';
import { createSurveyApi } from '../../../src/client/pages/survey/survey-api.js';
import { fail, http, ok, testClient, useEnglish } from './support.js';

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  // The landing lists the surveys open to the member.
  server.use(
    http.get('/api/paymentuser/payment', () => ok({ details: { payment: '', bank: '', bank_name: '', bank_address: '', bank_num: '', zhifubao_name: '', zhifubao: '' } })),
    http.get('/api/account/paymentlog', () => ok({ list: [], total: 0 })),
    http.get('/api/account/getUserData', () => ok({ today: { money: '1.50', completes: 1 }, month: { money: '9.25', completes: 4 }, total: { money: '20.00', completes: 9 }, balance: '12.50', score: 30 })),
    http.get('/api/account/getUserCharts', () => ok({ days: ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'], money: ['0.00', '0.00', '2.00', '0.00', '5.75', '0.00', '1.50'], completes: [0, 0, 1, 0, 2, 0, 1] })),
  );
  server.use(http.get('/api/survey/tasks', () => ok({ list: [{ id: 3, title: 'Coffee habits', description: '', reward_money: '1.50', reward_score: 10, loi_minutes: 9, end_time: null }] })));
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const member = { id: 7, username: 'amy', nickname: 'Amy', email: '', mobile: '', avatar: '/static/images/avatar.png', gender: 0, birthday: null, money: '12.50', score: 30, join_time: 0, motto: '', last_login_time: 0, last_login_ip: '', token: 'utok', refresh_token: '' };

function renderMember(path: string, reload = vi.fn()) {
  const { client } = testClient(path);
  const api = createMemberApi(client);
  const surveys = createSurveyApi(client);
  const router = createMemoryRouter(
    [
      { path: '/user/login', element: <MemberLoginPage api={api} /> },
      { path: '/user', element: <MemberHome api={api} surveys={surveys} reload={reload} /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, reload };
}

describe('member login', () => {
  it('is titled "Member Login", checks the fields, and signs in through checkIn', async () => {
    let body: Record<string, unknown> | undefined;
    server.use(
      http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })),
      http.post('/api/user/checkIn', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ userInfo: member, routePath: '/user' }, 'Login succeeded!');
      }),
    );
    const { router } = renderMember('/user/login');
    expect(await screen.findByRole('heading', { name: 'Member Login' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Please enter your username, email or mobile number')).toBeTruthy();
    expect(body).toBeUndefined();

    fireEvent.change(screen.getByLabelText('Username / email / mobile'), { target: { value: 'amy@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(body).toEqual({ tab: 'login', username: 'amy@example.com', password: 'Secret_123', keep: false });
    expect(readUserInfo()).toMatchObject({ id: 7, token: 'utok' });
    expect(await screen.findByText('Welcome back, Amy')).toBeTruthy();
    expect(screen.getByText('12.50')).toBeTruthy();
    expect(await screen.findByText('Coffee habits')).toBeTruthy();
    expect((await screen.findByTestId('earned-month')).textContent).toBe('This month¥9.254 completes');
    expect(screen.getByRole('img', { name: 'Your earnings' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start' }).getAttribute('href')).toBe('/interface?id=3');
  });

  it('shows the refusal from the server', async () => {
    server.use(
      http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })),
      http.post('/api/user/checkIn', () => fail('Account not exist')),
    );
    renderMember('/user/login');
    fireEvent.change(await screen.findByLabelText('Username / email / mobile'), { target: { value: 'nobody' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret_123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Account not exist');
  });

  it('the landing sends strangers to the login, and logout clears the member and reloads', async () => {
    server.use(http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })));
    const first = renderMember('/user');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/user/login'));
    cleanup();

    localStorage.setItem('userInfo', JSON.stringify({ ...member, refresh_token: 'uref' }));
    let logoutBody: unknown;
    server.use(
      http.post('/api/user/logout', async ({ request }) => {
        logoutBody = await request.json();
        return ok(null);
      }),
    );
    const { reload } = renderMember('/user');
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(logoutBody).toEqual({ refreshToken: 'uref' });
    expect(readUserInfo()).toBeUndefined();
  });
});
