// @vitest-environment jsdom
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { HttpError } from 'ra-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { createHttpClient } from '../../../src/client/http/http-client.js';
import { readAdminInfo, readSession } from '../../../src/client/http/session.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import type { AdminBootstrap, MenuRule } from '../../../src/client/providers/admin-bootstrap.js';
import { createAdminAuthProvider } from '../../../src/client/providers/auth-provider.js';
import { allows, clearPermissions, permissionsLoaded } from '../../../src/client/providers/permissions.js';

const API = '/chidaoadminstator.php';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  clearPermissions();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function button(id: number, name: string): MenuRule {
  return { id, pid: 1, type: 'button', title: name, name, path: '', icon: '', menu_type: null, url: '', component: '', keepalive: 0, extend: 'none' };
}

function bootstrap(isSuper: boolean): AdminBootstrap {
  return {
    adminInfo: { id: 2, username: 'ops', nickname: 'Ops', avatar: '/static/images/avatar.png', last_login_time: '2024-06-01 10:00:00', super: isSuper },
    menus: [{ ...button(1, 'auth/admin'), type: 'menu', pid: 0, path: 'auth/admin', menu_type: 'tab', children: [button(2, 'auth/admin/index'), button(3, 'auth/admin/edit')] }],
    siteConfig: { siteName: 'Site', version: 'v1.0.0', cdnUrl: '//localhost', apiUrl: 'https://buildadmin.com', upload: { maxSize: 1, saveName: '', allowedSuffixes: 'png', allowedMimeTypes: [], mode: 'local' } },
    terminal: { phpDevelopmentServer: false, npmPackageManager: 'npm' },
  };
}

function ok(data: unknown, msg = '') {
  return HttpResponse.json({ code: 1, msg, time: 0, data });
}

function setup() {
  const notify = vi.fn();
  const navigate = vi.fn();
  const client = createHttpClient({ navigate, notify, translate: createTranslate(enHttp), currentPath: () => '/chidaoadminstator/login' });
  return { auth: createAdminAuthProvider(client), notify, navigate };
}

function signIn(extra: Record<string, unknown> = {}) {
  localStorage.setItem('adminInfo', JSON.stringify({ id: 2, username: 'ops', nickname: 'Ops', token: 'tok', refresh_token: 'ref', super: false, ...extra }));
}

