import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enAccount from '../../locales/en/member/account.json';
import enLogin from '../../locales/en/member/login.json';
import zhAccount from '../../locales/zh-cn/member/account.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import { createTranslate } from '../../src/client/i18n/translate.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { expectNoViolations, sweep } from './axe.js';
import { newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * A member exchanges points for balance on the points page, in Chromium at 1440 and 390 px in zh-cn and
 * en: the rate, the least per exchange and today's allowance are shown, a number below the minimum is
 * refused on the field in the page's language, an exchange ends with its message, the figures and the log
 * follow, and both ledgers moved once. Closed by the operator, the page says what points are for and shows
 * no form. Screenshots go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-points-exchange');
const PASSWORD = 'Member_pass1';
type Language = 'zh-cn' | 'en';
const TEXTS = {
  'zh-cn': {
    login: zhLogin.login,
    page: zhAccount.memberAccount,
    below: '单次最少兑换 100 积分',
    done: '已将 250 积分兑换为 ¥2.50 余额',
  },
  en: {
    login: enLogin.login,
    page: enAccount.memberAccount,
    below: 'The least you can exchange is 100 points',
    done: 'Exchanged 250 points for ¥2.50',
  },
} as const;
const CASES: { language: Language; phone: boolean }[] = [
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: true },
  { language: 'en', phone: true },
];

let rig: E2eRig;
let adminToken = '';

async function member(username: string): Promise<number> {
  expect(
    (
      await rig.server.admin('user.User/add', {
        token: adminToken,
        body: { username, nickname: username, group_id: 1, password: PASSWORD },
      })
    ).code,
  ).toBe(1);
  const id = Number(
    (
      (await rig.server.server.app.db
        .selectFrom('user')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()) as { id: number }
    ).id,
  );
  await recordLedgerEntry(rig.server.server.app.db, rig.server.server.app.handle.dialect, {
    kind: 'score',
    userId: id,
    amount: 1000,
    memo: 'Survey rewards',
  });
  return id;
}

async function settings(values: Record<string, unknown>): Promise<void> {
  expect((await rig.server.admin('routine.Config/edit', { token: adminToken, body: values })).code).toBe(1);
}

async function openPointsPage(page: Page, language: Language, username: string): Promise<void> {
  const texts = TEXTS[language];
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: texts.login.username }).fill(username);
  await page.getByLabel(texts.login.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
  await page.waitForURL(/\/user\/(?!login)/);
  await page.goto(url(rig.server, '/user/account/integral'));
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  adminToken = (await rig.server.loginAdmin()).token;
});

afterAll(async () => {
  await rig?.close();
});

describe('exchanging points on the points page', () => {
  CASES.forEach(({ language, phone }, index) => {
    const width = phone ? 390 : 1440;
    it(`exchanges points for balance at ${width} px in ${language}`, async () => {
      await settings({
        points_exchange: true,
        points_exchange_rate: 100,
        points_exchange_min: 100,
        points_exchange_daily: 500,
      });
      const username = `points${index}`;
      const id = await member(username);
      const { page: text } = TEXTS[language];
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await openPointsPage(page, language, username);
        const region = page.getByRole('region', { name: text.exchange.title });
        // the page's words as its translate function picks them (plural forms by count)
        const say = createTranslate({ exchange: text.exchange });
        await region.waitFor();
        expect(await region.getByTestId('exchange-points').textContent()).toContain('1000');
        expect(await region.getByTestId('exchange-rate').textContent()).toContain(
          say('exchange.rateValue', { smart_count: 100 }),
        );
        expect(await region.getByTestId('exchange-minimum').textContent()).toContain(
          say('exchange.pointsValue', { smart_count: 100 }),
        );
        expect(await region.getByTestId('exchange-remaining').textContent()).toContain(
          say('exchange.pointsValue', { smart_count: 500 }),
        );
        await region.getByText(say('exchange.dailyLimit', { smart_count: 500 })).waitFor();

        const field = region.getByRole('textbox', { name: text.exchange.amount });
        const submit = region.getByRole('button', { name: text.exchange.submit, exact: true });
        await field.fill('50');
        await submit.click();
        await region.getByText(TEXTS[language].below).waitFor();
        expect(await field.getAttribute('aria-invalid')).toBe('true');

        await field.fill('250');
        await region.getByText(text.exchange.preview.replace('%{yuan}', '2.50')).waitFor();
        await submit.click();
        await region.getByRole('status').filter({ hasText: TEXTS[language].done }).waitFor();
        await poll(() => region.getByTestId('exchange-points').textContent()).toContain('750');
        await poll(() => region.getByTestId('exchange-remaining').textContent()).toContain(
          say('exchange.pointsValue', { smart_count: 250 }),
        );
        // The log is a table at 1440 px and a list on a phone.
        await page
          .getByRole(phone ? 'list' : 'table', { name: text.ledger.integral })
          .getByText('-250')
          .waitFor();
        expect(await field.inputValue()).toBe('');

        const user = (await rig.server.server.app.db
          .selectFrom('user')
          .select(['money', 'score'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()) as { money: number; score: number };
        expect({ money: Number(user.money), score: Number(user.score) }).toEqual({ money: 250, score: 750 });
        const moneyEntries = await rig.server.server.app.db
          .selectFrom('user_money_log')
          .select('money')
          .where('user_id', '=', id)
          .execute();
        expect(moneyEntries.map((entry) => Number(entry.money))).toEqual([250]);

        if (phone)
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `points page ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-exchanged.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });

  for (const [language, phone] of [
    ['zh-cn', true],
    ['en', false],
  ] as const) {
    const width = phone ? 390 : 1440;
    it(`says what points are for, with no form, while the operator keeps it closed, at ${width} px in ${language}`, async () => {
      await settings({ points_exchange: false });
      const username = `closed${language.slice(0, 2)}`;
      await member(username);
      const { page: text } = TEXTS[language];
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await openPointsPage(page, language, username);
        const region = page.getByRole('region', { name: text.exchange.title });
        await region.getByText(text.exchange.closed).waitFor();
        expect(await region.getByRole('textbox').count()).toBe(0);
        expect(await region.getByRole('button').count()).toBe(0);
        expectNoViolations(await sweep(page, `closed points page ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-closed.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
