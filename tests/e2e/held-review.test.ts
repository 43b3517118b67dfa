import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * A speeder's complete held for review is approved or rejected where the operator sees it, on its row
 * and in its details, in Chinese and English, at 1440 and 390 px: a reason is asked for (an empty one is
 * refused with the server's message on the dialog), the decision ends with a message, and the record and
 * the member's balance change as decided. Screenshots go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SECRET = 'held-review-secret-7';
const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-held-review');
type Row = Record<string, unknown>;
type Case = { language: 'zh-cn' | 'en'; phone: boolean; decision: 'approve' | 'reject'; from: 'row' | 'details' };

const CASES: Case[] = [
  { language: 'zh-cn', phone: false, decision: 'approve', from: 'row' },
  { language: 'en', phone: false, decision: 'reject', from: 'details' },
  { language: 'zh-cn', phone: true, decision: 'reject', from: 'row' },
  { language: 'en', phone: true, decision: 'approve', from: 'details' },
];

const TEXT = {
  'zh-cn': { approve: '通过', reject: '驳回', close: '关闭', details: '详情', reason: /原因（会员可见）/, reasonRequired: '请填写对账原因', approved: (rid: string) => `已通过：${rid} 的奖励已发放`, rejected: (rid: string) => `已驳回：${rid} 已撤销，暂扣的奖励已取消` },
  en: { approve: 'Approve', reject: 'Reject', close: 'Close', details: 'Details', reason: /Reason \(shown to the members\)/, reasonRequired: 'Please give a reason for the reconciliation', approved: (rid: string) => `Approved: the reward of ${rid} is credited`, rejected: (rid: string) => `Rejected: ${rid} is reversed and its held reward cancelled` },
} as const;

let rig: E2eRig;
const held: { rid: string; userId: number }[] = [];

async function ok<T>(answer: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const settled = await answer;
  expect(settled.code, settled.msg).toBe(1);
  return settled.data;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  const { server } = rig;
  const db = server.server.app.db;
  const token = (await server.loginAdmin()).token;
  const admin = <T = unknown>(path: string, body: Row) => ok(server.admin<T>(path, { token, body }));
  await admin('survey.Provider/add', { code: 'heldpanel', name: 'Held panel', secret: SECRET });
  const providerId = Number((await db.selectFrom('survey_provider').select('id').executeTakeFirstOrThrow()).id);
  await admin('survey.Survey/add', { provider_id: providerId, title: 'Held study', entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.50', reward_score: 10, loi_minutes: 30, hold_speeders: true, status: 'active' });
  const surveyId = Number((await db.selectFrom('survey').select('id').executeTakeFirstOrThrow()).id);
  for (let index = 0; index < CASES.length; index++) {
    const username = `speeder${index}`;
    await admin('user.User/add', { username, nickname: username, group_id: 1, password: 'Member_pass1' });
    const login = await ok(server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: 'Member_pass1' } }));
    const started = await ok(server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: login.userInfo.token }));
    const rid = new URL(started.url).searchParams.get('r') as string;
    // Back at once: a speeder, whose complete the survey holds for review.
    const unsigned = `rid=${rid}`;
    const sig = createHmac('sha256', SECRET).update(`/success?${unsigned}`).digest('hex');
    await ok(server.api('survey/outcome', { body: { outcome: 'success', query: `${unsigned}&sig=${sig}` }, userToken: login.userInfo.token }));
    held.push({ rid, userId: login.userInfo.id });
  }
});

afterAll(async () => {
  await rig?.close();
});

async function participation(rid: string): Promise<Row> {
  return (await rig.server.server.app.db.selectFrom('survey_participation').select(['status', 'credit_state']).where('rid', '=', rid).executeTakeFirstOrThrow()) as Row;
}

async function money(userId: number): Promise<number> {
  return Number((await rig.server.server.app.db.selectFrom('user').select('money').where('id', '=', userId).executeTakeFirstOrThrow()).money);
}

/** The list row of a participation, by its rid. */
function rowOf(page: Page, rid: string): Locator {
  return page.getByRole('row').filter({ hasText: rid });
}

/**
 * The Latin words (letters and digits) of an element's text drawn over more than one line: each
 * character's line is the top of its box, from a Range around it.
 */
async function brokenWords(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-z0-9]+/g)) {
        const tops = new Set<number>();
        for (let index = match.index; index < match.index + match[0].length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const box = range.getClientRects()[0];
          if (box) tops.add(Math.round(box.top));
        }
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe('reviewing a held speeder complete', () => {
  CASES.forEach((which, index) => {
    const { language, phone, decision, from } = which;
    const name = `${language}-${phone ? 390 : 1440}-${decision}-from-${from}`;
    it(`${decision}s from the ${from} at ${phone ? 390 : 1440} px in ${language}, with a message`, async () => {
      const { rid, userId } = held[index];
      const text = TEXT[language];
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await loginAs(page, rig.server, { language });
        await page.goto(url(rig.server, `${ADMIN_BASE}/survey/participation`));
        const row = rowOf(page, rid);
        await row.waitFor();
        // Rows not held have no review buttons: the rows of this case's earlier decisions.
        for (const done of held.slice(0, index)) await poll(() => rowOf(page, done.rid).getByRole('button', { name: text.approve }).count()).toBe(0);

        let scope: Locator = row;
        if (from === 'details') {
          await row.getByRole('button', { name: text.details }).click();
          scope = page.getByRole('dialog', { name: text.details });
          await scope.waitFor();
          // The decisions and Close show their words beside their icons, at 390 px too.
          for (const name of [text.approve, text.reject, text.close]) {
            const button = scope.getByRole('button', { name, exact: true });
            expect(((await button.innerText()) ?? '').trim()).toBe(name);
          }
          // Each label fits on one line: on a phone it stands above its value.
          const wrapped = await scope.locator('th[scope="row"]').evaluateAll((cells) =>
            cells
              .filter((cell) => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size > 1;
              })
              .map((cell) => cell.textContent ?? ''),
          );
          expect(wrapped).toEqual([]);
          await shoot(page, `${name}-details`);
        }
        const label = decision === 'approve' ? text.approve : text.reject;
        await scope.getByRole('button', { name: label, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: label, exact: true });
        await dialog.waitFor();
        expect(await dialog.getByText(rid).isVisible()).toBe(true);
        // The question wraps between words: only the record's id, a token that may be longer than a line, may break.
        expect((await brokenWords(dialog.locator('.MuiDialogContentText-root'))).filter((word) => !rid.includes(word))).toEqual([]);

        // No reason: refused, with the server's message on the dialog, nothing changed.
        await dialog.getByRole('button', { name: label, exact: true }).click();
        await dialog.getByText(text.reasonRequired).waitFor();
        expect(await participation(rid)).toMatchObject({ credit_state: 'held' });

        await dialog.getByLabel(text.reason).fill(language === 'en' ? 'Checked the answers' : '已核对答卷');
        const box = await dialog.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= (phone ? 390 : 1440)).toBe(true);
        await shoot(page, `${name}-dialog`);
        await dialog.getByRole('button', { name: label, exact: true }).click();
        await page.getByText(decision === 'approve' ? text.approved(rid) : text.rejected(rid)).waitFor();
        await shoot(page, `${name}-done`);

        await poll(() => participation(rid)).toMatchObject(decision === 'approve' ? { status: 'complete', credit_state: 'credited' } : { status: 'reversed' });
        expect(await money(userId)).toBe(decision === 'approve' ? 150 : 0);
        // The list shows the decision: no review buttons on the row any more.
        await poll(() => rowOf(page, rid).getByRole('button', { name: text.approve }).count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
