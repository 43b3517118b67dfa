// @vitest-environment jsdom
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { HttpError } from 'ra-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { buildUrl, createHttpClient, rewritePath, type HttpClientOptions } from '../../../src/client/http/http-client.js';
import { readSession } from '../../../src/client/http/session.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';

const ADMIN_API = '/chidaoadminstator.php';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', token: 'old-admin', refresh_token: 'refresh-admin', super: true }));
});
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
afterAll(() => server.close());

function envelope(data: unknown, code = 1, msg = '') {
  return HttpResponse.json({ code, msg, time: 1717000000, data });
}

function setup(options: Partial<HttpClientOptions> & { path?: string } = {}) {
  const navigate = vi.fn<(to: string) => void>();
  const notify = vi.fn<(message: string, type: 'success' | 'error' | 'info') => void>();
  let path = options.path ?? '/chidaoadminstator/auth/admin';
  const client = createHttpClient({
    navigate,
    notify,
    translate: createTranslate(enHttp),
    currentPath: () => path,
    ...options,
  });
  return { client, navigate, notify, setPath: (next: string) => (path = next) };
}

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected the request to fail');
}

describe('urls', () => {
  it('rewrites /admin/ paths to the admin entrance and leaves /api/ alone', () => {
    expect(rewritePath('/admin/auth.Admin/index')).toBe('/chidaoadminstator.php/auth.Admin/index');
    expect(rewritePath('/admin/Index/login', '/manage')).toBe('/manage.php/Index/login');
    expect(rewritePath('/api/common/clickCaptcha')).toBe('/api/common/clickCaptcha');
    expect(rewritePath('/administrator/x')).toBe('/administrator/x');
  });

  it('appends PHP bracket query strings', () => {
    expect(buildUrl('/admin/auth.Admin/del', { ids: [3, 4] })).toBe(`${ADMIN_API}/auth.Admin/del?ids[]=3&ids[]=4`);
    expect(buildUrl('/admin/a/edit?id=1', { x: 'a b' })).toBe(`${ADMIN_API}/a/edit?id=1&x=a+b`);
    expect(buildUrl('/api/x', {})).toBe('/api/x');
  });
});

describe('requests and headers', () => {
  it('resolves code 1 with the envelope, sending think-lang, server, the client marker and batoken on the rewritten URL', async () => {
    let seen: Request | undefined;
    server.use(
      http.get(`${ADMIN_API}/auth.Admin/index`, ({ request }) => {
        seen = request;
        return envelope({ list: [], total: 0 });
      }),
    );
    const { client, notify } = setup();
    const response = await client.request('/admin/auth.Admin/index', { params: { page: 2, search: [{ field: 'status', val: '1', operator: '=' }] } });
    expect(response).toEqual({ code: 1, msg: '', time: 1717000000, data: { list: [], total: 0 } });
    const url = new URL(seen?.url ?? '');
    expect(decodeURIComponent(url.search)).toBe('?page=2&search[0][field]=status&search[0][val]=1&search[0][operator]==');
    expect(seen?.headers.get('think-lang')).toBe('zh-cn');
    expect(seen?.headers.get('server')).toBe('true');
    // the marker that tells our client from BuildAdmin's
    expect(seen?.headers.get('chidao-client')).toBe('chidao');
    expect(seen?.headers.get('batoken')).toBe('old-admin');
    expect(seen?.headers.get('ba-user-token')).toBeNull();
    expect(notify).not.toHaveBeenCalled();
  });

  it('sends the stored language and JSON bodies', async () => {
    localStorage.setItem('storeConfig_v2', JSON.stringify({ layout: {}, lang: { defaultLang: 'en' } }));
    let seen: { lang: string | null; type: string | null; body: unknown; method: string } | undefined;
    server.use(
      http.post(`${ADMIN_API}/auth.Admin/edit`, async ({ request }) => {
        seen = { lang: request.headers.get('think-lang'), type: request.headers.get('content-type'), body: await request.json(), method: request.method };
        return envelope(null);
      }),
    );
    await setup().client.request('/admin/auth.Admin/edit', { method: 'POST', data: { id: 1, nickname: 'A' } });
    expect(seen).toEqual({ lang: 'en', type: 'application/json', body: { id: 1, nickname: 'A' }, method: 'POST' });
  });

  it('uses ba-user-token (and no batoken) in the member area, or when asked for explicitly', async () => {
    localStorage.setItem('userInfo', JSON.stringify({ id: 7, token: 'member-token', refresh_token: '' }));
    const tokens: [string | null, string | null][] = [];
    server.use(
      http.get('/api/account/profile', ({ request }) => {
        tokens.push([request.headers.get('batoken'), request.headers.get('ba-user-token')]);
        return envelope({});
      }),
    );
    await setup({ path: '/user/account/profile' }).client.request('/api/account/profile');
    await setup().client.request('/api/account/profile', { area: 'user' });
    await setup({ path: '/user' }).client.request('/api/account/profile', { area: 'admin' });
    expect(tokens).toEqual([
      [null, 'member-token'],
      [null, 'member-token'],
      ['old-admin', null],
    ]);
  });

  it('sends no token header when the area has no session', async () => {
    localStorage.clear();
    let headers: Headers | undefined;
    server.use(http.get('/api/index/index', ({ request }) => ((headers = request.headers), envelope({}))));
    await setup({ path: '/user/login' }).client.request('/api/index/index');
    expect(headers?.get('ba-user-token')).toBeNull();
    expect(headers?.get('batoken')).toBeNull();
  });
});

