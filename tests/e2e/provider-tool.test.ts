import { createHmac } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The provider screens in Chromium, at 1440 px and on a 390 px phone, in Chinese and in English: choosing
 * the BitLabs preset (with the keyboard) fills the form (signature recipe, parameter names, reversal rule)
 * and shows the guide it follows; the saved provider's hash calculator explains why a pasted callback's
 * signature is wrong, and its "send test callback" goes through the real callback address, answered as test
 * traffic, moving no money; nothing makes the page scroll sideways.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

const TEXTS = {
  'zh-cn': {
    add: '添加问卷渠道', code: '渠道代码', name: '名称', secret: '密钥', preset: '预设', save: '保存', sigParam: '签名参数', memberParam: '会员参数',
    recipe: '签名方法', signed: '签名的内容', fullUrl: '完整地址（https://本站/路径?参数）', algorithm: '算法', reversal: '撤销规则', reversalBy: '渠道如何发送撤销', byStatus: '状态代码',
    filled: /^已按预设 BitLabs 填好/, test: '测试回传', pasted: '渠道发来的地址', check: '检查',
    diagnosis: /^签名的内容是路径和参数，但该渠道签的是完整地址：/, verdict: '签名错误', wall: '问卷墙 / 路由',
    amount: '金额', build: '生成', send: '发送测试回调', sent: '本站回调地址回答了 HTTP 200', answer: '回答', testAnswer: '测试回调：已校验，未记录',
  },
  en: {
    add: 'Add provider', code: 'Provider code', name: 'Name', secret: 'Secret', preset: 'Preset', save: 'Save', sigParam: 'Signature parameter', memberParam: 'Member parameter',
    recipe: 'Signature recipe', signed: 'What is signed', fullUrl: 'The full URL (https://our-site/path?query)', algorithm: 'Algorithm', reversal: 'Reversal rule', reversalBy: 'How the provider sends a reversal', byStatus: 'A status code',
    filled: /^Filled from the preset BitLabs/, test: 'Test returns', pasted: 'URL, as the provider sends it', check: 'Check',
    diagnosis: /^The signature covers the path and query, but this provider signs the full URL: /, verdict: 'Signature wrong', wall: 'Wall or router',
    amount: 'Amount', build: 'Build', send: 'Send test callback', sent: 'Our callback address answered HTTP 200', answer: 'Answer', testAnswer: 'Test callback: checked, nothing recorded',
  },
} as const;

const SECRET = 'bitlabs-app-secret-9';

/** Every ledger entry and balance there is, and the provider's wall transactions: what a test callback must leave as they are. */
async function moneyFigures(providerId: number): Promise<{ money: number; score: number; moneyLog: number; scoreLog: number; transactions: number }> {
  const db = rig.server.server.app.db;
  const sums = await db.selectFrom('user').select((eb) => [eb.fn.sum<number | string | null>('money').as('money'), eb.fn.sum<number | string | null>('score').as('score')]).executeTakeFirstOrThrow();
  const count = async (table: 'user_money_log' | 'user_score_log') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const transactions = await db.selectFrom('survey_wall_transaction').select((eb) => eb.fn.countAll<number>().as('n')).where('provider_id', '=', providerId).executeTakeFirstOrThrow();
  return { money: Number(sums.money ?? 0), score: Number(sums.score ?? 0), moneyLog: await count('user_money_log'), scoreLog: await count('user_score_log'), transactions: Number(transactions.n) };
}

