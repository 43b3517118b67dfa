// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { ADMIN_API, http, ok, sampleBootstrap, useEnglish } from './support.js';
import { renderApp, signInAdmin } from './render-app.js';

// The generated screens are another module's work: a stand-in list shows which schema a route opened.
vi.mock('../../../src/client/admin/resources/index.js', () => ({
  resourceFor: (definition: { id: string }) => ({ list: () => <h2>List of {definition.id}</h2> }),
}));

const server = setupServer();
const calls: string[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  resetBootstrap();
  useEnglish();
  calls.length = 0;
  server.use(
    http.get(`${ADMIN_API}/Index/index`, () => {
      calls.push('Index/index');
      return ok(sampleBootstrap());
    }),
    http.get(`${ADMIN_API}/Dashboard/index`, () => ok({ remark: 'Have a good day' })),
    http.get(`${ADMIN_API}/Index/login`, () => ok({ captcha: false })),
    http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

describe('the loading route', () => {
  it('fetches the menus first, then opens the target path and query it carries', async () => {
    signInAdmin();
    const { router } = renderApp('/chidaoadminstator/loading/%2Fauth%2Fadmin%3Fpage%3D2');
    expect(await screen.findByText('List of system/admin')).toBeTruthy();
    expect(calls).toEqual(['Index/index']);
    expect(router.location.pathname).toBe('/chidaoadminstator/auth/admin');
    expect(router.location.search).toBe('?page=2');
    await waitFor(() => expect(document.title).toBe('Administrators - Test Site'));
  });

  it('opens the first menu page when no target is given', async () => {
    signInAdmin();
    const { router } = renderApp('/chidaoadminstator');
    expect(await screen.findByTestId('greeting')).toBeTruthy();
    expect(router.location.pathname).toBe('/chidaoadminstator/dashboard');
    expect(await screen.findByText('Have a good day')).toBeTruthy();
  });

  it('sends a deep link through the loading route before showing it', async () => {
    signInAdmin();
    const { router } = renderApp('/chidaoadminstator/auth/adminLog?sort=id');
    expect(await screen.findByText('List of system/admin_log')).toBeTruthy();
    expect(calls).toEqual(['Index/index']);
    expect(router.location.pathname).toBe('/chidaoadminstator/auth/adminLog');
    expect(router.location.search).toBe('?sort=id');
  });

  it('without a session goes to the login page, keeping the target with its query in the URL', async () => {
    const { router } = renderApp('/chidaoadminstator/loading/%2Fauth%2Fadmin%3Fpage%3D2');
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/login'));
    expect(new URLSearchParams(router.location.search).get('to')).toBe('/auth/admin?page=2');
    expect(calls).toEqual([]);
  });

  it('an unknown path under the base says "page not found" inside the shell once the menus are known', async () => {
    signInAdmin();
    const { router } = renderApp('/chidaoadminstator/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.location.pathname).toBe('/chidaoadminstator/no/such/page');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
  });

  it('any unmatched path outside the areas goes to /404, and / goes to the member login', async () => {
    const first = renderApp('/nowhere');
    await waitFor(() => expect(first.router.location.pathname).toBe('/404'));
    cleanup();
    const second = renderApp('/');
    await waitFor(() => expect(second.router.location.pathname).toBe('/user/login'));
    expect(await screen.findByRole('heading', { name: 'Member Login' })).toBeTruthy();
  });
});
