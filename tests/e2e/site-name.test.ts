import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enAdminLogin from '../../locales/en/admin/login.json';
import enMemberLogin from '../../locales/en/member/login.json';
import zhAdminLogin from '../../locales/zh-cn/admin/login.json';
import zhMemberLogin from '../../locales/zh-cn/member/login.json';
import { LANGUAGE_COOKIE, type Language } from '../../src/contract/headers.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * The operator's site name reaches every page from its first paint (issue 40, item 4): after the site is
 * renamed in the settings, the admin login, the member login and a standalone member page (an outcome
 * page) show the new name in their heading or bar and in the browser's title, before anyone signs in —
 * in the served HTML already, and once the page's code has drawn it, in Chinese and English, on a phone
 * and a desktop.
 */

const SITE = 'Aurora 星河调研';

const TEXTS: Record<Language, { admin: string; member: string }> = {
  'zh-cn': { admin: zhAdminLogin.login.title, member: zhMemberLogin.login.title },
  en: { admin: enAdminLogin.login.title, member: enMemberLogin.login.title },
};

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
  const { token } = await rig.server.loginAdmin();
  // renamed as the operator does it: the settings screen's call
  const renamed = await rig.server.admin('routine.Config/edit', { token, method: 'POST', body: { site_name: SITE } });
  expect(renamed.code, renamed.msg).toBe(1);
});

afterAll(async () => {
  await rig?.close();
});

/** The three pages with what each must show the name in, besides its title. */
const PAGES = [
  { path: `${ADMIN_BASE}/login`, title: (language: Language) => TEXTS[language].admin, named: (page: Page) => page.getByRole('heading', { level: 2, name: SITE, exact: true }) },
  { path: '/user/login', title: (language: Language) => TEXTS[language].member, named: (page: Page) => page.getByRole('heading', { level: 2, name: SITE, exact: true }) },
  { path: '/success?rid=none&sig=none', title: undefined, named: (page: Page) => page.getByRole('link', { name: SITE, exact: true }) },
];

async function fits(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('the site name on the pages before sign-in', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const where = `${language} at ${phone ? 390 : 1440} px`;

      it(`is in the served HTML of the login pages and an outcome page, ${where}`, async () => {
        const context = await rig.browser.newContext({ javaScriptEnabled: false, viewport: phone ? { width: 390, height: 844 } : { width: 1440, height: 900 } });
        context.setDefaultTimeout(WAIT_MS);
        await context.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: rig.server.url }]);
        try {
          const page = await context.newPage();
          for (const target of PAGES) {
            await page.goto(url(rig.server, target.path));
            if (target.title) expect(await page.title(), target.path).toBe(`${target.title(language)} - ${SITE}`);
            else expect(await page.title(), target.path).toMatch(new RegExp(`^.+ - ${SITE}$`));
            expect(await target.named(page).isVisible(), target.path).toBe(true);
            expect(await page.locator('meta[name="application-name"]').getAttribute('content'), target.path).toBe(SITE);
          }
        } finally {
          await context.close();
        }
      });

      it(`is in the heading and the title once each page's code has drawn it, ${where}`, async () => {
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          for (const target of PAGES) {
            await page.goto(url(rig.server, target.path));
            await target.named(page).waitFor();
            if (target.title) await poll(() => page.title(), target.path).toBe(`${target.title(language)} - ${SITE}`);
            else await poll(() => page.title(), target.path).toMatch(new RegExp(`^.+ - ${SITE}$`));
            expect(await page.getByText('Chidao Survey').count(), target.path).toBe(0);
            expect(await fits(page), target.path).toBe(true);
          }
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('the site name in the signed-in back office', () => {
  it('changes in the brand and the title as soon as the settings are saved, without a reload', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'zh-cn' });
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/routine/config`));
      const aside = page.getByTestId('admin-aside');
      await aside.getByText(SITE, { exact: true }).waitFor();
      const renamed = '晨光调研 Dawn';
      await page.getByLabel(/站点名称/).first().fill(renamed);
      await page.getByRole('main').getByRole('button', { name: '保存', exact: true }).first().click();
      await page.getByText('配置已保存').waitFor();
      await aside.getByText(renamed, { exact: true }).waitFor();
      await poll(() => page.title()).toMatch(new RegExp(` - ${renamed}$`));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      const { token } = await rig.server.loginAdmin();
      await rig.server.admin('routine.Config/edit', { token, method: 'POST', body: { site_name: SITE } });
    }
  });
});