describe('business codes', () => {
  it('code 0 toasts the server msg and rejects with an HttpError carrying the envelope', async () => {
    server.use(http.post(`${ADMIN_API}/auth.Admin/add`, () => envelope(null, 0, 'Username already exists')));
    const { client, notify } = setup();
    const error = await rejection(client.request('/admin/auth.Admin/add', { method: 'POST', data: {} }));
    expect(error.message).toBe('Username already exists');
    expect(error.status).toBe(200);
    expect(error.body).toEqual({ code: 0, msg: 'Username already exists', time: 1717000000, data: null });
    expect(notify).toHaveBeenCalledExactlyOnceWith('Username already exists', 'error');
  });

  it('showErrorMessage:false suppresses the toast but still rejects', async () => {
    server.use(http.post(`${ADMIN_API}/auth.Admin/add`, () => envelope(null, 0, 'Nope')));
    const { client, notify } = setup();
    const error = await rejection(client.request('/admin/auth.Admin/add', { method: 'POST', showErrorMessage: false }));
    expect(error.body.code).toBe(0);
    expect(notify).not.toHaveBeenCalled();
  });

  it('business 401 toasts and rejects without navigating', async () => {
    server.use(http.get(`${ADMIN_API}/auth.Admin/index`, () => envelope([], 401, 'You have no permission to operate')));
    const { client, notify, navigate } = setup();
    const error = await rejection(client.request('/admin/auth.Admin/index'));
    expect(error.body.code).toBe(401);
    expect(notify).toHaveBeenCalledWith('You have no permission to operate', 'error');
    expect(navigate).not.toHaveBeenCalled();
    expect(readSession('admin').token).toBe('old-admin');
  });

  it('shows success toasts only when asked: the server msg, else "Operation successful", or the given text', async () => {
    let msg = 'Update successful!';
    server.use(http.post(`${ADMIN_API}/x/edit`, () => envelope(null, 1, msg)));
    const { client, notify } = setup();
    await client.request('/admin/x/edit', { method: 'POST' });
    expect(notify).not.toHaveBeenCalled();
    await client.request('/admin/x/edit', { method: 'POST', showSuccessMessage: true });
    expect(notify).toHaveBeenLastCalledWith('Update successful!', 'success');
    msg = '';
    await client.request('/admin/x/edit', { method: 'POST', showSuccessMessage: true });
    expect(notify).toHaveBeenLastCalledWith('Operation successful', 'success');
    await client.request('/admin/x/edit', { method: 'POST', showSuccessMessage: 'Saved' });
    expect(notify).toHaveBeenLastCalledWith('Saved', 'success');
    expect(notify).toHaveBeenCalledTimes(3);
  });

  it('302 navigates to data.routePath (or routeName) and rejects', async () => {
    server.use(
      http.get('/api/a', () => envelope({ routePath: '/user/account/profile' }, 302, '')),
      http.get('/api/b', () => envelope({ routeName: '/user' }, 302, '')),
    );
    const { client, navigate, notify } = setup({ path: '/user/x' });
    const error = await rejection(client.request('/api/a'));
    expect(error.body.code).toBe(302);
    await rejection(client.request('/api/b'));
    expect(navigate.mock.calls).toEqual([['/user/account/profile'], ['/user']]);
    // An empty msg is never toasted.
    expect(notify).not.toHaveBeenCalled();
  });

  it('303 "need login" clears the area token and goes to its login; "logged in" goes to the base', async () => {
    server.use(
      http.get(`${ADMIN_API}/Index/index`, () => envelope({ type: 'need login' }, 303, 'Please login first')),
      http.get(`${ADMIN_API}/Index/login`, () => envelope({ type: 'logged in' }, 303, 'You have already logged in')),
    );
    const { client, navigate, notify } = setup({ path: '/chidaoadminstator/login' });
    await rejection(client.request('/admin/Index/login', { showErrorMessage: false }));
    expect(navigate).toHaveBeenLastCalledWith('/chidaoadminstator');
    expect(readSession('admin').token).toBe('old-admin');
    await rejection(client.request('/admin/Index/index'));
    expect(navigate).toHaveBeenLastCalledWith('/chidaoadminstator/login');
    expect(readSession('admin')).toEqual({ token: '', refreshToken: '' });
    expect(localStorage.getItem('adminInfo')).toBeNull();
    expect(notify).toHaveBeenCalledExactlyOnceWith('Please login first', 'error');
  });

  it('303 in the member area uses /user/login and /user', async () => {
    localStorage.setItem('userInfo', JSON.stringify({ id: 7, token: 'member-token' }));
    server.use(
      http.get('/api/account/profile', () => envelope({ type: 'need login' }, 303, 'Please login first')),
      http.post('/api/user/checkIn', () => envelope({ type: 'logged in' }, 303, '')),
    );
    const { client, navigate } = setup({ path: '/user/account/profile' });
    await rejection(client.request('/api/user/checkIn', { method: 'POST' }));
    expect(navigate).toHaveBeenLastCalledWith('/user');
    await rejection(client.request('/api/account/profile'));
    expect(navigate).toHaveBeenLastCalledWith('/user/login');
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(readSession('admin').token).toBe('old-admin');
  });
});

