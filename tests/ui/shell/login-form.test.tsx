// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminLoginPage } from '../../../src/client/admin/login/AdminLoginPage.js';
import { createAdminLoginApi } from '../../../src/client/admin/login/login-api.js';
import { readAdminInfo } from '../../../src/client/http/session.js';
import { renderInRouter } from './render-app.js';
import { ADMIN_API, fail, http, imagesRenderedAt, ok, PUZZLE, testClient, useEnglish } from './support.js';

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

/** The login page inside the app's kind of router; `state` is what react-admin passes when it sends someone to log in. */
function renderLogin(state?: unknown) {
  const { client, notify } = testClient('/chidaoadminstator/login');
  const { router } = renderInRouter(
    <Routes>
      <Route path="/chidaoadminstator/login" element={<AdminLoginPage api={createAdminLoginApi(client)} />} />
      <Route path="/chidaoadminstator/*" element={<Where />} />
    </Routes>,
    { pathname: '/chidaoadminstator/login', state },
  );
  return { router, notify };
}

const userInfo = { id: 1, username: 'admin', nickname: 'Admin', avatar: '/static/images/avatar.png', last_login_time: '', token: 'tok', refresh_token: 'ref' };

async function fill(username: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

describe('admin login page', () => {
  it('is titled "Login"', async () => {
    server.use(http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })));
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Login'));
  });

  it('checks the account and password rules before sending anything', async () => {
    const posted = vi.fn();
    server.use(
      http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })),
      http.post(`${ADMIN_API}/Index/login`, () => {
        posted();
        return ok({ userInfo });
      }),
    );
    renderLogin();
    await screen.findByLabelText('Username');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Please enter your username')).toBeTruthy();
    expect(screen.getByText('Please enter your password')).toBeTruthy();

    await fill('1admin', 'abc<def');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('The account requires 3 to 15 characters, starts with a letter and contains only letters, digits and underscores')).toBeTruthy();
    expect(screen.getByText('The password requires 6 to 32 characters and cannot contain & < > " \'')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');

    await fill('ad', '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(/The account requires 3 to 15 characters/)).toBeTruthy();
    expect(screen.getByText(/The password requires 6 to 32 characters/)).toBeTruthy();
    expect(posted).not.toHaveBeenCalled();
  });

  it('without a captcha: sends keep, stores adminInfo and loads the menus before the page that was asked for', async () => {
    let body: Record<string, unknown> | undefined;
    server.use(
      http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })),
      http.post(`${ADMIN_API}/Index/login`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ userInfo }, 'Login succeeded!');
      }),
    );
    const { router } = renderLogin({ nextPathname: '/chidaoadminstator/user/user', nextSearch: '?page=2' });
    await fill('admin', 'Admin_pass1');
    fireEvent.click(screen.getByLabelText('Remember me'));
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/loading/%2Fuser%2Fuser%3Fpage%3D2'));
    expect(body).toMatchObject({ username: 'admin', password: 'Admin_pass1', keep: true });
    expect(readAdminInfo()).toMatchObject({ id: 1, username: 'admin', token: 'tok', refresh_token: 'ref', super: false });
  });

  it('goes to the plain loading route (first menu) when nothing was asked for', async () => {
    server.use(
      http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })),
      http.post(`${ADMIN_API}/Index/login`, () => ok({ userInfo })),
    );
    const { router } = renderLogin();
    await fill('admin', 'Admin_pass1');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/loading'));
  });

  it('shows the server message when the login is refused', async () => {
    server.use(
      http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })),
      http.post(`${ADMIN_API}/Index/login`, () => fail('Wrong password')),
    );
    const { router, notify } = renderLogin();
    await fill('admin', 'Admin_pass2');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong password');
    expect(router.location.pathname).toBe('/chidaoadminstator/login');
    expect(notify).not.toHaveBeenCalled();
    expect(readAdminInfo()).toBeUndefined();
  });

  it('with a captcha: asks for the clicks first and sends their answer with the login', async () => {
    let body: Record<string, unknown> | undefined;
    let puzzleId = '';
    let stateAnswers = 0;
    server.use(
      http.get(`${ADMIN_API}/Index/login`, () => {
        stateAnswers += 1;
        return ok({ captcha: true });
      }),
      http.get('/api/common/clickCaptcha', ({ request }) => {
        puzzleId = new URL(request.url).searchParams.get('id') ?? '';
        return ok({ ...PUZZLE, id: puzzleId });
      }),
      http.post('/api/common/checkClickCaptcha', () => ok(null, 'Verification is successful!')),
      http.post(`${ADMIN_API}/Index/login`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ userInfo });
      }),
    );
    imagesRenderedAt({ left: 20, top: 30, width: 350, height: 200 });
    const { router } = renderLogin();
    await fill('admin', 'Admin_pass1');
    // The server has answered that a captcha is needed (the form asks for one until it hears otherwise).
    await waitFor(() => expect(stateAnswers).toBe(1));
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const image = await screen.findByRole('img', { name: 'Click captcha' });
    expect(body).toBeUndefined();
    fireEvent.click(image, { clientX: 70, clientY: 80 });
    fireEvent.click(image, { clientX: 220, clientY: 180 });

    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/loading'));
    expect(body).toMatchObject({ username: 'admin', keep: false, captchaId: puzzleId, captchaInfo: '50,50-200,150;350;200' });
  });
});
