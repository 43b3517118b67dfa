import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enConfig from '../../locales/en/admin/config.json';
import enDashboard from '../../locales/en/admin/dashboard.json';
import enLogin from '../../locales/en/member/login.json';
import zhConfig from '../../locales/zh-cn/admin/config.json';
import zhDashboard from '../../locales/zh-cn/admin/dashboard.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { adminPath, ADMIN_BASE, loginForm, newPage, poll, solveClickCaptcha, startRig, url, type E2eRig } from './helpers.js';

/**
 * A fresh install, where neither mail nor SMS has delivered anything (docs/wire-contract.md#code-channels): a visitor
 * registers with a username, a password and the click captcha, no code, and lands in the member centre; the
 * administrator's dashboard says no code can reach members, and its link opens the settings, which show each
 * channel's state. In Chromium at 1440 and 390 px, in Chinese and in English, checked by axe.
 */

const TEXTS = {
  'zh-cn': { login: zhLogin.account, dashboard: zhDashboard.dashboard.codeChannels, channels: zhConfig.config.channels },
  en: { login: enLogin.account, dashboard: enDashboard.dashboard.codeChannels, channels: enConfig.config.channels },
} as const;
const VIEWPORTS = [
  { name: '1440 px', phone: false },
  { name: '390 px', phone: true },
] as const;

let rig: E2eRig;
let members = 0;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

/** Nothing wider than the window: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.content, `${what}: content ${widths.content} px in a ${widths.window} px window`).toBeLessThanOrEqual(widths.window);
}

describe('a fresh install', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const viewport of VIEWPORTS) {
      const texts = TEXTS[language];
      it(`registers a member without a code and warns the administrator (${language}, ${viewport.name})`, async () => {
        const username = `fresh${++members}${viewport.phone ? 'p' : 'd'}`;
        const { context, page, errors } = await newPage(rig.browser, { language, phone: viewport.phone });
        try {
          await page.goto(url(rig.server, '/user/login?tab=register'));
          const form = page.getByRole('form', { name: texts.login.register.title });
          await form.getByText(texts.login.register.withoutCode).waitFor();
          // no address, no code: the site cannot send one yet
          expect(await form.getByRole('textbox', { name: texts.login.code }).count()).toBe(0);
          expect(await form.getByRole('textbox', { name: texts.login.by.email }).count()).toBe(0);
          await expectNoSidewaysScroll(page, 'the register form');
          expectNoViolations(await sweep(page, `register without a code (${language}, ${viewport.name})`));

          await form.getByRole('textbox', { name: texts.login.username }).fill(username);
          await form.getByLabel(texts.login.password, { exact: true }).fill('Member_pass1');
          const puzzle = page.waitForRequest((request) => request.url().includes('/api/common/clickCaptcha'));
          await form.getByRole('button', { name: texts.login.register.submit }).click();
          await solveClickCaptcha(page, rig.server, await puzzle);
          await page.waitForURL(/\/user\/(?!login)/);
          const stored = await rig.server.server.app.db.selectFrom('user').select(['username', 'email', 'mobile']).where('username', '=', username).executeTakeFirst();
          expect(stored).toEqual({ username, email: '', mobile: '' });

          // the administrator's dashboard says so, and leads to the settings
          await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
          const login = loginForm(page, language);
          await login.username.fill('admin');
          await login.password.fill(ADMIN_PASSWORD);
          await login.submit.click();
          await page.waitForURL(adminPath('/dashboard'));
          const notice = page.getByTestId('code-channel-notice');
          await notice.getByText(texts.dashboard.title).waitFor();
          await poll(() => notice.textContent()).toContain(texts.dashboard.withoutCode);
          // each channel in the language's own punctuation (邮件：未配置, Email: Not set up)
          const channel = (name: string, state: string) => texts.dashboard.channel.replace('%{name}', name).replace('%{state}', state);
          expect(await notice.textContent()).toContain(channel(texts.channels.name.email, texts.channels.state.notSetUp));
          expect(await notice.textContent()).toContain(channel(texts.channels.name.mobile, texts.channels.state.unchecked));
          await expectNoSidewaysScroll(page, 'the dashboard');
          expectNoViolations(await sweep(page, `dashboard notice (${language}, ${viewport.name})`, '[data-testid="code-channel-notice"]'));

          await notice.getByRole('link', { name: texts.dashboard.open }).click();
          await poll(() => new URL(page.url()).pathname).toBe(`${ADMIN_BASE}/routine/config`);
          const channels = page.getByRole('region', { name: texts.channels.title });
          await channels.getByText(texts.channels.state.notSetUp).waitFor();
          await channels.getByText(texts.channels.help.mobile.unchecked).waitFor();
          expect(await channels.getByText(texts.channels.neverChecked).count()).toBe(2);
          await expectNoSidewaysScroll(page, 'the settings');
          expectNoViolations(await sweep(page, `code channels (${language}, ${viewport.name})`, '[aria-labelledby="code-channels-title"]'));
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
