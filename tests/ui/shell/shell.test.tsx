// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { reloadLayout } from '../../../src/client/shell/layout-store.js';
import { ADMIN_API, http, ok, sampleBootstrap, useEnglish } from './support.js';
import { renderApp, signInAdmin } from './render-app.js';

vi.mock('../../../src/client/admin/resources/index.js', () => ({
  resourceFor: (definition: { id: string }) => ({ list: () => <h2>List of {definition.id}</h2> }),
}));

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  resetBootstrap();
  useEnglish();
  reloadLayout();
  signInAdmin();
  server.use(
    http.get(`${ADMIN_API}/Index/index`, () => ok(sampleBootstrap())),
    http.get(`${ADMIN_API}/Dashboard/index`, () => ok({ remark: '' })),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

async function openShell(path = '/chidaoadminstator') {
  const app = renderApp(path);
  await screen.findByTestId('side-menu');
  return app;
}

const tabTitles = () => within(screen.getByTestId('page-tabs')).queryAllByRole('tab').map((tab) => tab.textContent);

describe('side menu', () => {
  it('renders nested directories from the rule tree and never shows buttons', async () => {
    await openShell();
    const menu = screen.getByTestId('side-menu');
    // Titles: the English pack translates known rule names; others show the server title.
    expect(within(menu).getByRole('button', { name: 'Dashboard' })).toBeTruthy();
    expect(within(menu).queryByText('Administrators')).toBeNull();
    fireEvent.click(within(menu).getByRole('button', { name: 'Permissions' }));
    expect(within(menu).getByRole('button', { name: 'Administrators' })).toBeTruthy();
    expect(within(menu).getByRole('button', { name: 'Admin logs' })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('button', { name: 'Deeper' }));
    expect(within(menu).getByRole('button', { name: 'Profile' })).toBeTruthy();
    expect(within(menu).queryByText('Empty directory')).toBeNull();
    expect(within(menu).queryByText('Add button')).toBeNull();
    expect(within(menu).queryByText('View')).toBeNull();
  });

  it('opens pages, link menus in a new window, and marks the current page', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { router } = await openShell();
    const menu = screen.getByTestId('side-menu');
    fireEvent.click(within(menu).getByRole('button', { name: 'Permissions' }));
    fireEvent.click(within(menu).getByRole('button', { name: 'Administrators' }));
    expect(await screen.findByText('List of system/admin')).toBeTruthy();
    expect(router.location.pathname).toBe('/chidaoadminstator/auth/admin');
    expect(within(menu).getByRole('button', { name: 'Administrators' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(within(menu).getByRole('button', { name: 'Documentation' }));
    expect(open).toHaveBeenCalledWith('https://doc.example.com', '_blank', 'noopener');

    fireEvent.click(within(menu).getByRole('button', { name: 'Module store' }));
    expect(await screen.findByText('Not available in this edition')).toBeTruthy();
  });

  it('collapses to 64 px and back to 260 px', async () => {
    await openShell();
    expect(screen.getByTestId('admin-aside').style.width).toBe('260px');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(screen.getByTestId('admin-aside').style.width).toBe('64px');
    expect(JSON.parse(localStorage.getItem('storeConfig_v2') as string).layout.menuCollapse).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Expand menu' }));
    expect(screen.getByTestId('admin-aside').style.width).toBe('260px');
  });
});

describe('tabs', () => {
  it('one tab per opened page; close one, close all', async () => {
    const { router } = await openShell();
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard']));
    const menu = screen.getByTestId('side-menu');
    fireEvent.click(within(menu).getByRole('button', { name: 'Permissions' }));
    fireEvent.click(within(menu).getByRole('button', { name: 'Administrators' }));
    await screen.findByText('List of system/admin');
    fireEvent.click(within(menu).getByRole('button', { name: 'Admin logs' }));
    await screen.findByText('List of system/admin_log');
    // Opening a page again does not add a second tab.
    fireEvent.click(within(menu).getByRole('button', { name: 'Administrators' }));
    await screen.findByText('List of system/admin');
    expect(tabTitles()).toEqual(['Dashboard', 'Administrators', 'Admin logs']);
    expect(document.title).toBe('Administrators - Test Site');

    // Clicking a tab returns to it.
    fireEvent.click(within(screen.getByTestId('page-tabs')).getByRole('tab', { name: /Admin logs/ }));
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/auth/adminLog'));

    // Closing the active tab moves to a neighbour: Delete on the tab (it holds no button of its own).
    const adminLogs = within(screen.getByTestId('page-tabs')).getByRole('tab', { name: /Admin logs/ });
    expect(within(adminLogs).queryByRole('button')).toBeNull();
    fireEvent.keyDown(adminLogs, { key: 'Delete' });
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/auth/admin'));
    expect(tabTitles()).toEqual(['Dashboard', 'Administrators']);

    // Close all: back to the first page, as the only tab.
    fireEvent.click(screen.getByRole('button', { name: 'Tab actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Close all tabs' }));
    await waitFor(() => expect(router.location.pathname).toBe('/chidaoadminstator/dashboard'));
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard']));
  });

  it('full-screen content hides the menu and header and is remembered', async () => {
    await openShell();
    fireEvent.click(screen.getByRole('button', { name: 'Tab actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Full-screen content' }));
    await waitFor(() => expect(screen.queryByTestId('admin-header')).toBeNull());
    expect(screen.queryByTestId('admin-aside')).toBeNull();
    expect(JSON.parse(localStorage.getItem('storeTabViewConfig') as string)).toEqual({ state: { tabFullScreen: true } });

    // A new visit starts in full screen.
    cleanup();
    resetBootstrap();
    await openShellWithoutMenu();
    expect(screen.queryByTestId('admin-header')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Exit full screen' }));
    expect(await screen.findByTestId('admin-header')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('storeTabViewConfig') as string)).toEqual({ state: { tabFullScreen: false } });
  });
});

async function openShellWithoutMenu() {
  renderApp('/chidaoadminstator');
  await screen.findByTestId('greeting');
}

describe('layout settings', () => {
  it('switching layout changes the header height (70 / 50 / 60) and is stored', async () => {
    await openShell();
    const header = () => screen.getByTestId('admin-header');
    expect(header().style.height).toBe('70px');
    fireEvent.click(screen.getByRole('button', { name: 'Layout settings' }));
    const drawer = await screen.findByRole('presentation');
    fireEvent.click(within(drawer).getByRole('radio', { name: /Classic/ }));
    expect(header().style.height).toBe('50px');
    const stored = () => JSON.parse(localStorage.getItem('storeConfig_v2') as string);
    expect(stored().layout.layoutMode).toBe('Classic');
    expect(stored().layout.headerBarTabActiveBackground).toEqual(['#f5f5f5', '#1d1e1f']);
    // The language part of storeConfig_v2 is kept.
    expect(stored().lang.defaultLang).toBe('en');

    fireEvent.click(within(drawer).getByRole('radio', { name: /Streamline/ }));
    expect(header().style.height).toBe('60px');
    expect(screen.queryByTestId('admin-aside')).toBeNull();
    expect(await screen.findByTestId('horizontal-menu')).toBeTruthy();

    fireEvent.click(within(drawer).getByRole('radio', { name: /Default/ }));
    expect(header().style.height).toBe('70px');
    expect(stored().layout.headerBarTabActiveBackground).toEqual(['#ffffff', '#1d1e1f']);
  });

  it('menu and header colours and the menu width are changed, remembered and reset', async () => {
    await openShell();
    fireEvent.click(screen.getByRole('button', { name: 'Layout settings' }));
    const drawer = await screen.findByRole('presentation');
    const stored = () => JSON.parse(localStorage.getItem('storeConfig_v2') as string).layout;

    fireEvent.change(within(drawer).getByLabelText('Menu background'), { target: { value: '#223344' } });
    const background = (element: Element) => getComputedStyle(element).backgroundColor;
    expect(background(screen.getByTestId('admin-aside'))).toBe('rgb(34, 51, 68)');
    // Only the light scheme's colour changes.
    expect(stored().menuBackground).toEqual(['#223344', '#1d1e1f']);
    fireEvent.change(within(drawer).getByLabelText('Header background'), { target: { value: '#fafad2' } });
    expect(background(screen.getByTestId('admin-header').firstElementChild as Element)).toBe('rgb(250, 250, 210)');

    fireEvent.change(within(drawer).getByRole('spinbutton', { name: 'Side menu width (px)' }), { target: { value: '320' } });
    expect(screen.getByTestId('admin-aside').style.width).toBe('320px');
    expect(stored().menuWidth).toBe(320);
    // Out of range: ignored.
    fireEvent.change(within(drawer).getByRole('spinbutton', { name: 'Side menu width (px)' }), { target: { value: '2000' } });
    expect(stored().menuWidth).toBe(320);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Restore the default Menu background' }));
    expect(stored().menuBackground).toEqual(['#ffffff', '#1d1e1f']);
    expect(stored().headerBarBackground).toEqual(['#fafad2', '#1d1e1f']);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Restore default layout' }));
    expect(stored().headerBarBackground).toEqual(['#ffffff', '#1d1e1f']);
    expect(stored().menuWidth).toBe(260);
  });

  it('warns when a picked text colour is too faint on its background, until it is restored', async () => {
    await openShell();
    fireEvent.click(screen.getByRole('button', { name: 'Layout settings' }));
    const drawer = await screen.findByRole('presentation');
    expect(within(drawer).queryByRole('alert')).toBeNull();
    fireEvent.change(within(drawer).getByLabelText('Menu text'), { target: { value: '#c0c4cc' } });
    const alert = within(drawer).getByRole('alert');
    expect(alert.textContent).toContain('Some picked colours are hard to read');
    expect(within(alert).getByText('Menu text on Menu background: 1.74:1')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Restore the default Menu text' }));
    expect(within(drawer).queryByRole('alert')).toBeNull();
  });

  it('dark mode is a stored layout preference', async () => {
    await openShell();
    fireEvent.click(screen.getByRole('button', { name: 'Dark mode' }));
    await waitFor(() => expect(document.querySelector('[data-dark="true"]')).toBeTruthy());
    expect(JSON.parse(localStorage.getItem('storeConfig_v2') as string).layout.isDark).toBe(true);
  });
});

describe('dashboard', () => {
  const lastLogin = () => screen.findByText(/^(Last login|上次登录)$/).then((label) => label.parentElement?.textContent);

  it('names the previous login, on the site clock with its address, as "Last login" (not this login)', async () => {
    // 2026-12-01 06:30:05 UTC: 14:30:05 in Shanghai, the site's zone; this login is adminInfo.last_login_time
    const previousLogin = { time: Date.UTC(2026, 11, 1, 6, 30, 5) / 1000, ip: '203.0.113.5' };
    const bootstrap = sampleBootstrap();
    server.use(http.get(`${ADMIN_API}/Index/index`, () => ok({ ...bootstrap, siteConfig: { ...bootstrap.siteConfig, timeZone: 'Asia/Shanghai' }, previousLogin })));
    await openShell('/chidaoadminstator/dashboard');
    expect(await lastLogin()).toBe('Last login2026-12-01 14:30:05 from 203.0.113.5');
  });

  it('says first login when there was none', async () => {
    server.use(http.get(`${ADMIN_API}/Index/index`, () => ok({ ...sampleBootstrap(), previousLogin: { time: null, ip: '' } })));
    await openShell('/chidaoadminstator/dashboard');
    expect(await lastLogin()).toBe('Last loginFirst login');
  });
});