describe('409 token refresh', () => {
  /** Three endpoints that answer 409 to the stale token and succeed with any other. */
  function expiringEndpoints(area: 'admin' | 'user') {
    const header = area === 'admin' ? 'batoken' : 'ba-user-token';
    const stale = area === 'admin' ? 'old-admin' : 'old-member';
    const seen: { path: string; token: string | null }[] = [];
    const handlers = ['one', 'two', 'three'].map((name) =>
      http.get(area === 'admin' ? `${ADMIN_API}/x/${name}` : `/api/x/${name}`, ({ request }) => {
        const token = request.headers.get(header);
        seen.push({ path: name, token });
        return token === stale ? envelope([], 409, 'Token expiration') : envelope({ name, token });
      }),
    );
    return { seen, handlers };
  }

  it('runs exactly one refresh while three parallel requests wait, then replays all three with the new token', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    const refreshCalls: { body: unknown; batoken: string | null }[] = [];
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', async ({ request }) => {
        refreshCalls.push({ body: await request.json(), batoken: request.headers.get('batoken') });
        await delay(50);
        return envelope({ type: 'admin-refresh', token: 'new-admin' });
      }),
    );
    const { client, notify, navigate } = setup();
    const results = await Promise.all(['one', 'two', 'three'].map((name) => client.request<{ name: string; token: string }>(`/admin/x/${name}`)));
    expect(results.map((result) => result.data)).toEqual([
      { name: 'one', token: 'new-admin' },
      { name: 'two', token: 'new-admin' },
      { name: 'three', token: 'new-admin' },
    ]);
    expect(refreshCalls).toEqual([{ body: { refreshToken: 'refresh-admin' }, batoken: 'old-admin' }]);
    expect(seen.filter((call) => call.token === 'old-admin')).toHaveLength(3);
    expect(seen.filter((call) => call.token === 'new-admin').map((call) => call.path).sort()).toEqual(['one', 'three', 'two']);
    expect(readSession('admin')).toEqual({ token: 'new-admin', refreshToken: 'refresh-admin' });
    expect(notify).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('stores the refresh token the server rotated in, and sends that one the next time', async () => {
    const { handlers } = expiringEndpoints('admin');
    const sent: unknown[] = [];
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', async ({ request }) => {
        sent.push(await request.json());
        return envelope({ type: 'admin-refresh', token: 'new-admin', refresh_token: 'refresh-admin-2' });
      }),
    );
    const { client } = setup();
    await client.request('/admin/x/one');
    expect(readSession('admin')).toEqual({ token: 'new-admin', refreshToken: 'refresh-admin-2' });
    // the next expiry refreshes with the successor
    localStorage.setItem('adminInfo', JSON.stringify({ ...JSON.parse(localStorage.getItem('adminInfo') ?? '{}'), token: 'old-admin' }));
    await client.request('/admin/x/two');
    expect(sent).toEqual([{ refreshToken: 'refresh-admin' }, { refreshToken: 'refresh-admin-2' }]);
  });

  it('when another tab used the refresh token first, carries on with the tokens that tab stored', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', () => {
        // the other tab's refresh landed first: it stored its new tokens, this refresh token is used up
        localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', token: 'tab-admin', refresh_token: 'refresh-admin-2', super: true }));
        return envelope(null, 0, 'Login expired, please login again.');
      }),
    );
    const { client, notify, navigate } = setup();
    const result = await client.request<{ name: string; token: string }>('/admin/x/one');
    expect(result.data).toEqual({ name: 'one', token: 'tab-admin' });
    expect(readSession('admin')).toEqual({ token: 'tab-admin', refreshToken: 'refresh-admin-2' });
    expect(seen.map((call) => call.token)).toEqual(['old-admin', 'tab-admin']);
    expect(notify).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('makes requests started during the refresh wait for it instead of sending the stale token', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    let refreshes = 0;
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', async () => {
        refreshes++;
        await delay(80);
        return envelope({ type: 'admin-refresh', token: 'new-admin' });
      }),
    );
    const { client } = setup();
    const first = client.request('/admin/x/one');
    await vi.waitFor(() => expect(refreshes).toBe(1), { timeout: 15_000 });
    const later = client.request('/admin/x/two');
    await Promise.all([first, later]);
    expect(seen.filter((call) => call.path === 'two')).toEqual([{ path: 'two', token: 'new-admin' }]);
    expect(refreshes).toBe(1);
  });

  it('on a failed refresh clears the admin session, goes to the admin login and rejects every waiting request', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    let refreshes = 0;
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', async () => {
        refreshes++;
        await delay(30);
        return envelope(null, 0, 'Login expired, please login again.');
      }),
    );
    const { client, notify, navigate } = setup();
    const outcomes = await Promise.allSettled(['one', 'two', 'three'].map((name) => client.request(`/admin/x/${name}`)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) {
      const reason = (outcome as PromiseRejectedResult).reason as HttpError;
      expect(reason).toBeInstanceOf(HttpError);
      expect(reason.message).toBe('Login expired, please login again.');
    }
    expect(refreshes).toBe(1);
    expect(localStorage.getItem('adminInfo')).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/chidaoadminstator/login');
    expect(notify).toHaveBeenCalledExactlyOnceWith('Login expired, please login again.', 'error');
    expect(seen).toHaveLength(3);
  });

  it('does not send requests queued behind a failed refresh', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    let refreshes = 0;
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', async () => {
        refreshes++;
        await delay(60);
        return envelope(null, 0, 'Login expired, please login again.');
      }),
    );
    const { client, notify } = setup();
    const first = client.request('/admin/x/one');
    await vi.waitFor(() => expect(refreshes).toBe(1), { timeout: 15_000 });
    const queued = client.request('/admin/x/two');
    const outcomes = await Promise.allSettled([first, queued]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(seen.map((call) => call.path)).toEqual(['one']);
    expect(notify).toHaveBeenCalledOnce();
  });

  it('on a failed refresh while already on the login page replays with an empty token', async () => {
    const { seen, handlers } = expiringEndpoints('admin');
    server.use(...handlers, http.post('/api/common/refreshToken', () => envelope(null, 0, 'Login expired, please login again.')));
    const { client, navigate, notify } = setup({ path: '/chidaoadminstator/login' });
    const response = await client.request<{ token: string | null }>('/admin/x/one');
    expect(response.data.token).toBeNull();
    expect(seen).toEqual([
      { path: 'one', token: 'old-admin' },
      { path: 'one', token: null },
    ]);
    expect(navigate).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
    expect(localStorage.getItem('adminInfo')).toBeNull();
  });

  it('without a refresh token goes straight to the login, without calling the refresh endpoint', async () => {
    localStorage.setItem('adminInfo', JSON.stringify({ id: 1, token: 'old-admin', refresh_token: '' }));
    const { handlers } = expiringEndpoints('admin');
    const refresh = vi.fn(() => envelope(null, 0, 'x'));
    server.use(...handlers, http.post('/api/common/refreshToken', refresh));
    const { client, navigate, notify } = setup();
    await rejection(client.request('/admin/x/one'));
    expect(refresh).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/chidaoadminstator/login');
    expect(notify).toHaveBeenCalledWith('Login expired, please login again.', 'error');
  });

  it('in the member area refreshes ba-user-token and on failure goes to /user/login', async () => {
    localStorage.setItem('userInfo', JSON.stringify({ id: 7, token: 'old-member', refresh_token: 'refresh-member' }));
    const { seen, handlers } = expiringEndpoints('user');
    let refreshHeader: string | null = null;
    server.use(
      ...handlers,
      http.post('/api/common/refreshToken', ({ request }) => {
        refreshHeader = request.headers.get('ba-user-token');
        return envelope({ type: 'user-refresh', token: 'new-member' });
      }),
    );
    const { client } = setup({ path: '/user/account' });
    await client.request('/api/x/one');
    expect(refreshHeader).toBe('old-member');
    expect(seen.at(-1)).toEqual({ path: 'one', token: 'new-member' });
    expect(readSession('user').token).toBe('new-member');
    expect(readSession('admin').token).toBe('old-admin');

    localStorage.setItem('userInfo', JSON.stringify({ id: 7, token: 'old-member', refresh_token: 'refresh-member' }));
    server.use(http.post('/api/common/refreshToken', () => envelope(null, 0, 'Login expired, please login again.')));
    const failing = setup({ path: '/user/account' });
    await rejection(failing.client.request('/api/x/two'));
    expect(failing.navigate).toHaveBeenCalledExactlyOnceWith('/user/login');
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(localStorage.getItem('adminInfo')).not.toBeNull();
  });

  it('replays a late 409 with the token refreshed meanwhile, or gives up quietly once the refresh failed', async () => {
    const seen: { path: string; token: string | null }[] = [];
    let refreshOk = true;
    let refreshes = 0;
    server.use(
      http.get(`${ADMIN_API}/x/:name`, async ({ request, params }) => {
        const token = request.headers.get('batoken');
        seen.push({ path: String(params.name), token });
        if (params.name === 'slow' && token === 'old-admin') await delay(120);
        return token === 'old-admin' ? envelope([], 409, 'Token expiration') : envelope({ token });
      }),
      http.post('/api/common/refreshToken', () => (refreshes++, refreshOk ? envelope({ type: 'admin-refresh', token: 'new-admin' }) : envelope(null, 0, 'Login expired, please login again.'))),
    );
    const { client, notify, navigate } = setup();
    const [slow, fast] = await Promise.all([client.request('/admin/x/slow'), client.request('/admin/x/fast')]);
    expect([slow.data, fast.data]).toEqual([{ token: 'new-admin' }, { token: 'new-admin' }]);
    expect(refreshes).toBe(1);

    localStorage.setItem('adminInfo', JSON.stringify({ id: 1, token: 'old-admin', refresh_token: 'refresh-admin' }));
    refreshOk = false;
    const outcomes = await Promise.allSettled([client.request('/admin/x/slow'), client.request('/admin/x/fast')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(refreshes).toBe(2);
    expect(notify).toHaveBeenCalledExactlyOnceWith('Login expired, please login again.', 'error');
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/chidaoadminstator/login');
    expect(seen.filter((call) => call.token === null)).toEqual([]);
  });

  it('gives up when the server keeps answering 409 after a refresh', async () => {
    let calls = 0;
    server.use(
      http.get(`${ADMIN_API}/x/stuck`, () => (calls++, envelope([], 409, 'Token expiration'))),
      http.post('/api/common/refreshToken', () => envelope({ type: 'admin-refresh', token: `t${calls}` })),
    );
    const { client, notify } = setup();
    const error = await rejection(client.request('/admin/x/stuck'));
    expect(error.body.code).toBe(409);
    expect(calls).toBe(3);
    expect(notify).toHaveBeenCalledExactlyOnceWith('Token expiration', 'error');
  });
});

