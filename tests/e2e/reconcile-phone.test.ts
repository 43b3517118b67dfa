import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, loginAs, newPage, PHONE, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * Bulk reconciliation in Chromium on a phone (390 × 844), in Chinese, by keyboard alone: the dialog opens full
 * screen, the mode, survey, ids and reason are filled with keys, the dry run's counts and per-member
 * table fit the screen, and Apply changes what the dry run showed.
 */

const SECRET = 'reconcile-secret-3';
type Row = Record<string, unknown>;

let rig: E2eRig;
let surveyId = 0;
const rids: Record<'kept' | 'dropped' | 'screened', string> = { kept: '', dropped: '', screened: '' };

async function ok<T>(answer: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const settled = await answer;
  expect(settled.code, settled.msg).toBe(1);
  return settled.data;
}

beforeAll(async () => {
  rig = await startRig();
  const { server } = rig;
  const db = server.server.app.db;
  const token = (await server.loginAdmin()).token;
  const admin = <T = unknown>(path: string, body: Row) => ok(server.admin<T>(path, { token, body }));
  await admin('survey.Provider/add', { code: 'panel', name: 'Panel', secret: SECRET });
  const providerId = Number((await db.selectFrom('survey_provider').select('id').executeTakeFirstOrThrow()).id);
  await admin('survey.Survey/add', { provider_id: providerId, title: 'Reconciled study', entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.50', reward_score: 10, loi_minutes: 1, status: 'active' });
  surveyId = Number((await db.selectFrom('survey').select('id').executeTakeFirstOrThrow()).id);
  const page = async (outcome: string, rid: string) => {
    const unsigned = `rid=${rid}`;
    const sig = createHmac('sha256', SECRET).update(`/${outcome}?${unsigned}`).digest('hex');
    await ok(server.api('survey/outcome', { body: { outcome, query: `${unsigned}&sig=${sig}` } }));
  };
  for (const [name, outcome] of [['kept', 'success'], ['dropped', 'success'], ['screened', 'terminate']] as const) {
    const username = `phone_${name}`;
    await admin('user.User/add', { username, nickname: username, group_id: 1, password: 'Member_pass1' });
    const login = await ok(server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username, password: 'Member_pass1' } }));
    const started = await ok(server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: login.userInfo.token }));
    rids[name] = new URL(started.url).searchParams.get('r') as string;
    await db.updateTable('survey_participation').set({ enter_time: Math.floor(Date.now() / 1000) - 600 }).where('rid', '=', rids[name]).execute();
    await page(outcome, rids[name]);
  }
});

afterAll(async () => {
  await rig?.close();
});

/** Elements of the open dialog that reach past the screen's sides, and tables that need to scroll sideways. */
async function overflowsOfDialog(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const dialog = document.querySelector('[role="dialog"]');
    if (!dialog) return ['no dialog'];
    const found: string[] = [];
    for (const element of Array.from(dialog.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || element.closest('.MuiTouchRipple-root')) continue;
      if (box.left < -1 || box.right > width + 1) found.push(`<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 30)}" spans ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    for (const table of Array.from(dialog.querySelectorAll('table'))) {
      const box = table.parentElement as HTMLElement;
      if (box.scrollWidth > box.clientWidth + 1) found.push(`table "${table.getAttribute('aria-label')}" scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
    }
    return found.slice(0, 8);
  });
}

describe('bulk reconciliation on a phone', () => {
  it('is done by keyboard at 390 px: only the listed are completes, the dry run fits, Apply does what it showed', async () => {
    const { page, context, errors } = await newPage(rig.browser, { phone: true });
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/participation`));
      await page.getByRole('button', { name: '对账' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: '答题记录对账' });
      await dialog.waitFor();
      // Full screen on a phone.
      const box = await dialog.boundingBox();
      expect(box?.width).toBe(PHONE.width);

      // The modes are one radio group: arrows move between them.
      await dialog.getByRole('radio', { name: '撤销列出的完成（扣回奖励）' }).focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await dialog.getByRole('radio', { name: '列出的即该问卷的全部完成：予以确认，其余完成全部撤销' }).isChecked()).toBe(true);
      // Tab leads on to the survey: type, pick with the arrows and Enter.
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
      await page.keyboard.type('Reconciled');
      await page.getByRole('option', { name: `#${surveyId} Reconciled study` }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.getByRole('combobox', { name: /问卷/ }).inputValue()).toBe(`#${surveyId} Reconciled study`);
      await dialog.getByLabel('RID 或渠道交易ID，每行一个').focus();
      await page.keyboard.type(`${rids.kept}\n${rids.screened}\nnot-ours`);
      await dialog.getByLabel(/原因（会员可见）/).focus();
      await page.keyboard.type('June file');
      await dialog.getByRole('button', { name: '试算' }).focus();
      await page.keyboard.press('Enter');

      await dialog.getByText('1 条改为完成，1 条撤销，1 条不变，1 条被拒绝').waitFor();
      const members = dialog.getByRole('table', { name: '会员余额与积分变动' });
      await expect.poll(() => members.getByRole('row').allInnerTexts()).toEqual([
        '会员\t余额\t积分', expect.stringMatching(/^phone_dropped \(#\d+\)\t-¥1\.50\t-10$/), expect.stringMatching(/^phone_screened \(#\d+\)\t\+¥1\.50\t\+10$/), '合计（2 位会员）\t¥0.00\t0',
      ]);
      expect(await overflowsOfDialog(page)).toEqual([]);

      const apply = dialog.getByRole('button', { name: '执行 2 项修改' });
      await apply.focus();
      await page.keyboard.press('Enter');
      await page.getByText('已对账 2 条，共 4 条').waitFor();
      const db = rig.server.server.app.db;
      const status = async (rid: string) => (await db.selectFrom('survey_participation').select('status').where('rid', '=', rid).executeTakeFirstOrThrow()).status;
      await poll(async () => [await status(rids.kept), await status(rids.dropped), await status(rids.screened)]).toEqual(['complete', 'reversed', 'complete']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
