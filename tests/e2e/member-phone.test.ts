import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import enHome from '../../locales/en/member/home.json';
import enLogin from '../../locales/en/member/login.json';
import enRanking from '../../locales/en/member/ranking.json';
import enShell from '../../locales/en/member/shell.json';
import zhHome from '../../locales/zh-cn/member/home.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import zhRanking from '../../locales/zh-cn/member/ranking.json';
import zhShell from '../../locales/zh-cn/member/shell.json';
import enSurvey from '../../locales/en/common/survey.json';
import zhSurvey from '../../locales/zh-cn/common/survey.json';
import { codeIn } from '../support/mail-sink.js';
import { ledgerNotes, recordLedgerEntry } from '../../src/server/services/ledger.js';
import { creditOrHold } from '../../src/server/services/holds.js';
import type { ProviderRow } from '../../src/server/services/survey/returns.js';
import { recordWallCallback } from '../../src/server/services/survey/walls.js';
import { proveSms } from '../support/code-channels.js';
import { newPage, PHONE, poll, solveClickCaptcha, startRig, url, type E2eRig } from './helpers.js';

/**
 * The member centre on a phone (390 × 844), in Chinese and in English: every page of the member menu,
 * and the login, register and password pages, fit the screen: nothing scrolls sideways and no visible
 * element reaches past the viewport. The payouts page shows the balance and the minimum and marks every
 * missing field at once; registration without mail settings (an SMS driver, no SMTP) offers the mobile number.
 */