describe('duplicate requests', () => {
  it('cancels the older of two identical in-flight requests (logged only) and both get the newer answer', async () => {
    let calls = 0;
    server.use(
      http.get(`${ADMIN_API}/x/index`, async () => {
        const call = ++calls;
        if (call === 1) await delay(300);
        return envelope({ call });
      }),
    );
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { client, notify } = setup();
    const older = client.request('/admin/x/index', { params: { page: 1 } });
    const newer = client.request('/admin/x/index', { params: { page: 1 } });
    const [a, b] = await Promise.all([older, newer]);
    expect(a.data).toEqual({ call: 2 });
    expect(b.data).toEqual({ call: 2 });
    expect(debug).toHaveBeenCalledExactlyOnceWith(expect.stringContaining('/chidaoadminstator.php/x/index?page=1'));
    expect(notify).not.toHaveBeenCalled();
  });

  it('does not cancel requests that differ in params, data or method', async () => {
    server.use(
      http.get(`${ADMIN_API}/x/index`, async ({ request }) => envelope(new URL(request.url).search)),
      http.post(`${ADMIN_API}/x/index`, async ({ request }) => envelope(await request.json())),
    );
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { client } = setup();
    const results = await Promise.all([
      client.request('/admin/x/index', { params: { page: 1 } }),
      client.request('/admin/x/index', { params: { page: 2 } }),
      client.request('/admin/x/index', { method: 'POST', data: { a: 1 } }),
      client.request('/admin/x/index', { method: 'POST', data: { a: 2 } }),
    ]);
    expect(results.map((result) => result.data)).toEqual(['?page=1', '?page=2', { a: 1 }, { a: 2 }]);
    expect(debug).not.toHaveBeenCalled();
  });
});

