import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPath, fillLogin, loginAs, newPage, startRig, url, ADMIN_BASE, type E2eRig } from './helpers.js';
import { codeAt, currentStep, notACode } from '../support/totp.js';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * An admin whose group requires two-factor sign-in (docs/two-factor.md) signs in for the first time: the
 * card shows the QR code and the key, refuses a wrong code in words, takes the app's code, shows the
 * recovery codes once, and opens the back office. At 1440 and 390 px, in both languages.
 */

const PASSWORD = 'Second_factor1';
const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-two-factor');
const CASES = [
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: true },
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: true },
] as const;

const TEXTS = {
  'zh-cn': {
    turnOn: '开启',
    current: '当前验证码',
    confirm: '确认',
    saved: '已保存',
    on: '已开启：剩余 10 个恢复码。',
    setup: '设置两步验证',
    qr: '用于将此账号添加到验证器应用的二维码',
    code: '验证码或恢复码',
    verify: '验证',
    wrong: '验证码不正确或已使用',
    codes: '请保存恢复码',
    list: '恢复码',
    continue: '已保存，继续',
  },
  en: {
    turnOn: 'Turn on',
    current: 'Current code',
    confirm: 'Confirm',
    saved: 'I saved them',
    on: 'On: 10 recovery codes left.',
    setup: 'Set up two-factor sign-in',
    qr: 'QR code to add this account to an authenticator app',
    code: 'Code, or a recovery code',
    verify: 'Verify',
    wrong: 'The code is not right or was already used',
    codes: 'Save your recovery codes',
    list: 'Recovery codes',
    continue: 'I saved them, continue',
  },
};

describe('two-factor sign-in in the browser', () => {
  let rig: E2eRig;
  let group = 0;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rig = await startRig();
    const token = (await rig.server.loginAdmin()).token;
    const db = rig.server.server.app.db;
    const rules = (
      await db.selectFrom('admin_rule').select('id').where('name', 'in', ['dashboard', 'dashboard/index']).execute()
    ).map((rule) => Number(rule.id));
    await rig.server.admin('auth.Group/add', {
      token,
      body: { pid: 1, name: 'Payout desk', rules, status: '1', two_factor: '1' },
    });
    group = Number(
      (await db.selectFrom('admin_group').select('id').where('name', '=', 'Payout desk').executeTakeFirstOrThrow()).id,
    );
    for (const [index] of CASES.entries()) {
      const added = await rig.server.admin('auth.Admin/add', {
        token,
        body: {
          username: `desk${index}`,
          nickname: `Desk ${index}`,
          password: PASSWORD,
          group_arr: [group],
          status: '1',
        },
      });
      expect(added.code).toBe(1);
      const own = await rig.server.admin('auth.Admin/add', {
        token,
        body: { username: `self${index}`, nickname: `Self ${index}`, password: PASSWORD, group_arr: [1], status: '1' },
      });
      expect(own.code).toBe(1);
    }
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it.each(CASES.map((item, index) => ({ ...item, index })))(
    'sets it up at the first sign-in ($language, phone: $phone)',
    async ({ language, phone, index }) => {
      const text = TEXTS[language];
      const { context, page, errors } = await newPage(rig.browser, { language, phone });
      try {
        await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
        await fillLogin(page, { username: `desk${index}`, password: PASSWORD, language });
        await expect
          .poll(() => page.getByRole('heading', { name: text.setup }).isVisible(), { timeout: 15_000 })
          .toBe(true);
        await expect(page.getByRole('img', { name: text.qr }).isVisible()).resolves.toBe(true);
        const secret = (await page.locator('.ba-two-factor__secret code').innerText()).replace(/\s/g, '');
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({
          path: join(SHOTS, `setup-${language}-${phone ? 'phone' : 'desktop'}.png`),
          fullPage: true,
        });

        const field = page.getByRole('textbox', { name: text.code });
        await field.fill(notACode(secret));
        await page.getByRole('button', { name: text.verify }).click();
        await expect.poll(() => page.getByRole('alert').innerText(), { timeout: 15_000 }).toContain(text.wrong);

        await field.fill(codeAt(secret, currentStep()));
        await page.getByRole('button', { name: text.verify }).click();
        await expect
          .poll(() => page.getByRole('heading', { name: text.codes }).isVisible(), { timeout: 15_000 })
          .toBe(true);
        await expect(page.getByRole('list', { name: text.list }).getByRole('listitem').count()).resolves.toBe(10);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({
          path: join(SHOTS, `codes-${language}-${phone ? 'phone' : 'desktop'}.png`),
          fullPage: true,
        });

        await page.getByRole('button', { name: text.continue }).click();
        await page.waitForURL(adminPath('/dashboard'));
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    90_000,
  );

  it.each(CASES.map((item, index) => ({ ...item, index })))(
    'an admin turns it on from the profile ($language, phone: $phone)',
    async ({ language, phone, index }) => {
      const text = TEXTS[language];
      const { context, page, errors } = await newPage(rig.browser, { language, phone });
      try {
        await loginAs(page, rig.server, { username: `self${index}`, password: PASSWORD, language });
        await page.goto(url(rig.server, `${ADMIN_BASE}/routine/adminInfo`));
        await page.getByRole('button', { name: text.turnOn, exact: true }).click();
        await expect.poll(() => page.getByRole('img', { name: text.qr }).isVisible(), { timeout: 15_000 }).toBe(true);
        const secret = (await page.getByText(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/).innerText()).replace(/\s/g, '');
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({
          path: join(SHOTS, `profile-setup-${language}-${phone ? 'phone' : 'desktop'}.png`),
          fullPage: true,
        });
        await page.getByRole('textbox', { name: text.current }).fill(codeAt(secret, currentStep()));
        await page.getByRole('button', { name: text.confirm, exact: true }).click();
        await expect
          .poll(() => page.getByRole('list', { name: text.list }).getByRole('listitem').count(), { timeout: 15_000 })
          .toBe(10);
        await page.screenshot({
          path: join(SHOTS, `profile-codes-${language}-${phone ? 'phone' : 'desktop'}.png`),
          fullPage: true,
        });
        await page.getByRole('button', { name: text.saved, exact: true }).click();
        await expect.poll(() => page.getByText(text.on).isVisible(), { timeout: 15_000 }).toBe(true);
        await page.screenshot({
          path: join(SHOTS, `profile-on-${language}-${phone ? 'phone' : 'desktop'}.png`),
          fullPage: true,
        });
        const admin = await rig.server.server.app.db
          .selectFrom('admin')
          .select('id')
          .where('username', '=', `self${index}`)
          .executeTakeFirstOrThrow();
        const stored = await rig.server.server.app.db
          .selectFrom('admin_two_factor')
          .select('confirmed_time')
          .where('admin_id', '=', Number(admin.id))
          .executeTakeFirstOrThrow();
        expect(stored.confirmed_time).toBeGreaterThan(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    90_000,
  );
});
