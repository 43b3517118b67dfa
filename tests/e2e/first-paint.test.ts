import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enAdminLogin from '../../locales/en/admin/login.json';
import enMemberLogin from '../../locales/en/member/login.json';
import enSurvey from '../../locales/en/common/survey.json';
import zhAdminLogin from '../../locales/zh-cn/admin/login.json';
import zhMemberLogin from '../../locales/zh-cn/member/login.json';
import zhSurvey from '../../locales/zh-cn/common/survey.json';
import { LANGUAGE_COOKIE, type Language } from '../../src/contract/headers.js';
import { ADMIN_BASE, adminPath, fillLogin, newPage, poll, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * The login pages and the outcome page paint from the server's HTML, before their code arrives: the
 * first view is the page itself, in the browser's language (its cookie), fitting a phone and a desktop.
 * Then the page's code draws over it with no loading screen in between, and the form works.
 */

const TEXTS: Record<Language, { admin: string; member: string; checking: string; password: string }> = {
  'zh-cn': { admin: zhAdminLogin.login.title, member: zhMemberLogin.login.title, checking: zhSurvey.survey.outcome.headline.checking, password: zhAdminLogin.login.password },
  en: { admin: enAdminLogin.login.title, member: enMemberLogin.login.title, checking: enSurvey.survey.outcome.headline.checking, password: enAdminLogin.login.password },
};

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

/** A page in a browser that runs no script: what it shows is the server's HTML and CSS alone. */
async function withoutScript<T>(browser: Browser, width: number, language: Language | undefined, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 844 }, locale: 'zh-CN' });
  context.setDefaultTimeout(WAIT_MS);
  if (language) await context.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: rig.server.url }]);
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

async function fits(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('first paint from the server', () => {
  it('shows the login pages and the outcome page before any script runs, in the chosen language, at 390 and 1440 px', async () => {
    for (const language of [undefined, 'en'] as const) {
      const texts = TEXTS[language ?? 'zh-cn'];
      for (const width of [390, 1440]) {
        await withoutScript(rig.browser, width, language, async (page) => {
          const where = `${language ?? 'no cookie'} at ${width} px`;
          await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
          expect(await page.getByRole('heading', { level: 1 }).textContent(), where).toBe(texts.admin);
          expect(await page.title(), where).toBe(`${texts.admin} - Chidao Survey`);
          expect(await page.locator('html').getAttribute('lang'), where).toBe(language === 'en' ? 'en' : 'zh-CN');
          const password = page.locator(`input[type="password"][placeholder="${texts.password}"]`);
          expect(await password.isVisible(), where).toBe(true);
          // Nothing can be typed or sent before the page's code runs the form.
          expect(await password.evaluate((input) => input.closest('[inert]') !== null), where).toBe(true);
          expect(await fits(page), where).toBe(true);

          await page.goto(url(rig.server, '/user/login'));
          expect(await page.getByRole('heading', { level: 1 }).textContent(), where).toBe(texts.member);
          expect(await fits(page), where).toBe(true);

          await page.goto(url(rig.server, '/success?rid=none&sig=none'));
          expect(await page.getByRole('heading', { level: 1 }).textContent(), where).toBe(texts.checking);
          expect(await page.getByRole('heading', { level: 1 }).isVisible(), where).toBe(true);
          expect(await fits(page), where).toBe(true);
        });
      }
    }
  });

  it('hands over to the page’s code with no loading screen between, and the language chosen on the page reaches the server', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      // Whatever the page shows from the first byte on: the app's loading screen must never be among it.
      await page.addInitScript(() => {
        (window as unknown as { fallbackSeen: boolean }).fallbackSeen = false;
        new MutationObserver(() => {
          if (document.querySelector('.app-fallback')) (window as unknown as { fallbackSeen: boolean }).fallbackSeen = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      await page.waitForFunction(() => document.querySelector('[inert]') === null);
      expect(await page.evaluate(() => (window as unknown as { fallbackSeen: boolean }).fallbackSeen)).toBe(false);

      await page.getByRole('button', { name: 'English' }).click();
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(TEXTS.en.admin);
      expect((await context.cookies()).find((cookie) => cookie.name === LANGUAGE_COOKIE)?.value).toBe('en');
      const html = await (await page.request.get(url(rig.server, `${ADMIN_BASE}/login`))).text();
      expect(html).toContain(`<h1>${TEXTS.en.admin}</h1>`);

      await fillLogin(page, { language: 'en' });
      await page.waitForURL(adminPath('/dashboard'));
      expect(await page.evaluate(() => (window as unknown as { fallbackSeen: boolean }).fallbackSeen)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reports an outcome page’s return while the page’s code is still arriving, and only once', async () => {
    const { context, page } = await newPage(rig.browser);
    try {
      // What happened, in order: `report` for each report sent, `code` when the page's code is let through.
      const seen: string[] = [];
      let firstReport: () => void = () => undefined;
      const reportSeen = new Promise<void>((resolve) => (firstReport = resolve));
      page.on('request', (request) => {
        if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/survey/outcome') return;
        seen.push('report');
        firstReport();
      });
      // The page's code is held back until the report has gone (or for at most WAIT_MS, were the report to
      // wait for the code: then the order below fails): the report must not wait for it.
      await page.route(/\/assets\/OutcomePage-[^/]+\.js$/, async (route) => {
        await Promise.race([reportSeen, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
        seen.push('code');
        await route.continue();
      });
      await page.goto(url(rig.server, '/success?rid=nobody&sig=0'));
      await page.waitForFunction(() => document.querySelector('#root > .first-paint') === null);
      // The page's code has drawn the report's answer, so its mount is long over: a report of its own
      // would have been sent by then. A request made after that and answered comes after any such report
      // in the browser's network events, so `seen` holds them all.
      await page.waitForFunction(() => (document.querySelector('[data-outcome]')?.getAttribute('data-outcome') ?? 'checking') !== 'checking');
      await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === '/health/live'), page.evaluate(() => fetch('/health/live').then((response) => response.status))]);
      expect(seen).toEqual(['report', 'code']);
    } finally {
      await context.close();
    }
  });
});