describe('HTTP and transport failures', () => {
  it.each([
    [400, 'Incorrect parameter!'],
    [401, 'You do not have permission to operate!'],
    [403, 'You do not have permission to operate!'],
    [404, 'Error requesting address:/chidaoadminstator.php/x/missing?a=1'],
    [408, 'Request timed out!'],
    [409, 'The same data already exists in the system!'],
    [500, 'Server internal error!'],
    [501, 'Service not implemented!'],
    [502, 'Gateway error!'],
    [503, 'Service unavailable!'],
    [504, 'The service is temporarily unavailable Please try again later!'],
    [505, 'HTTP version is not supported!'],
    [418, 'Abnormal problem, please contact the website administrator!'],
  ])('HTTP %i toasts "%s"', async (status, message) => {
    server.use(http.get(`${ADMIN_API}/x/missing`, () => HttpResponse.json({ code: 0, message: 'boom' }, { status })));
    const { client, notify } = setup();
    const error = await rejection(client.request('/admin/x/missing', { params: { a: 1 } }));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(error.body).toEqual({ code: 0, msg: message });
    expect(notify).toHaveBeenCalledExactlyOnceWith(message, 'error');
  });

  it('does not toast HTTP failures when showErrorMessage is false', async () => {
    server.use(http.get('/api/x', () => new HttpResponse(null, { status: 500 })));
    const { client, notify } = setup();
    const error = await rejection(client.request('/api/x', { showErrorMessage: false }));
    expect(error.status).toBe(500);
    expect(notify).not.toHaveBeenCalled();
  });

  it('treats a 200 without an envelope as an abnormal problem', async () => {
    server.use(http.get('/api/x', () => HttpResponse.text('<html></html>')));
    const { client, notify } = setup();
    await rejection(client.request('/api/x'));
    expect(notify).toHaveBeenCalledWith('Abnormal problem, please contact the website administrator!', 'error');
  });

  it('gives up after the timeout with "Network request timeout!"', async () => {
    server.use(http.get('/api/slow', async () => (await delay('infinite'), envelope(null))));
    const { client, notify } = setup({ timeout: 50 });
    const error = await rejection(client.request('/api/slow'));
    expect(error.message).toBe('Network request timeout!');
    expect(error.status).toBe(0);
    expect(error.body).toEqual({ code: 0, msg: 'Network request timeout!' });
    expect(notify).toHaveBeenCalledExactlyOnceWith('Network request timeout!', 'error');
  });

  it('waits 10 s by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(http.get('/api/slow', async () => (await delay('infinite'), envelope(null))));
    const { client } = setup();
    let settled: unknown;
    const pending = client.request('/api/slow').catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect((settled as HttpError).message).toBe('Network request timeout!');
  });

  it('reports a network failure as "Server exception!" when online', async () => {
    server.use(http.get('/api/down', () => HttpResponse.error()));
    const { client, notify } = setup();
    const error = await rejection(client.request('/api/down'));
    expect(error.message).toBe('Server exception!');
    expect(notify).toHaveBeenCalledExactlyOnceWith('Server exception!', 'error');
  });

  it('reports a network failure as "You are disconnected!" when offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    server.use(http.get('/api/down', () => HttpResponse.error()));
    const { client, notify } = setup();
    const error = await rejection(client.request('/api/down'));
    expect(error.message).toBe('You are disconnected!');
    expect(notify).toHaveBeenCalledExactlyOnceWith('You are disconnected!', 'error');
  });
});