describe('login and logout', () => {
  it('login posts the credentials and stores adminInfo with the tokens', async () => {
    localStorage.setItem('adminInfo', JSON.stringify({ id: 9, username: 'previous', token: 'x', super: true }));
    let body: unknown;
    server.use(
      http.post(`${API}/Index/login`, async ({ request }) => {
        body = await request.json();
        return ok({ userInfo: { id: 2, username: 'ops', nickname: 'Ops', avatar: '/a.png', last_login_time: '', token: 'tok', refresh_token: 'ref' } }, 'Login succeeded!');
      }),
    );
    const { auth } = setup();
    await auth.login({ username: 'ops', password: 'secret12', keep: true, captchaId: 'c1', captchaInfo: '1,2;3;4' });
    // `bootstrap: true` (ours) asks for the back office's bootstrap in the same answer; `twoFactor: 1` says
    // this client can ask for a one-time code (docs/two-factor.md).
    expect(body).toEqual({ username: 'ops', password: 'secret12', keep: true, captchaId: 'c1', captchaInfo: '1,2;3;4', bootstrap: true, twoFactor: 1 });
    expect(readAdminInfo()).toEqual({ id: 2, username: 'ops', nickname: 'Ops', avatar: '/a.png', last_login_time: '', token: 'tok', refresh_token: 'ref', super: false });
  });

  it('the bootstrap a login answered with is the next bootstrap load, once, with no request; later loads ask the server', async () => {
    const index = vi.fn(() => ok(bootstrap(false)));
    server.use(
      http.post(`${API}/Index/login`, () => ok({ userInfo: { id: 2, username: 'ops', nickname: 'Ops', avatar: '', last_login_time: '', token: 'tok', refresh_token: 'ref' }, bootstrap: bootstrap(true) })),
      http.get(`${API}/Index/index`, index),
    );
    const { auth } = setup();
    // The login page's provider logs in; the back office's (another instance) loads the bootstrap.
    await auth.login({ username: 'ops', password: 'secret12' });
    const { auth: backOffice } = setup();
    const carried = await backOffice.loadBootstrap();
    expect(index).not.toHaveBeenCalled();
    expect(carried.adminInfo.super).toBe(true);
    expect(readAdminInfo()).toMatchObject({ token: 'tok', super: true });
    expect(permissionsLoaded()).toBe(true);
    expect((await backOffice.loadBootstrap()).adminInfo.super).toBe(false);
    expect(index).toHaveBeenCalledOnce();
  });

  it('a bootstrap carried by a login is dropped when the session ends before it is used', async () => {
    const index = vi.fn(() => ok(bootstrap(false)));
    server.use(
      http.post(`${API}/Index/login`, () => ok({ userInfo: { id: 2, username: 'ops', nickname: 'Ops', avatar: '', last_login_time: '', token: 'tok', refresh_token: 'ref' }, bootstrap: bootstrap(true) })),
      http.post(`${API}/Index/logout`, () => ok(null)),
      http.get(`${API}/Index/index`, index),
    );
    const { auth } = setup();
    await auth.login({ username: 'ops', password: 'secret12' });
    await auth.logout({});
    signIn();
    expect((await auth.loadBootstrap()).adminInfo.super).toBe(false);
    expect(index).toHaveBeenCalledOnce();
  });

  it('a failed login rejects with the server message, untoasted, and stores nothing', async () => {
    server.use(http.post(`${API}/Index/login`, () => HttpResponse.json({ code: 0, msg: 'Wrong password', time: 0, data: null })));
    const { auth, notify } = setup();
    const error = await auth.login({ username: 'ops', password: 'badpass' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('Wrong password');
    expect(notify).not.toHaveBeenCalled();
    expect(localStorage.getItem('adminInfo')).toBeNull();
  });

  it('logout posts the refresh token, then forgets the session and the permissions', async () => {
    signIn();
    const seen: { body: unknown; token: string | null }[] = [];
    server.use(
      http.get(`${API}/Index/index`, () => ok(bootstrap(false))),
      http.post(`${API}/Index/logout`, async ({ request }) => (seen.push({ body: await request.json(), token: request.headers.get('batoken') }), ok(null))),
    );
    const { auth } = setup();
    await auth.loadBootstrap();
    expect(permissionsLoaded()).toBe(true);
    await auth.logout({});
    expect(seen).toEqual([{ body: { refreshToken: 'ref' }, token: 'tok' }]);
    expect(localStorage.getItem('adminInfo')).toBeNull();
    expect(permissionsLoaded()).toBe(false);
  });

  it('logout without a session calls nothing, and a failing logout still signs out', async () => {
    const logout = vi.fn(() => HttpResponse.error());
    server.use(http.post(`${API}/Index/logout`, logout));
    const { auth, notify } = setup();
    await auth.logout({});
    expect(logout).not.toHaveBeenCalled();
    signIn();
    await auth.logout({});
    expect(logout).toHaveBeenCalledOnce();
    expect(readSession('admin').token).toBe('');
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('checks', () => {
  it('checkAuth needs a token and rejects without a toast message', async () => {
    const { auth } = setup();
    await expect(auth.checkAuth({})).rejects.toEqual({ message: false });
    signIn();
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError keeps the admin signed in on business 401 and other errors', async () => {
    signIn();
    const { auth } = setup();
    await expect(auth.checkError(new HttpError('You have no permission to operate', 200, { code: 401, msg: 'x', data: [] }))).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError('Server internal error!', 500, { code: 0, msg: 'x' }))).resolves.toBeUndefined();
  });

  it('checkError logs out on "need login" with its message, and silently once the session is gone', async () => {
    signIn();
    const { auth } = setup();
    await expect(auth.checkError(new HttpError('Please login first', 200, { code: 303, msg: 'Please login first', data: { type: 'need login' } }))).rejects.toEqual({
      message: 'Please login first',
    });
    localStorage.clear();
    await expect(auth.checkError(new HttpError('Login expired', 200, { code: 0, msg: 'Login expired' }))).rejects.toEqual({ message: false });
  });

  it('getIdentity reads adminInfo', async () => {
    const { auth } = setup();
    await expect(auth.getIdentity?.()).rejects.toThrow();
    signIn({ avatar: '/a.png' });
    await expect(auth.getIdentity?.()).resolves.toEqual({ id: 2, fullName: 'Ops', avatar: '/a.png', username: 'ops', super: false });
  });
});

describe('bootstrap and canAccess', () => {
  it('loadBootstrap stores super and the permission nodes, keeping the tokens', async () => {
    signIn();
    server.use(http.get(`${API}/Index/index`, () => ok(bootstrap(false))));
    const { auth } = setup();
    const data = await auth.loadBootstrap();
    expect(data.siteConfig.siteName).toBe('Site');
    expect(readAdminInfo()).toMatchObject({ id: 2, token: 'tok', refresh_token: 'ref', super: false, last_login_time: '2024-06-01 10:00:00' });
    expect(allows('auth/admin/edit')).toBe(true);
    expect(await auth.canAccess?.({ resource: 'auth/admin', action: 'list' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'auth/admin', action: 'edit' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'auth/admin', action: 'delete' })).toBe(false);
  });

  it('canAccess fetches the bootstrap once when a deep link comes first', async () => {
    signIn();
    const index = vi.fn(() => ok(bootstrap(true)));
    server.use(http.get(`${API}/Index/index`, index));
    const { auth } = setup();
    const answers = await Promise.all([auth.canAccess?.({ resource: 'auth/rule', action: 'delete' }), auth.canAccess?.({ resource: 'auth/group', action: 'list' })]);
    expect(answers).toEqual([true, true]);
    expect(index).toHaveBeenCalledOnce();
    expect(readAdminInfo()?.super).toBe(true);
  });

  it('canAccess is false without a session or when the bootstrap fails', async () => {
    const index = vi.fn(() => HttpResponse.json({ code: 0, msg: 'No background menu, please contact super administrator!', time: 0, data: null }));
    server.use(http.get(`${API}/Index/index`, index));
    const { auth } = setup();
    expect(await auth.canAccess?.({ resource: 'auth/admin', action: 'list' })).toBe(false);
    expect(index).not.toHaveBeenCalled();
    signIn();
    expect(await auth.canAccess?.({ resource: 'auth/admin', action: 'list' })).toBe(false);
    expect(index).toHaveBeenCalledOnce();
  });
});
