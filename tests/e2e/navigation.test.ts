import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import enShell from '../../locales/en/admin/shell.json';
import adminSchema from '../../schemas/system/admin.json';
import type { StoreConfig } from '../../src/client/i18n/store-config.js';
import { ADMIN_BASE, adminPath, errorToasts, loginAs, newPage, poll, startRig, stored, url, type E2eRig } from './helpers.js';

/**
 * Finding one's way around the back office: every system list opens from the menu with a tab of
 * its own, tabs close; the language and the layout can be switched and stay switched.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

/** The seeded menus whose screens are generated from a schema: directory, page title, route. */
const SCHEMA_MENUS: readonly { dir: string; title: string; path: string }[] = [
  { dir: '权限管理', title: '角色组管理', path: '/auth/group' },
  { dir: '权限管理', title: '管理员管理', path: '/auth/admin' },
  { dir: '权限管理', title: '菜单规则管理', path: '/auth/rule' },
  { dir: '权限管理', title: '管理员日志管理', path: '/auth/adminLog' },
  { dir: '会员管理', title: '会员管理', path: '/user/user' },
  { dir: '会员管理', title: '会员分组管理', path: '/user/group' },
  { dir: '会员管理', title: '会员规则管理', path: '/user/rule' },
  { dir: '会员管理', title: '会员余额管理', path: '/user/moneyLog' },
  { dir: '会员管理', title: '会员积分管理', path: '/user/scoreLog' },
  { dir: '常规管理', title: '附件管理', path: '/routine/attachment' },
  { dir: '数据安全管理', title: '数据回收站', path: '/security/dataRecycleLog' },
  { dir: '数据安全管理', title: '敏感数据修改记录', path: '/security/sensitiveDataLog' },
  { dir: '数据安全管理', title: '数据回收规则管理', path: '/security/dataRecycle' },
  { dir: '数据安全管理', title: '敏感数据规则管理', path: '/security/sensitiveData' },
];

/** Opens a page of the side menu the way a person does: unfold its directory, click the entry. */
async function openFromMenu(page: Page, dir: string, title: string): Promise<void> {
  const menu = page.getByRole('navigation', { name: '主菜单' });
  const folder = menu.getByRole('button', { name: dir, exact: true }).first();
  if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
  // The directory's entries are in the collapse right after its button.
  await folder.locator('xpath=following-sibling::div[1]').getByRole('button', { name: title, exact: true }).click();
}

/** Admin API answers that are not "ok": each would be an error toast or a redirect for the user. */
function watchApiFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (response: Response) => {
    if (!response.url().includes('/chidaoadminstator.php/') && !response.url().includes('/api/')) return;
    void response.json().then(
      (body: { code?: number; msg?: string }) => body.code !== 1 && failures.push(`${response.url()} → ${body.code} ${body.msg}`),
      () => failures.push(`${response.url()} → HTTP ${response.status()} (no envelope)`),
    );
  });
  return failures;
}