describe('uploads', () => {
  it('posts multipart data with the token, reports progress and has no timeout', async () => {
    let received: { content: string | undefined; topic: FormDataEntryValue | null; token: string | null } | undefined;
    server.use(
      http.post(`${ADMIN_API}/ajax/upload`, async ({ request }) => {
        const form = await request.formData();
        const file = form.get('file');
        // jsdom's FormData reaches msw through Node's, which drops file names (browsers keep them): check the content.
        received = { content: typeof file === 'object' && file !== null ? await file.text() : undefined, topic: form.get('topic'), token: request.headers.get('batoken') };
        await delay(120);
        return envelope({ file: { url: '/storage/x.png' } }, 1, 'File uploaded successfully');
      }),
    );
    const progress: number[] = [];
    const { client, notify } = setup({ timeout: 30 });
    const response = await client.request<{ file: { url: string } }>('/admin/ajax/upload', {
      upload: true,
      data: { file: new File(['hello'], 'a.png', { type: 'image/png' }), topic: 'default' },
      onProgress: (percent) => progress.push(percent),
    });
    expect(response.data.file.url).toBe('/storage/x.png');
    expect(received).toEqual({ content: 'hello', topic: 'default', token: 'old-admin' });
    expect(progress.at(-1)).toBe(100);
    expect(notify).not.toHaveBeenCalled();
  });

  it('toasts business failures of an upload', async () => {
    server.use(http.post('/api/ajax/upload', () => envelope(null, 0, 'The type of uploaded file is not allowed!')));
    const form = new FormData();
    form.append('file', new File(['x'], 'a.exe'));
    const { client, notify } = setup({ path: '/user/account' });
    await rejection(client.request('/api/ajax/upload', { upload: true, data: form }));
    expect(notify).toHaveBeenCalledWith('The type of uploaded file is not allowed!', 'error');
  });
});