const MEMBER = { username: 'phoner', password: 'Member_pass1' };
const WALL_NAME = 'A survey wall with a rather long name for small screens';
const WALL_TRANSACTION = 'TXN-0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a';
const TEXTS = {
  'zh-cn': { login: zhLogin, shell: zhShell.memberShell, home: zhHome.memberHome, ranking: zhRanking.memberRanking, survey: zhSurvey.survey },
  en: { login: enLogin, shell: enShell.memberShell, home: enHome.memberHome, ranking: enRanking.memberRanking, survey: enSurvey.survey },
} as const;
type Language = keyof typeof TEXTS;

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  // SMS is proven as an administrator proves it, by a test message; mail is not set up
  await proveSms(rig.server, token);
  expect((await rig.server.admin('user.User/add', { token, body: { username: MEMBER.username, nickname: 'Phone Member With A Long Name', group_id: 1, password: MEMBER.password } })).code).toBe(1);
  const { id } = (await rig.server.server.app.db.selectFrom('user').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow()) as { id: number };
  const dialect = rig.server.server.app.handle.dialect;
  await recordLedgerEntry(rig.server.server.app.db, dialect, { kind: 'money', userId: Number(id), amount: 12_345, memo: 'Survey rewards for the long questionnaire about daily habits' });
  await recordLedgerEntry(rig.server.server.app.db, dialect, { kind: 'score', userId: Number(id), amount: 30, memo: 'Points for completing a survey' });
  // Two open surveys with long titles: one on the task list, one started so the tracking page lists it.
  expect((await rig.server.admin('survey.Provider/add', { token, body: { code: 'phone', name: 'Phone panel', secret: 'phone-secret-1' } })).code).toBe(1);
  const provider = (await rig.server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', 'phone').executeTakeFirstOrThrow()) as { id: number };
  const surveyIds: number[] = [];
  for (const title of ['A rather long survey title about commuting habits in large cities', 'Another long survey about breakfast, coffee and tea in the morning']) {
    const body = { provider_id: provider.id, title, description: 'Tell us how you get to work and back every day of the week', entry_url: 'https://panel.example/s/42?r={rid}', reward_money: '12.50', reward_score: 120, loi_minutes: 15, status: 'active' };
    expect((await rig.server.admin('survey.Survey/add', { token, body })).code).toBe(1);
    surveyIds.push(Number(((await rig.server.server.app.db.selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow()) as { id: number }).id));
  }
  const login = await rig.server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: MEMBER.username, password: MEMBER.password } });
  expect((await rig.server.api('survey/start', { body: { id: surveyIds[1] }, userToken: login.data.userInfo.token })).code).toBe(1);
  // Credits still held for a hold period, with long memos: the overview lists them, the payouts page shows their sum.
  const memo = ledgerNotes.surveyReward({ id: surveyIds[0], title: 'A rather long survey title about commuting habits in large cities' });
  await rig.server.server.app.db.transaction().execute(async (trx) => {
    await creditOrHold(trx, dialect, { kind: 'money', userId: Number(id), amount: 2050, memo, idempotencyKey: 'phone:held:money', holdDays: 7, source: { type: 'participation', id: 1 } });
    await creditOrHold(trx, dialect, { kind: 'score', userId: Number(id), amount: 120, memo, idempotencyKey: 'phone:held:score', holdDays: 30, source: { type: 'participation', id: 1 } });
  });
  // A points wall with a long name (the balance the payouts page shows stays as it is): its "more surveys" entry
  // on the surveys page, and a credit, a reversal and a refusal with long transaction ids in the task records.
  const wallBody = {
    code: 'phonewall', name: WALL_NAME, secret: 'wall-secret-1', kind: 'wall', member_param: 'uid', transaction_param: 'tx', amount_param: 'amount',
    reversal: { by: 'status', param: 'status', value: '2' }, wall_url: 'https://wall.example/offers?app=7&user={member}', cap_transaction: 5000,
    wall_credit: 'score', amount_in: 'minor',
  };
  expect((await rig.server.admin('survey.Provider/add', { token, body: wallBody })).code).toBe(1);
  const wall = (await rig.server.server.app.db.selectFrom('survey_provider').selectAll().where('code', '=', 'phonewall').executeTakeFirstOrThrow()) as ProviderRow;
  const opened = await rig.server.api<{ url: string }>('survey/wall', { query: { provider: 'phonewall' }, userToken: login.data.userInfo.token });
  const uid = new URL(opened.data.url).searchParams.get('user') as string;
  const calls: Record<string, string>[] = [{ tx: WALL_TRANSACTION, amount: '1234' }, { tx: `${WALL_TRANSACTION}-2`, amount: '300' }, { tx: `${WALL_TRANSACTION}-2`, status: '2' }, { tx: `${WALL_TRANSACTION}-3`, amount: '99999' }];
  for (const query of calls) {
    const params = new URLSearchParams({ uid, ...query });
    await recordWallCallback(rig.server.server.app, wall, (name) => params.get(name) ?? undefined, { ip: '203.0.113.9', rawQuery: params.toString() });
  }
});

afterAll(async () => {
  await rig?.close();
});


/**
 * What does not fit: the document's own sideways scroll, each visible element whose box reaches past
 * either side of the viewport (a table scrolling sideways inside its box counts too), and each one cut
 * off by a box around it that hides what overflows (a button clipped by its card).
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    const name = (element: Element) => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const classes = typeof element.className === 'string' ? element.className.split(' ').slice(0, 2).join('.') : '';
      return `<${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}> "${text}"`;
    };
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      const box = element.getBoundingClientRect();
      // Screen-reader-only text (1 px, clipped) and empty boxes are not seen.
      if (box.width <= 1 || box.height <= 1) continue;
      // A click's ripple is a circle its button clips on purpose, for as long as it fades.
      if (element.closest('.MuiTouchRipple-root')) continue;
      if (box.left < -1 || box.right > width + 1) {
        found.push(`${name(element)} spans ${Math.round(box.left)}–${Math.round(box.right)}`);
        continue;
      }
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === 'visible') continue;
        const outer = parent.getBoundingClientRect();
        if (box.left < outer.left - 1 || box.right > outer.right + 1) found.push(`${name(element)} cut off by ${name(parent)}`);
        break;
      }
    }
    return found.slice(0, 8);
  });
}

/** Waits until the page has settled (no request for half a second), then checks it fits. */
async function expectFits(page: Page, what: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await overflows(page), `${what} at ${PHONE.width} px`).toEqual([]);
}

