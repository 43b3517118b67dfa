// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInRouter } from './render-app.js';
import { http, ok, useEnglish } from './support.js';

/** The app's routes themselves: a page's code fetched ahead draws at once, and a page that cannot load offers a reload. */

// The 404 and 401 pages' code cannot be fetched, as after a deployment replaced it.
vi.mock('../../../src/client/pages/StatusPage.js', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  server.use(http.get('/api/user/checkIn', () => ok({ userLoginCaptchaSwitch: false, accountVerificationType: [] })));
  // Every test starts as a fresh page load: no page's code fetched yet.
  vi.resetModules();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const spinner = () => document.querySelector('.app-fallback[aria-busy="true"]');

describe('the app routes', () => {
  it('draw the spinner while a page’s code arrives, or the page at once when it was fetched ahead (the server’s first view waits for that)', async () => {
    const cold = await import('../../../src/client/router.js');
    renderInRouter(<cold.AppRoutes />, '/user/login');
    expect(spinner()).not.toBeNull();
    expect(await screen.findByRole('heading', { name: 'Member Login' })).toBeTruthy();
    cleanup();

    vi.resetModules();
    const warm = await import('../../../src/client/router.js');
    await warm.preloadRoute({ pathname: '/user/login', search: '' });
    renderInRouter(<warm.AppRoutes />, '/user/login');
    expect(spinner()).toBeNull();
    expect(screen.getByRole('heading', { name: 'Member Login' })).toBeTruthy();
  });

  it('offer a reload when a page’s code cannot be fetched, and draw the next page asked for', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { AppRoutes } = await import('../../../src/client/router.js');
    const { router } = renderInRouter(<AppRoutes />, '/404');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Something went wrong. / 出错了。');
    expect(within(alert).getByRole('button', { name: 'Reload / 重新加载' })).toBeTruthy();

    await router.navigate('/user/login');
    expect(await screen.findByRole('heading', { name: 'Member Login' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('fetch ahead without failing when the page cannot load: the page then shows the reload offer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { AppRoutes, preloadRoute } = await import('../../../src/client/router.js');
    await expect(preloadRoute({ pathname: '/404', search: '' })).resolves.toBeUndefined();
    renderInRouter(<AppRoutes />, '/404');
    expect(await screen.findByRole('button', { name: 'Reload / 重新加载' })).toBeTruthy();
  });
});
