import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enAccount from '../../locales/en/member/account.json';
import zhAccount from '../../locales/zh-cn/member/account.json';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginForm, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * Money and drafts as a person reads them, in Chromium at 1440 and 390 px in zh-cn and en: the back
 * office's quick tasks show their rewards as money (¥), a draft says in its status that members do not see
 * it, and saving a draft says so and names the status that publishes it; the member's balance log starts
 * with the balance as the server counts it. Axe-clean. Screenshots go to `$E2E_SCREENSHOTS`.
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-money-and-drafts');
const PASSWORD = 'Member_pass1';
const TEXTS = {
  'zh-cn': { draft: '草稿（会员看不到）', active: '进行中', save: '保存', saved: '快速任务已保存为草稿：状态改为“进行中”之前，会员看不到它。', account: zhAccount.memberAccount, login: '登录' },
  en: { draft: 'Draft (hidden from members)', active: 'Active', save: 'Save', saved: 'Quick task saved as a draft: members do not see it until its status is “Active”.', account: enAccount.memberAccount, login: 'Login' },
} as const;
const CASES = [
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: true },
  { language: 'zh-cn', phone: true },
] as const;

let rig: E2eRig;
let token = '';
let draftId = 0;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  token = (await rig.server.loginAdmin()).token;
  const form = JSON.stringify({ type: 'object', properties: { proof: { type: 'string', title: 'Proof' } } });
  expect((await rig.server.admin('survey.QuickTask/add', { token, body: { title: 'Shelf photo', reward_money: '0.60', reward_score: 5, status: 'active', form } })).code).toBe(1);
  // A new task as the form makes it: the defaults are a draft rewarding 0.00.
  const draft = await rig.server.admin<{ id: number }>('survey.QuickTask/add', { token, body: { title: 'Rate the app', form } });
  expect(draft.code).toBe(1);
  draftId = draft.data.id;
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe('money and drafts', () => {
  CASES.forEach(({ language, phone }, index) => {
    const width = phone ? 390 : 1440;
    it(`quick tasks show rewards as money and say a draft is hidden; the balance log shows the balance (${language}, ${width} px)`, { timeout: 180_000 }, async () => {
      const texts = TEXTS[language];
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
        const login = loginForm(page, language);
        await login.username.fill('admin');
        await login.password.fill(ADMIN_PASSWORD);
        await login.submit.click();
        await page.waitForURL(adminPath('/dashboard'));
        await page.goto(url(rig.server, `${ADMIN_BASE}/survey/quickTask`));
        const main = page.getByRole('main');
        const activeRow = main.getByRole('row').filter({ hasText: 'Shelf photo' });
        const draftRow = main.getByRole('row').filter({ hasText: 'Rate the app' });
        await activeRow.getByText('¥0.60', { exact: true }).waitFor();
        await draftRow.getByText('¥0.00', { exact: true }).waitFor();
        await draftRow.getByText(texts.draft, { exact: true }).waitFor();
        expect(await main.getByText('0.60', { exact: true }).count()).toBe(0);
        expectNoViolations(await sweep(page, `quick tasks ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-quick-tasks.png`), fullPage: true });

        // Saving the draft says members do not see it yet, and which status shows it to them.
        await page.goto(url(rig.server, `${ADMIN_BASE}/survey/quickTask/${draftId}`));
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('radio', { name: texts.draft }).waitFor();
        expect(await dialog.getByRole('radio', { name: texts.draft }).isChecked()).toBe(true);
        await dialog.getByRole('button', { name: texts.save, exact: true }).click();
        const notice = page.getByText(texts.saved, { exact: true });
        await notice.waitFor();
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-draft-saved.png`) });
        expect(await rig.server.server.app.db.selectFrom('quick_task').select('status').where('id', '=', draftId).executeTakeFirstOrThrow()).toEqual({ status: 'draft' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }

      // The member's balance log starts with the balance, as money.
      const username = `money${index}`;
      expect((await rig.server.admin('user.User/add', { token, body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
      const member = await rig.server.server.app.db.selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow();
      await recordLedgerEntry(rig.server.server.app.db, rig.server.server.app.handle.dialect, { kind: 'money', userId: Number(member.id), amount: 123456, memo: 'Survey rewards' });
      const visit = await newPage(rig.browser, { language, phone });
      try {
        await visit.page.goto(url(rig.server, '/user/login'));
        await visit.page.locator('input[name="username"]').fill(username);
        await visit.page.locator('input[type="password"]').fill(PASSWORD);
        await visit.page.getByRole('button', { name: texts.login, exact: true }).click();
        await visit.page.waitForURL(/\/user\/(?!login)/);
        await visit.page.goto(url(rig.server, '/user/account/balance'));
        const figure = visit.page.getByTestId('ledger-current');
        await figure.getByText(texts.account.ledger.current, { exact: true }).waitFor();
        expect(await figure.locator('strong').textContent()).toBe('¥1234.56');
        if (phone) expect(await visit.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(visit.page, `balance log ${language} ${width}`));
        await visit.page.screenshot({ path: join(SHOTS, `${language}-${width}-balance-log.png`), fullPage: true });
        expect(visit.errors).toEqual([]);
      } finally {
        await visit.context.close();
      }
    });
  });
});
