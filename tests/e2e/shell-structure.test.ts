import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import enPages from '../../locales/en/common/pages.json';
import zhPages from '../../locales/zh-cn/common/pages.json';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * What a screen reader is told about the shells' menus and tabs: lists of list items, a directory that
 * says whether it is open, the shown page marked current, tabs that hold no control of their own, and
 * a translated skip link first in each shell.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  expect((await rig.server.admin('user.User/add', { token, body: { username: 'lister', nickname: 'Lister', group_id: 1, password: 'Member_pass1' } })).code).toBe(1);
});

afterAll(async () => {
  await rig?.close();
});

/** The structural rules of axe-core: lists, list items, controls inside controls, roles and their required parents and children. */
const STRUCTURE_RULES = ['list', 'listitem', 'nested-interactive', 'aria-required-children', 'aria-required-parent', 'aria-allowed-role'];

async function structureViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(STRUCTURE_RULES).analyze();
  return result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** Lists inside `scope` holding anything but list items, and list items outside lists. */
function listMisfits(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => [
    ...Array.from(root.querySelectorAll('ul, ol')).flatMap((list) => Array.from(list.children).filter((child) => child.tagName !== 'LI').map((child) => `${list.tagName} holds ${child.tagName}${child.getAttribute('role') ? `[role=${child.getAttribute('role')}]` : ''}`)),
    ...Array.from(root.querySelectorAll('li')).filter((item) => !['UL', 'OL'].includes(item.parentElement?.tagName ?? '')).map(() => 'LI outside a list'),
  ]);
}

/** Signs a member in through the form (captcha off). */
async function memberLogin(page: Page): Promise<void> {
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }).fill('lister');
  await page.getByLabel('密码', { exact: true }).fill('Member_pass1');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.waitForURL(url(rig.server, '/user/survey/tasks'));
}

describe('shell structure', () => {
  it('side menu: nav > ul > li > button, open state and current page announced; tabs hold no button, × still closes by mouse', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      const main = page.getByRole('main');
      await main.getByRole('row').filter({ hasText: 'admin' }).first().waitFor();
      const menu = page.getByRole('navigation', { name: '主菜单' });
      expect(await listMisfits(menu)).toEqual([]);

      // The page's directory is open and says so; the list it controls holds the current page.
      const directory = menu.getByRole('button', { name: '权限管理', exact: true });
      expect(await directory.getAttribute('aria-expanded')).toBe('true');
      const pages = page.locator(`[id="${await directory.getAttribute('aria-controls')}"]`);
      expect(await pages.getByRole('button', { name: '管理员管理', exact: true }).getAttribute('aria-current')).toBe('page');
      expect(await menu.locator('[aria-current="page"]').count()).toBe(1);
      await directory.click();
      await poll(() => directory.getAttribute('aria-expanded')).toBe('false');
      expect(await directory.getAttribute('aria-controls')).toBeNull();

      // Each tab is one control: nothing focusable inside it.
      const tabs = page.getByRole('tablist', { name: '已打开的页面' });
      await menu.getByRole('button', { name: '控制台', exact: true }).click();
      await page.waitForURL(adminPath('/dashboard'));
      await poll(() => tabs.getByRole('tab').count()).toBe(2);
      const inner = await tabs.getByRole('tab').evaluateAll((all) => all.map((tab) => tab.querySelectorAll('button, a[href], input, select, textarea, [tabindex]').length));
      expect(inner).toEqual([0, 0]);
      expect(await tabs.getByRole('tab', { selected: true }).getAttribute('aria-keyshortcuts')).toBe('Delete');
      expect(await structureViolations(page)).toEqual([]);

      // The mouse still has its ×: closing the other page's tab keeps this one.
      await tabs.getByRole('tab', { name: /管理员管理/ }).getByTestId('tab-close').click();
      await poll(() => tabs.getByRole('tab').count()).toBe(1);
      expect(page.url()).toMatch(adminPath('/dashboard'));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Streamline: the header menu is a list; a directory drop-down says it is open', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'en' });
    try {
      await context.addInitScript(() => {
        const stored = JSON.parse(localStorage.getItem('storeConfig_v2') ?? '{"layout":{}}') as { layout: Record<string, unknown> };
        stored.layout.layoutMode = 'Streamline';
        localStorage.setItem('storeConfig_v2', JSON.stringify(stored));
      });
      await loginAs(page, rig.server, { language: 'en' });
      const menu = page.getByTestId('horizontal-menu');
      await menu.waitFor();
      expect(await listMisfits(menu)).toEqual([]);
      // Located without the accessibility tree: an open drop-down hides the page behind it from it.
      const directory = menu.locator('button', { hasText: 'Permissions' });
      expect(await directory.getAttribute('aria-haspopup')).toBe('menu');
      expect(await directory.getAttribute('aria-expanded')).toBe('false');
      await directory.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      expect(await directory.getAttribute('aria-expanded')).toBe('true');
      expect(await structureViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      expect(await directory.getAttribute('aria-expanded')).toBe('false');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('member menu: a list per directory, named by its heading, of links; the shown page is current; skip link first', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await memberLogin(page);
      const menu = page.getByRole('navigation', { name: '会员菜单' });
      expect(await listMisfits(menu)).toEqual([]);
      const tasks = menu.getByRole('list', { name: '问卷任务' }).getByRole('listitem').getByRole('link', { name: '任务大厅' });
      expect(await tasks.getAttribute('aria-current')).toBe('page');
      expect(await menu.locator('[aria-current="page"]').count()).toBe(1);
      expect(await structureViolations(page)).toEqual([]);

      // A fresh load: the first Tab reaches the skip link (in the page's language), which leads to the heading.
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: zhPages.a11y.skipToContent });
      expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.tagName === 'H1' && Boolean(document.activeElement.closest('main')))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the skip link speaks English in English', async () => {
    const { context, page } = await newPage(rig.browser, { language: 'en' });
    try {
      await loginAs(page, rig.server, { language: 'en' });
      await page.reload();
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.getByRole('link', { name: enPages.a11y.skipToContent }).evaluate((element) => element === document.activeElement)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
