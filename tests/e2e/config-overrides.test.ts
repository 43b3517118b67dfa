import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enConfig from '../../locales/en/admin/config.json';
import zhConfig from '../../locales/zh-cn/admin/config.json';
import zhServer from '../../locales/zh-cn/server/config.json';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The config screen shows what an environment variable decides as such: the admin-login captcha, stored on
 * but turned off by ADMIN_LOGIN_CAPTCHA, shows off, cannot be switched, and its notice names the variable and
 * the stored value; the upload size set by UPLOAD_MAX_SIZE likewise; saving the group leaves the stored value
 * alone. The payout and upload settings have labelled fields with help. In Chromium at 1440 and 390 px, in
 * zh-cn and en, checked by axe. Screenshots go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-config-overrides');
type Language = 'zh-cn' | 'en';
/** The server's English texts are the keys of its Chinese ones. */
const server = (language: Language, text: keyof typeof zhServer | string) => (language === 'zh-cn' ? (zhServer as Record<string, string>)[text] : text);
const TEXTS = {
  'zh-cn': { ui: zhConfig.config, save: '保存' },
  en: { ui: enConfig.config, save: 'Save' },
} as const;

let rig: E2eRig;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // the test servers turn both login captchas off by their variables; the upload size is set by one too
  rig = await startRig({ UPLOAD_MAX_SIZE: '2mb' });
});

afterAll(async () => {
  await rig?.close();
});

async function stored(name: string): Promise<string | null | undefined> {
  const row = (await rig.server.server.app.db.selectFrom('config').select('value').where('name', '=', name).executeTakeFirst()) as { value: string | null } | undefined;
  return row?.value;
}

/** Nothing wider than the window: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.content, `${what}: content ${widths.content} px in a ${widths.window} px window`).toBeLessThanOrEqual(widths.window);
}

/** The text of the element the control's aria-describedby names. */
async function description(page: Page, control: ReturnType<Page['locator']>): Promise<string> {
  const id = await control.getAttribute('aria-describedby');
  expect(id, 'the control is described by the notice').toBeTruthy();
  return (await page.locator(`[id="${id}"]`).textContent()) ?? '';
}

describe('settings an environment variable decides', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const width = phone ? 390 : 1440;
      it(`are shown as set by the variable, with the value that applies (${language}, ${width} px)`, async () => {
        const { ui, save } = TEXTS[language];
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          await page.goto(url(rig.server, `${ADMIN_BASE}/routine/config`));

          // Basics: the captcha is stored on, and off because of ADMIN_LOGIN_CAPTCHA
          const captcha = page.locator('[data-overridden="admin_login_captcha"]');
          await captcha.waitFor();
          expect(await stored('admin_login_captcha')).toBe('1');
          const toggle = captcha.locator('input');
          expect(await toggle.isDisabled()).toBe(true);
          expect(await toggle.isChecked()).toBe(false);
          // labelled in the label column, with what the variable makes it beside the switch
          expect(await captcha.getByRole('switch', { name: server(language, 'Admin login captcha') }).count()).toBe(1);
          expect(await captcha.locator('label').first().textContent()).toBe(server(language, 'Admin login captcha'));
          await captcha.getByText(ui.override.off, { exact: true }).waitFor();
          const notice = await description(page, toggle);
          expect(notice).toContain('ADMIN_LOGIN_CAPTCHA');
          expect(notice).toBe(ui.override.overridden.replace('%{variable}', 'ADMIN_LOGIN_CAPTCHA').replace('%{stored}', ui.override.on));
          // the item's help is shown too
          expect(await captcha.textContent()).toContain(server(language, 'On: administrators solve a click captcha to sign in'));
          await expectNoSidewaysScroll(page, 'the Basics group');
          expectNoViolations(await sweep(page, `config Basics (${language}, ${width} px)`, '.MuiCard-root'));
          await page.screenshot({ path: join(SHOTS, `${language}-${width}-basics.png`), fullPage: true });

          // saving the group writes what the form holds, never the overridden switch
          const siteName = page.getByRole('textbox', { name: server(language, 'Site Name') });
          await siteName.fill(`Panel ${language} ${width}`);
          await page.getByRole('button', { name: save, exact: true }).click();
          await page.getByText(ui.saved).waitFor();
          await poll(() => stored('site_name')).toBe(`Panel ${language} ${width}`);
          expect(await stored('admin_login_captcha')).toBe('1');

          // Uploads: the size UPLOAD_MAX_SIZE sets, and the file types to choose from
          await page.getByRole('tab', { name: server(language, 'Uploads') }).click();
          const size = page.locator('[data-overridden="upload_max_size"]');
          await size.waitFor();
          const sizeBox = page.getByRole('textbox', { name: server(language, 'Largest upload') });
          expect(await sizeBox.isDisabled()).toBe(true);
          expect(await sizeBox.inputValue()).toBe('2mb');
          expect(await description(page, sizeBox)).toBe(ui.override.overridden.replace('%{variable}', 'UPLOAD_MAX_SIZE').replace('%{stored}', '10mb'));
          await page.getByText(server(language, 'Allowed file types')).first().waitFor();
          expect(await page.getByRole('checkbox', { name: '.pdf' }).isChecked()).toBe(false);
          expect(await page.getByRole('checkbox', { name: '.png' }).isChecked()).toBe(true);
          await page.getByText(server(language, 'The file name endings administrators and members may upload')).waitFor();
          await expectNoSidewaysScroll(page, 'the Uploads group');
          expectNoViolations(await sweep(page, `config Uploads (${language}, ${width} px)`, '.MuiCard-root'));
          await page.screenshot({ path: join(SHOTS, `${language}-${width}-uploads.png`), fullPage: true });

          // Payouts: the least payout and the two-administrator rule, labelled, with help, editable
          await page.getByRole('tab', { name: server(language, 'Payouts') }).click();
          const least = page.getByRole('textbox', { name: server(language, 'Least payout (¥)') });
          expect(await least.inputValue()).toBe('10.00');
          expect(await least.isDisabled()).toBe(false);
          await page.getByText(server(language, 'The smallest amount a member may ask to be paid out, in yuan with at most two decimals')).waitFor();
          await page.getByText(server(language, 'On: the administrator who approved a payout cannot also mark it paid')).waitFor();
          expect(await page.locator('[data-overridden]').count()).toBe(0);
          expectNoViolations(await sweep(page, `config Payouts (${language}, ${width} px)`, '.MuiCard-root'));
          await page.screenshot({ path: join(SHOTS, `${language}-${width}-payouts.png`), fullPage: true });
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
