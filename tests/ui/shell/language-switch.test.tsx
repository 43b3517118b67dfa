// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { reloadLayout } from '../../../src/client/shell/layout-store.js';
import { currentLanguage } from '../../../src/client/i18n/store-config.js';
import type { MenuRule } from '../../../src/client/providers/admin-bootstrap.js';
import { ADMIN_API, http, ok, sampleBootstrap, sampleMenus, useEnglish } from './support.js';
import { renderApp, signInAdmin } from './render-app.js';

vi.mock('../../../src/client/admin/resources/index.js', () => ({
  resourceFor: (definition: { id: string }) => ({ list: () => <h2>List of {definition.id}</h2> }),
}));

/** Switching the back office's language reloads the page; the open tabs and the unfolded menu stay. */

const server = setupServer();

const CHINESE: Record<string, string> = { Console: '控制台', Permissions: '权限管理', Administrators: '管理员管理', 'Admin logs': '管理员日志', Deeper: '更多', 'My profile': '个人资料' };

function chineseMenus(rules: MenuRule[] = sampleMenus()): MenuRule[] {
  return rules.map((rule) => ({ ...rule, title: CHINESE[rule.title] ?? rule.title, ...(rule.children ? { children: chineseMenus(rule.children) } : {}) }));
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetBootstrap();
  useEnglish();
  reloadLayout();
  signInAdmin();
  server.use(
    // As the server does: rule titles in the request's language.
    http.get(`${ADMIN_API}/Index/index`, ({ request }) => ok(sampleBootstrap(request.headers.get('think-lang') === 'zh-cn' ? chineseMenus() : sampleMenus()))),
    http.get(`${ADMIN_API}/Dashboard/index`, () => ok({ remark: '' })),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

/** The app as a reload brings it back: every module (the message packs, the stores) loaded afresh. */
async function reloadAt(path: string): Promise<void> {
  cleanup();
  vi.resetModules();
  const { renderApp: renderAfresh } = await import('./render-app.js');
  renderAfresh(path);
}

const tabTitles = () => within(screen.getByTestId('page-tabs')).queryAllByRole('tab').map((tab) => tab.textContent);

describe('language switch', () => {
  it('keeps the open tabs, now titled in the new language, the current page and the unfolded directories', async () => {
    const { router } = renderApp('/chidaoadminstator');
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 30_000 });
    await waitFor(() => expect(tabTitles()).toEqual(['Dashboard']));
    fireEvent.click(within(menu).getByRole('button', { name: 'Permissions' }));
    fireEvent.click(within(menu).getByRole('button', { name: 'Administrators' }));
    await screen.findByText('List of system/admin');
    fireEvent.click(within(menu).getByRole('button', { name: 'Admin logs' }));
    await screen.findByText('List of system/admin_log');
    fireEvent.click(within(menu).getByRole('button', { name: 'Deeper' }));
    expect(tabTitles()).toEqual(['Dashboard', 'Administrators', 'Admin logs']);

    // jsdom cannot reload: the switch's reload is seen as the page going away and coming back.
    fireEvent.click(screen.getByRole('button', { name: 'Language' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '中文简体' }));
    expect(currentLanguage()).toBe('zh-cn');
    const path = router.location.pathname;
    await reloadAt(path);

    const again = await screen.findByTestId('side-menu', {}, { timeout: 30_000 });
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '管理员管理', '管理员日志']));
    expect(screen.getByText('List of system/admin_log')).toBeTruthy();
    // "Permissions" and "Deeper" are still unfolded: their pages show without a click.
    expect(within(again).getByRole('button', { name: '管理员管理' })).toBeTruthy();
    expect(within(again).getByRole('button', { name: '个人资料' })).toBeTruthy();

    // A reload of another kind keeps the tabs (page-tabs.test.tsx) but unfolds only the current page's directories.
    await reloadAt(path);
    const afresh = await screen.findByTestId('side-menu', {}, { timeout: 30_000 });
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '管理员管理', '管理员日志']));
    expect(within(afresh).getByRole('button', { name: '管理员管理' })).toBeTruthy();
    expect(within(afresh).queryByRole('button', { name: '个人资料' })).toBeNull();
  });
});