async function login(page: Page, language: Language): Promise<void> {
  const texts = TEXTS[language].login;
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: texts.login.username }).fill(MEMBER.username);
  await page.getByLabel(texts.login.password, { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
  await page.waitForURL(/\/user\/(?!login)/);
}

describe('member centre on a phone', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    it(`fits every member page at 390 px in ${language}`, async () => {
      const { context, page, errors } = await newPage(rig.browser, { language, phone: true });
      const texts = TEXTS[language];
      try {
        for (const tab of ['', '?tab=register', '?tab=retrieve']) {
          await page.goto(url(rig.server, `/user/login${tab}`));
          await page.getByRole('heading', { level: 1 }).waitFor();
          await expectFits(page, `/user/login${tab}`);
        }

        await login(page, language);
        // The site's name in the bar is whole: it wraps on a phone rather than ending in an ellipsis.
        const siteName = page.getByRole('banner').getByRole('link').first().locator('.MuiTypography-root');
        expect(await siteName.evaluate((element) => element.scrollWidth <= element.clientWidth && getComputedStyle(element).textOverflow !== 'ellipsis')).toBe(true);
        // The menu is a drawer on a phone: open it, take every page it lists, and check it fits too.
        await page.getByRole('button', { name: texts.shell.menu }).click();
        const menu = page.getByRole('navigation', { name: texts.shell.menu });
        await menu.getByRole('link').first().waitFor();
        const paths = await menu.getByRole('link').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname).filter((path) => path.startsWith('/user/')));
        for (const expected of ['/user/account/overview', '/user/account/profile', '/user/account/changePassword', '/user/account/balance', '/user/account/integral', '/user/account/payout', '/user/survey/tasks', '/user/survey/tracking', '/user/survey/ranking', '/user/team/members']) {
          expect(paths).toContain(expected);
        }
        // The drawer slides in from the left: measure it once it has arrived, not mid-slide.
        await poll(() => menu.evaluate((element) => Math.round(element.getBoundingClientRect().left)), 'the menu drawer slid in').toBeGreaterThanOrEqual(0);
        await expectFits(page, 'the open menu');
        await page.keyboard.press('Escape');

        for (const path of paths) {
          await page.goto(url(rig.server, path));
          await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
          if (path === '/user/survey/tasks') {
            await page.getByRole('button', { name: texts.survey.walls.open.replace('%{name}', WALL_NAME) }).waitFor();
          }
          if (path === '/user/survey/tracking') {
            // the wall's credit, reversal and refusal, the long transaction ids wrapped
            const walls = page.getByRole('list', { name: texts.survey.tracking.walls });
            await walls.getByText(WALL_TRANSACTION, { exact: true }).waitFor();
            expect(await walls.getByRole('listitem').count()).toBe(3);
          }
          await expectFits(page, path);
          if (path === '/user/account/overview') {
            // What is pending stands beside the available balance, each credit with the day it becomes available.
            const pending = texts.home.pending;
            // 120 points: the plural form where the language has two ("one |||| many")
            await page.getByTestId('stat-pending').getByText(`¥20.50 + ${pending.points.replace(/^.* \|\|\|\| /, '').replace('%{smart_count}', '120')}`).waitFor();
            expect(await page.getByTestId('stat-balance').textContent()).toBe(`${pending.available}¥123.45`);
            const day = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d';
            const from = new RegExp(`^${pending.availableFrom.replace('%{date}', day)}$`);
            const dates = await page.getByRole('region', { name: pending.list }).locator('time').allTextContents();
            expect(dates).toHaveLength(2);
            for (const date of dates) expect(date).toMatch(from);
          }
          if (path === '/user/survey/ranking') {
            // Not ranked yet, and told when the ranking was computed and when it counts new earnings.
            const minute = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d';
            const said = new RegExp(`^${texts.ranking.updated.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('%\\{time\\}', minute).replace('%\\{next\\}', minute)}$`);
            await page.getByTestId('my-rank').getByText(texts.ranking.unranked).waitFor();
            expect(await page.getByTestId('ranking-times').textContent()).toMatch(said);
          }
        }
        // The member's own menu in the bar.
        // named by the member's name, then "my account" (the name itself is hidden on a phone)
        const accountName = texts.shell.accountOf.split('%{name}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
        await page.getByRole('button', { name: new RegExp(`^${accountName}$`) }).click();
        await page.getByRole('menuitem', { name: texts.shell.logout }).waitFor();
        await expectFits(page, 'the account menu');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 150_000);
  }

  it('shows the balance and the minimum on the payouts page, and marks every missing field at once', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'en', phone: true });
    const wallet = TEXTS.en.home.wallet;
    try {
      await login(page, 'en');
      await page.goto(url(rig.server, '/user/account/payout'));
      const region = page.getByRole('region', { name: wallet.title });
      await region.getByText('¥123.45').waitFor();
      await region.getByText('¥10.00').waitFor();
      // Held credits are shown apart: not part of the balance a payout draws on.
      await region.getByTestId('wallet-pending').getByText('¥20.50').waitFor();

      await region.getByRole('button', { name: wallet.save }).click();
      for (const field of ['bank', 'bank_name', 'bank_address', 'bank_num'] as const) {
        const input = region.getByRole('textbox', { name: wallet.fields[field], exact: true });
        await poll(() => input.getAttribute('aria-invalid'), field).toBe('true');
      }

      // Saved details come back filled in, the number masked.
      await region.getByRole('textbox', { name: wallet.fields.bank, exact: true }).fill('Phone Member');
      await region.getByRole('textbox', { name: wallet.fields.bank_name, exact: true }).fill('ICBC');
      await region.getByRole('textbox', { name: wallet.fields.bank_address }).fill('Shanghai');
      await region.getByRole('textbox', { name: wallet.fields.bank_num }).fill('6222000011112222');
      await region.getByRole('button', { name: wallet.save }).click();
      await region.getByText('Payment details saved').waitFor();
      await page.reload();
      await poll(() => region.getByRole('textbox', { name: wallet.fields.bank_name, exact: true }).inputValue()).toBe('ICBC');
      expect(await region.getByRole('textbox', { name: wallet.fields.bank_num }).inputValue()).toBe('************2222');
      await expectFits(page, 'the payouts page filled in');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('registers by mobile number when SMS is the only method the site can deliver', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'en', phone: true });
    const account = TEXTS.en.login.account;
    try {
      await page.goto(url(rig.server, '/user/login?tab=register'));
      const form = page.getByRole('form', { name: account.register.title });
      await form.getByRole('textbox', { name: account.by.mobile }).waitFor();
      // No mail settings: email is not offered at all.
      expect(await form.getByRole('textbox', { name: account.by.email }).count()).toBe(0);
      expect(await form.getByRole('radio').count()).toBe(0);

      await form.getByRole('textbox', { name: account.username }).fill('phonenew');
      await form.getByLabel(account.password, { exact: true }).fill('Member_pass1');
      await form.getByRole('textbox', { name: account.by.mobile }).fill('13912345678');
      // an SMS code asks for the click captcha first, as a mail code does
      const puzzle = page.waitForRequest((request) => request.url().includes('/api/common/clickCaptcha'));
      await form.getByRole('button', { name: account.send }).click();
      await solveClickCaptcha(page, rig.server, await puzzle);
      await form.getByRole('button', { name: /Resend in/ }).waitFor();
      await form.getByRole('textbox', { name: account.code }).fill(codeIn(rig.sms.last('13912345678').content));
      await expectFits(page, 'the register form filled in');
      await form.getByRole('button', { name: account.register.submit }).click();
      await page.waitForURL(/\/user\/(?!login)/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
