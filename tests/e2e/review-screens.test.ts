import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The back office's review screens in Chromium at 1440×900: a task submission's answers in its row's
 * details (text, a choice's label, the image as a thumbnail) beside approve / reject; a participation's
 * history as a timeline with formatted dates and its flags as chips; a payout's "Paid to" as labelled
 * text; and the key columns of each list not hidden under the fixed Actions column.
 */

const SECRET = 'review-secret-7';
const MEMBER = { username: 'reviewee', password: 'Member_pass1' };
const FORM = {
  type: 'object',
  required: ['name', 'platform', 'proof'],
  properties: {
    name: { type: 'string', title: { 'zh-cn': '你的名字', en: 'Your name' }, maxLength: 20 },
    platform: { type: 'string', title: { 'zh-cn': '平台', en: 'Platform' }, enum: ['ios', 'android'], 'x-ui': { widget: 'radio', options: { ios: { 'zh-cn': '苹果手机', en: 'iPhone' }, android: { 'zh-cn': '安卓手机', en: 'Android phone' } } } },
    proof: { type: 'string', title: { 'zh-cn': '截图', en: 'Screenshot' }, maxLength: 255, 'x-ui': { widget: 'image' } },
  },
};

let rig: E2eRig;
let proofUrl = '';

type Row = Record<string, unknown>;

async function ok<T>(answer: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const settled = await answer;
  expect(settled.code, settled.msg).toBe(1);
  return settled.data;
}

beforeAll(async () => {
  rig = await startRig();
  const { server } = rig;
  const token = (await server.loginAdmin()).token;
  const admin = <T = unknown>(path: string, body: Row) => ok(server.admin<T>(path, { token, body }));
  await admin('user.User/add', { username: MEMBER.username, nickname: 'Reviewee', group_id: 1, password: MEMBER.password });
  const login = await ok(server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username: MEMBER.username, password: MEMBER.password } }));
  const member = login.userInfo;

  // A quick task answered with a text, a choice and an uploaded screenshot.
  await admin('survey.QuickTask/add', { title: 'App store review', form: JSON.stringify(FORM), reward_money: '0.80', status: 'active' });
  const taskId = Number(((await server.server.app.db.selectFrom('quick_task').select('id').executeTakeFirstOrThrow()) as { id: number }).id);
  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(encodePng(8, 8, new Uint8Array(8 * 8 * 4).fill(90)))], { type: 'image/png' }), 'proof.png');
  const uploaded = (await (await server.raw('/api/ajax/upload', { method: 'POST', headers: { 'ba-user-token': member.token }, body: upload })).json()) as { data: { file: { url: string } } };
  proofUrl = uploaded.data.file.url;
  await ok(server.api('survey/quickTaskSubmit', { userToken: member.token, body: { id: taskId, answers: { name: 'Amy Reviewer', platform: 'ios', proof: proofUrl } } }));

  // A survey completed far too fast: a speeder, held for review, then accepted by an administrator.
  await admin('survey.Provider/add', { code: 'panel', name: 'Panel', secret: SECRET });
  const providerId = Number(((await server.server.app.db.selectFrom('survey_provider').select('id').executeTakeFirstOrThrow()) as { id: number }).id);
  await admin('survey.Survey/add', { provider_id: providerId, title: 'Held speeder survey', entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.50', loi_minutes: 30, hold_speeders: true, status: 'active' });
  const surveyId = Number(((await server.server.app.db.selectFrom('survey').select('id').executeTakeFirstOrThrow()) as { id: number }).id);
  const started = await ok(server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: member.token }));
  const rid = new URL(started.url).searchParams.get('r') as string;
  const unsigned = `rid=${rid}`;
  const sig = createHmac('sha256', SECRET).update(`/success?${unsigned}`).digest('hex');
  await ok(server.api('survey/outcome', { body: { outcome: 'success', query: `${unsigned}&sig=${sig}` }, userToken: member.token }));
  expect(await server.server.app.db.selectFrom('survey_participation').select(['credit_state', 'flag_speeder']).executeTakeFirstOrThrow()).toMatchObject({ credit_state: 'held' });
  await admin('survey.Participation/reconcile', { action: 'approve', rids: [rid], reason: 'Checked the answers' });

  // A payout to a bank account.
  await recordLedgerEntry(server.server.app.db, server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: 5000, memo: 'Rewards' });
  await ok(server.api('paymentuser/payment', { userToken: member.token, body: { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '6222000011112222' } }));
  await ok(server.api('paymentuser/payout', { userToken: member.token, body: { amount: '20' } }));
});

