import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminPath, loginAs, newPage, poll, startRig, type E2eRig } from './helpers.js';

/** The back office's open tabs outlive a reload of the page: same tabs, same order, same one active. */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

const WORDS = {
  'zh-cn': { openMenu: '打开菜单', mainMenu: '主菜单', tabs: ['控制台', '管理员管理', '管理员日志管理'], dir: '权限管理' },
  en: { openMenu: 'Open menu', mainMenu: 'Main menu', tabs: ['Dashboard', 'Administrators', 'Admin logs'], dir: 'Permissions' },
} as const;

type Language = keyof typeof WORDS;

/** Opens a page of the side menu as a person does (on a phone the menu is a drawer opened first). */
async function openFromMenu(page: Page, language: Language, phone: boolean, title: string): Promise<void> {
  const words = WORDS[language];
  if (phone) await page.getByRole('button', { name: words.openMenu }).click();
  const menu = page.getByRole('navigation', { name: words.mainMenu });
  const folder = menu.getByRole('button', { name: words.dir, exact: true }).first();
  if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
  await folder.locator('xpath=following-sibling::div[1]').getByRole('button', { name: title, exact: true }).click();
}

const tabTexts = (page: Page) => page.getByTestId('page-tabs').getByRole('tab').allTextContents();
const activeTab = (page: Page) => page.getByTestId('page-tabs').getByRole('tab', { selected: true }).textContent();
/** Whether the active tab lies wholly in the strip's visible width: its title can be read, not cut by the header's buttons. */
const activeTabWhole = (page: Page) =>
  page.getByTestId('page-tabs').evaluate((strip) => {
    const tab = strip.querySelector('[role="tab"][aria-selected="true"]');
    if (!tab) return false;
    const [outer, inner] = [strip.getBoundingClientRect(), tab.getBoundingClientRect()];
    return inner.width > 0 && inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
  });

describe('tabs over a reload', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      it(`keeps the open tabs, their order and the active one (${language}, ${phone ? '390' : '1440'} px)`, async () => {
        const words = WORDS[language];
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          await poll(() => tabTexts(page)).toEqual([words.tabs[0]]);

          await openFromMenu(page, language, phone, words.tabs[2]);
          await page.waitForURL(adminPath('/auth/adminLog'));
          await openFromMenu(page, language, phone, words.tabs[1]);
          await page.waitForURL(adminPath('/auth/admin'));
          await poll(() => tabTexts(page)).toEqual([words.tabs[0], words.tabs[2], words.tabs[1]]);

          await page.reload();
          await page.waitForURL(adminPath('/auth/admin'));
          await poll(() => tabTexts(page)).toEqual([words.tabs[0], words.tabs[2], words.tabs[1]]);
          expect(await activeTab(page)).toBe(words.tabs[1]);
          await poll(() => activeTabWhole(page), 'the active tab is shown whole').toBe(true);

          // Each tab still opens its page.
          await page.getByTestId('page-tabs').getByRole('tab', { name: words.tabs[2] }).click();
          await page.waitForURL(adminPath('/auth/adminLog'));
          expect(await activeTab(page)).toBe(words.tabs[2]);
          await poll(() => activeTabWhole(page), 'the active tab is shown whole').toBe(true);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
