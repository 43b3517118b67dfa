// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { reloadLayout } from '../../../src/client/shell/layout-store.js';
import type { MenuRule } from '../../../src/client/providers/admin-bootstrap.js';
import { ADMIN_API, http, ok, sampleBootstrap, sampleMenus, useEnglish } from './support.js';
import { renderApp, signInAdmin } from './render-app.js';

vi.mock('../../../src/client/admin/resources/index.js', () => ({
  resourceFor: (definition: { id: string }) => ({ list: () => <h2>List of {definition.id}</h2> }),
}));

/** The open tabs outlive a reload of the page, per admin, and close when the menus lose their page. */

const server = setupServer();
/** What `Index/index` answers: the menus and the admin. */
let served = { menus: sampleMenus(), adminId: 1 };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetBootstrap();
  useEnglish();
  reloadLayout();
  signInAdmin();
  served = { menus: sampleMenus(), adminId: 1 };
  server.use(
    http.get(`${ADMIN_API}/Index/index`, () => {
      const bootstrap = sampleBootstrap(served.menus);
      return ok({ ...bootstrap, adminInfo: { ...bootstrap.adminInfo, id: served.adminId } });
    }),
    http.get(`${ADMIN_API}/Dashboard/index`, () => ok({ remark: '' })),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

/** The app as a reload brings it back: every module (the stores, the message packs) loaded afresh, session storage kept. */
async function reloadAt(path: string): Promise<void> {
  cleanup();
  vi.resetModules();
  const { renderApp: renderAfresh } = await import('./render-app.js');
  renderAfresh(path);
  await screen.findByTestId('side-menu', {}, { timeout: 30_000 });
}

const strip = () => within(screen.getByTestId('page-tabs'));
const tabTitles = () => strip().queryAllByRole('tab').map((tab) => tab.textContent);
const activeTab = () => strip().queryAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;
const menuButton = (name: string) => within(screen.getByTestId('side-menu')).getByRole('button', { name });

/** Opens the dashboard, Administrators, Admin logs, then Administrators again. */
async function openThreeTabs() {
  const app = renderApp('/chidaoadminstator/dashboard');
  await screen.findByTestId('side-menu', {}, { timeout: 30_000 });
  await waitFor(() => expect(tabTitles()).toEqual(['Dashboard']));
  fireEvent.click(menuButton('Permissions'));
  fireEvent.click(menuButton('Administrators'));
  await screen.findByText('List of system/admin');
  fireEvent.click(menuButton('Admin logs'));
  await screen.findByText('List of system/admin_log');
  fireEvent.click(menuButton('Administrators'));
  await screen.findByText('List of system/admin');
  expect(tabTitles()).toEqual(['Dashboard', 'Administrators', 'Admin logs']);
  return app;
}

/** Menus without the admin-log page, as after its module was disabled or the right taken away. */
function withoutAdminLogs(rules: MenuRule[] = sampleMenus()): MenuRule[] {
  return rules.filter((rule) => rule.name !== 'auth/adminLog').map((rule) => (rule.children ? { ...rule, children: withoutAdminLogs(rule.children) } : rule));
}

describe('tabs over a reload', () => {
  it('keep the open tabs, their order and the active one, per admin; a tab whose page left the menus is dropped', async () => {
    await openThreeTabs();
    await reloadAt('/chidaoadminstator/auth/admin');
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard', 'Administrators', 'Admin logs']));
    expect(activeTab()).toBe('Administrators');

    // A tab closed stays closed over the next reload.
    fireEvent.keyDown(strip().getByRole('tab', { name: /Dashboard/ }), { key: 'Delete' });
    await waitFor(() => expect(tabTitles()).toEqual(['Administrators', 'Admin logs']));
    await reloadAt('/chidaoadminstator/auth/adminLog');
    await waitFor(() => expect(tabTitles()).toEqual(['Administrators', 'Admin logs']));
    expect(activeTab()).toBe('Admin logs');

    // Another admin in the same browser tab has tabs of their own.
    served.adminId = 2;
    await reloadAt('/chidaoadminstator/dashboard');
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard']));

    // Back to the first admin, whose admin-log page has left the menus meanwhile.
    served = { menus: withoutAdminLogs(), adminId: 1 };
    await reloadAt('/chidaoadminstator/auth/admin');
    await waitFor(() => expect(tabTitles()).toEqual(['Administrators']));
  });
});

describe('tabs when the menus change', () => {
  it('close a tab whose page left the menus; when the page shown left, its neighbour opens', async () => {
    const { router } = await openThreeTabs();
    // The page shown stays; the vanished page's tab closes.
    act(() => void setBootstrap(sampleBootstrap(withoutAdminLogs())));
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard', 'Administrators']));
    expect(router.location.pathname).toBe('/chidaoadminstator/auth/admin');

    // The page shown leaves the menus: the tab to its right, else to its left, opens.
    act(() => void setBootstrap(sampleBootstrap()));
    fireEvent.click(menuButton('Admin logs'));
    await screen.findByText('List of system/admin_log');
    expect(tabTitles()).toEqual(['Dashboard', 'Administrators', 'Admin logs']);
    act(() => void setBootstrap(sampleBootstrap(withoutAdminLogs())));
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/auth/admin'));
    expect(tabTitles()).toEqual(['Dashboard', 'Administrators']);
    expect(activeTab()).toBe('Administrators');
    expect(await screen.findByText('List of system/admin')).toBeTruthy();
  });
});