/** Whether the page scrolls sideways (it must not, on a phone either). */
function overflowing(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** What axe-core's WCAG 2.0/2.1 A and AA rules find in the open dialog. */
async function axeViolations(page: Page): Promise<string[]> {
  const found = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return found.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('provider screens', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      it(`fill a provider from its preset, explain a wrong signature and send a test callback (${language}, ${phone ? '390 px' : '1440 px'})`, async () => {
        const words = TEXTS[language];
        const code = `bl-${language === 'en' ? 'en' : 'zh'}-${phone ? 'phone' : 'desk'}`;
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          await page.goto(url(rig.server, `${ADMIN_BASE}/survey/provider/create`));
          const form = page.getByRole('dialog', { name: words.add });
          await form.getByRole('textbox', { name: words.code }).fill(code);
          await form.getByRole('textbox', { name: words.name, exact: true }).fill(`BitLabs ${code}`);

          // Choosing the preset, with the keyboard, fills the form and shows the guide it follows.
          await form.getByRole('combobox', { name: new RegExp(`^${words.preset}`) }).focus();
          await page.keyboard.press('Enter');
          await page.getByRole('listbox').waitFor();
          await page.keyboard.type('BitL');
          await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('BitLabs');
          await page.keyboard.press('Enter');
          await form.getByText(words.filled).waitFor();
          await form.getByRole('link', { name: /BitLabs/ }).waitFor();
          expect(await form.getByRole('radio', { name: words.wall }).isChecked()).toBe(true);
          expect(await form.getByRole('textbox', { name: words.sigParam }).inputValue()).toBe('hash');
          expect(await form.getByRole('textbox', { name: words.memberParam }).inputValue()).toBe('uid');
          const recipe = form.getByRole('group', { name: words.recipe });
          await poll(() => recipe.getByRole('combobox', { name: new RegExp(`^${words.signed}`) }).textContent()).toBe(words.fullUrl);
          expect(await recipe.getByRole('combobox', { name: new RegExp(`^${words.algorithm}`) }).textContent()).toBe('SHA-1');
          const reversal = form.getByRole('group', { name: words.reversal });
          expect(await reversal.getByRole('combobox', { name: new RegExp(`^${words.reversalBy}`) }).textContent()).toBe(words.byStatus);
          expect(await overflowing(page)).toBe(false);
          expect(await axeViolations(page)).toEqual([]);

          await form.getByLabel(words.secret, { exact: true }).fill(SECRET);
          await form.getByRole('button', { name: words.save }).click();
          await page.waitForURL(adminPath('/survey/provider'));
          const stored = (await rig.server.server.app.db.selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirstOrThrow()) as Record<string, unknown>;
          expect({ preset: stored.preset, kind: stored.kind, sig_param: stored.sig_param, member_param: stored.member_param }).toEqual({ preset: 'bitlabs', kind: 'wall', sig_param: 'hash', member_param: 'uid' });

          // The calculator names the mistake: BitLabs signs the full URL, this hash covers the path and query only.
          const row = page.getByRole('main').getByRole('row').filter({ hasText: code });
          await row.getByRole('button', { name: words.test }).click();
          const dialog = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: new RegExp(`BitLabs ${code}`) }) });
          const path = `/api/survey/callback/${code}?uid=test-m1&tx=test-t1&val=1.25&raw=0.50&type=COMPLETE`;
          const hash = createHmac('sha1', SECRET).update(path).digest('hex');
          await dialog.getByRole('textbox', { name: words.pasted }).fill(`${rig.server.url}${path}&hash=${hash}`);
          await dialog.getByRole('button', { name: words.check, exact: true }).click();
          await dialog.getByText(words.diagnosis).waitFor();
          await dialog.getByText(words.verdict, { exact: true }).waitFor();
          // The diagnosis quotes the signed address: it wraps inside the message, none of it cut off.
          expect(await dialog.getByText(words.diagnosis).evaluate((item) => item.scrollWidth <= item.clientWidth + 1)).toBe(true);
          expect(await overflowing(page)).toBe(false);
          expect(await axeViolations(page)).toEqual([]);

          // "Send test callback" goes through the real callback address marked as test: the admin reads what it answered, and no money moves.
          const before = await moneyFigures(Number(stored.id));
          await dialog.getByRole('textbox', { name: words.amount, exact: true }).fill('1.25');
          await dialog.getByRole('button', { name: words.build, exact: true }).click();
          await dialog.getByRole('button', { name: words.send, exact: true }).click();
          const sent = dialog.getByRole('status');
          await sent.getByText(words.sent, { exact: true }).waitFor();
          expect(await sent.getByRole('textbox', { name: words.answer }).inputValue()).toContain(words.testAnswer);
          expect(await moneyFigures(Number(stored.id))).toEqual(before);
          expect(before.transactions).toBe(0);
          expect(await overflowing(page)).toBe(false);
          expect(await axeViolations(page)).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