describe('menus, system lists and tabs', () => {
  it('opens every generated system list from the menu, each in its own tab', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      const failures = watchApiFailures(page);
      await loginAs(page, rig.server);
      const tabs = page.getByRole('tablist', { name: '已打开的页面' });
      const main = page.getByRole('main');
      for (const { dir, title, path } of SCHEMA_MENUS) {
        await openFromMenu(page, dir, title);
        await page.waitForURL(adminPath(path));
        // A list shows rows, or says it is empty under its toolbar; never the shell's "page could not be displayed".
        await main.locator('table tbody tr').or(main.getByText('暂无数据', { exact: true })).first().waitFor();
        expect(await main.getByText('页面无法显示').count(), `${path} renders`).toBe(0);
        expect(await errorToasts(page).count(), `${path} shows no error toast`).toBe(0);
        const tab = tabs.getByRole('tab', { name: title, exact: false }).filter({ hasText: new RegExp(`^${title}$`) });
        await poll(() => tab.getAttribute('aria-selected'), `${title} tab selected`).toBe('true');
        // The strip overflows after a few pages: the selected tab is scrolled into its view.
        await poll(() => tab.evaluate((element) => {
          const shown = element.getBoundingClientRect();
          const strip = element.closest('[role="tablist"]')!.getBoundingClientRect();
          return shown.left >= strip.left - 1 && shown.right <= strip.right + 1;
        }), `${title} tab in view`).toBe(true);
      }
      expect(await tabs.evaluate((strip) => strip.scrollWidth > strip.clientWidth), 'the strip overflows').toBe(true);
      // The dashboard and one tab per opened list.
      expect(await tabs.getByRole('tab').count()).toBe(SCHEMA_MENUS.length + 1);
      expect(failures).toEqual([]);

      // Closing the active tab (its ×) shows a neighbour; the closed page's tab is gone.
      const last = SCHEMA_MENUS[SCHEMA_MENUS.length - 1];
      await tabs.getByRole('tab', { name: last.title, exact: true }).getByTestId('tab-close').click();
      await poll(() => tabs.getByRole('tab').count()).toBe(SCHEMA_MENUS.length);
      await page.waitForURL((location) => !location.pathname.endsWith(last.path));
      expect(await tabs.getByRole('tab', { selected: true }).count()).toBe(1);

      // Closing an inactive tab (Delete on it) keeps the current page.
      const current = page.url();
      const inactive = tabs.getByRole('tab', { name: '管理员管理', exact: true });
      await inactive.focus();
      // On a loaded machine the strip may still be scrolling the tab into view: Delete goes to it once it has focus.
      await poll(() => inactive.evaluate((tab) => tab === document.activeElement)).toBe(true);
      await page.keyboard.press('Delete');
      await poll(() => tabs.getByRole('tab').count()).toBe(SCHEMA_MENUS.length - 1);
      expect(page.url()).toBe(current);

      // "Close all" leaves the first page (the dashboard) as the only tab.
      await page.getByRole('button', { name: '标签操作' }).click();
      await page.getByRole('menuitem', { name: '关闭全部标签' }).click();
      await page.waitForURL(adminPath('/dashboard'));
      await poll(() => tabs.getByRole('tab').allTextContents()).toEqual(['控制台']);
      expect(failures).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('language and layout', () => {
  it('switches to English, and the choice survives a reload', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.getByRole('navigation', { name: '主菜单' }).getByRole('button', { name: '权限管理', exact: true }).click();
      await page.getByRole('navigation', { name: '主菜单' }).getByRole('button', { name: '管理员管理', exact: true }).click();
      await page.waitForURL(adminPath('/auth/admin'));
      await page.getByRole('button', { name: '语言' }).click();
      await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: 'English' }).click()]);

      const menu = page.getByRole('navigation', { name: 'Main menu' });
      const english = enShell.shell.menus;
      await menu.getByRole('button', { name: english.auth, exact: true }).waitFor();
      for (const title of [english.dashboard, english.user, english.routine, english.security]) {
        expect(await menu.getByRole('button', { name: title, exact: true }).count(), title).toBe(1);
      }
      expect(await menu.getByRole('button', { name: '权限管理' }).count()).toBe(0);
      // The page itself: its tab, the list's toolbar and columns, the header's buttons.
      await page.getByRole('tablist', { name: 'Open pages' }).getByRole('tab', { name: adminSchema['x-menu'].title.en, exact: false }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Create' }).waitFor();
      await page.getByRole('main').getByRole('columnheader').getByText('Username', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Layout settings' }).count()).toBe(1);
      await poll(() => page.title()).toMatch(/^Administrators/);

      const config = await stored<StoreConfig>(page, 'storeConfig_v2');
      expect(config?.lang.defaultLang).toBe('en');

      await page.reload();
      await menu.getByRole('button', { name: english.auth, exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Language' }).count()).toBe(1);
      // An empty list says so in English too, under its toolbar.
      await page.goto(url(rig.server, `${ADMIN_BASE}/security/sensitiveDataLog`));
      await page.getByRole('main').getByText('No data yet', { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('switches layout: Default 70 px, Classic 50 px, Streamline 60 px header', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      // By test id: while the settings drawer is open, the page behind it is hidden from the accessibility tree.
      const header = page.getByTestId('admin-header');
      const aside = page.getByTestId('admin-aside');
      const height = async () => (await header.boundingBox())?.height;
      await poll(height).toBe(70);
      expect(await aside.count()).toBe(1);

      await page.getByRole('button', { name: '布局配置' }).click();
      const modes = page.getByRole('radiogroup', { name: '布局方式' });
      await modes.getByRole('radio', { name: '经典' }).click();
      await poll(height).toBe(50);
      expect(await modes.getByRole('radio', { name: '经典' }).getAttribute('aria-checked')).toBe('true');

      await modes.getByRole('radio', { name: '单栏' }).click();
      await poll(height).toBe(60);
      // Streamline has no side menu: the menus move into the header.
      await poll(() => aside.count()).toBe(0);

      const config = await stored<StoreConfig>(page, 'storeConfig_v2');
      expect(config?.layout.layoutMode).toBe('Streamline');
      await page.reload();
      await poll(height).toBe(60);

      await page.getByRole('button', { name: '布局配置' }).click();
      await modes.getByRole('radio', { name: '默认' }).click();
      await poll(height).toBe(70);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