afterAll(async () => {
  await rig?.close();
});

/** No raw Unix time, JSON or true/false in what a person reads. */
function expectReadable(text: string) {
  expect(text).not.toMatch(/\b\d{10}\b/);
  expect(text).not.toMatch(/\b(?:true|false|null)\b/);
  expect(text).not.toMatch(/[{}"]/);
}

/** The box of `inner` lies inside the viewport, after the row's Actions cell (the row's first column, titled 操作) and clear of it. */
async function expectUncovered(page: Page, row: Locator, inner: Locator) {
  const box = await inner.boundingBox();
  const titles = (await page.getByRole('main').locator('thead th').allTextContents()).map((title) => title.trim());
  expect(titles).toContain('操作');
  const operate = await row.locator('td').nth(titles.indexOf('操作')).boundingBox();
  expect(box).not.toBeNull();
  expect(operate).not.toBeNull();
  if (!box || !operate) return;
  const viewport = page.viewportSize() as { width: number };
  expect(box.x).toBeGreaterThanOrEqual(operate.x + operate.width - 0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
}

describe('review screens', () => {
  it('show a submission’s answers beside approve and reject, with its status clear of the Actions column', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/quickTaskSubmission`));
      const row = page.getByRole('main').getByRole('row').filter({ hasText: MEMBER.username });
      const status = row.getByText('待审核', { exact: true });
      await status.waitFor();
      await expectUncovered(page, row, status);

      await row.getByRole('button', { name: '详情' }).click();
      const dialog = page.getByRole('dialog', { name: '详情' });
      const answers = dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '回答', exact: true }) });
      await answers.getByText('你的名字').waitFor();
      await answers.getByText('Amy Reviewer').waitFor();
      await answers.getByText('苹果手机', { exact: true }).waitFor();
      const thumbnail = answers.getByRole('img', { name: '截图' });
      expect(await thumbnail.getAttribute('src')).toContain(proofUrl);
      await poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(8);
      expectReadable(await dialog.innerText());
      // The decision is taken where the answers are read.
      await dialog.getByRole('button', { name: '通过' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
      await poll(async () => ((await rig.server.server.app.db.selectFrom('quick_task_submission').select('status').executeTakeFirstOrThrow()) as { status: string }).status).toBe('approved');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('show a participation’s history as a timeline, its dates formatted and its flags as chips', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/participation`));
      const row = page.getByRole('main').getByRole('row').filter({ hasText: MEMBER.username });
      await row.getByText('已发放', { exact: true }).waitFor();
      await expectUncovered(page, row, row.getByText('已发放', { exact: true }));

      await row.getByRole('button', { name: '详情' }).click();
      const dialog = page.getByRole('dialog', { name: '详情' });
      const timeline = dialog.getByRole('list', { name: '状态记录' });
      const events = timeline.getByRole('listitem');
      await poll(() => events.count()).toBe(3);
      const times = await timeline.locator('time').allInnerTexts();
      expect(times).toHaveLength(3);
      for (const time of times) expect(time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await events.nth(0).getByText('会员开始答题').waitFor();
      await events.nth(1).getByText('页面跳转').waitFor();
      expect(await events.nth(1).innerText()).toContain('暂扣待审核: 是');
      await events.nth(2).getByText('操作人：Admin').waitFor();
      await events.nth(2).getByText('原因: Checked the answers').waitFor();
      const detail = (name: string) => dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
      const speeder = detail('答题过快').locator('.MuiChip-root');
      expect(await speeder.innerText()).toBe('是');
      expect(await speeder.getAttribute('class')).toContain('MuiChip-colorWarning');
      const entered = detail('创建时间');
      expect(await entered.innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expectReadable(await dialog.innerText());
      // The balance entry the credit wrote is named, with its amount, and opens that entry in the balance log.
      const entry = detail('余额记录').getByRole('link', { name: /^余额变动 #\d+ · ¥1\.50$/ });
      const entryId = Number(/#(\d+)/.exec(await entry.innerText())?.[1]);
      expect(entryId).toBe(Number(((await rig.server.server.app.db.selectFrom('survey_participation').select('money_log_id').executeTakeFirstOrThrow()) as { money_log_id: number }).money_log_id));
      // On a phone the dialog fits the screen and can still be closed.
      await page.setViewportSize({ width: 390, height: 844 });
      const close = dialog.getByRole('button', { name: '关闭' });
      await poll(async () => ((await close.boundingBox())?.width ?? 0) > 24).toBe(true);
      expect(((await dialog.boundingBox())?.width ?? 999) <= 390).toBe(true);
      await close.click();
      await dialog.waitFor({ state: 'hidden' });
      await page.setViewportSize({ width: 1440, height: 900 });
      await row.getByRole('button', { name: '详情' }).click();
      await dialog.getByRole('link', { name: /^余额变动 #/ }).click();
      await page.waitForURL(/\/user\/moneyLog\?/);
      const ledgerRows = page.getByRole('main').getByRole('row').filter({ hasText: '问卷奖励' });
      await ledgerRows.first().waitFor();
      await poll(() => page.getByRole('main').getByRole('row').count()).toBe(2);
      expect(await ledgerRows.first().innerText()).toContain(String(entryId));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('show a payout’s account as labelled text and every list’s key columns in view at 1440 px', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/user/payout`));
      const payout = page.getByRole('main').getByRole('row').filter({ hasText: MEMBER.username });
      const pending = payout.getByText('待审核', { exact: true });
      await pending.waitFor();
      const paidTo = await payout.getByText(/开户人/).innerText();
      expect(paidTo).toContain('开户人: Amy Li');
      expect(paidTo).toContain('开户银行: ICBC');
      expectReadable(paidTo);
      await expectUncovered(page, payout, pending);
      // When it was asked for is in view beside the buttons; the payment's reference and time start hidden (read in the details).
      const payoutHeaders = page.getByRole('main').getByRole('columnheader');
      await expectUncovered(page, payout, payoutHeaders.filter({ hasText: '创建时间' }).first());
      expect(await payoutHeaders.filter({ hasText: '打款流水号' }).count()).toBe(0);

      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/survey`));
      const survey = page.getByRole('main').getByRole('row').filter({ hasText: 'Held speeder survey' });
      await survey.getByText('进行中', { exact: true }).waitFor();
      await expectUncovered(page, survey, survey.getByText('进行中', { exact: true }));
      const headers = page.getByRole('main').getByRole('columnheader');
      // The status and the counters of the survey's returns are in view beside the Actions column.
      for (const name of ['状态', '参与数', '完成数', '甄别数', '配额满', '安全终止', '已发放金额', '转化率']) await expectUncovered(page, survey, headers.filter({ hasText: name }).first());
      // Settings read in the form start hidden, offered by the Columns button.
      expect(await headers.filter({ hasText: '答题时长' }).count()).toBe(0);
      await page.getByRole('button', { name: '列', exact: true }).click();
      await page.locator('.MuiPopover-paper').getByText('答题时长').waitFor();
      await page.keyboard.press('Escape');

      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/participation`));
      const attempt = page.getByRole('main').getByRole('row').filter({ hasText: MEMBER.username });
      await attempt.getByText('已发放', { exact: true }).waitFor();
      const attemptHeaders = page.getByRole('main').getByRole('columnheader');
      for (const name of ['状态', '会员', '奖励发放', '已发放金额', '进入时间', '答题过快']) await expectUncovered(page, attempt, attemptHeaders.filter({ hasText: name }).first());

      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      const adminRow = page.getByRole('main').getByRole('row').filter({ hasText: 'admin' }).first();
      const enabled = adminRow.getByRole('switch');
      await enabled.waitFor();
      await expectUncovered(page, adminRow, enabled);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
