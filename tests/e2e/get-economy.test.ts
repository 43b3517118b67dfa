import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_REVISION_HEADER } from '../../src/contract/headers.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * What a round over a generated list costs the admin's GET budget (docs/wire-contract.md#get-throttle), in
 * Chromium: with the list shown, opening a row's edit dialog reads the row (`edit`) and nothing else, closing
 * it reads nothing, and a save costs the POST and one read of the list. The schema revision comes with every
 * answer; `schemaRevision` is asked only after 2 s without an answer.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

const LIST = '/routine/mailTemplate';

interface Answer {
  method: string;
  /** the API action, `routine.MailTemplate/index` */
  action: string;
  /** when the answer arrived, and when its request left */
  at: number;
  sentAt: number;
  revision: string | null;
}

/** Every API answer the page gets from now on. */
function record(page: Page): Answer[] {
  const answers: Answer[] = [];
  const sent = new WeakMap<object, number>();
  page.on('request', (request) => sent.set(request, Date.now()));
  page.on('response', (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith(`${ADMIN_BASE}.php/`)) return;
    const at = Date.now();
    answers.push({ method: response.request().method(), action: path.slice(`${ADMIN_BASE}.php/`.length), at, sentAt: sent.get(response.request()) ?? at, revision: response.headers()[SCHEMA_REVISION_HEADER] ?? null });
  });
  return answers;
}

const count = (answers: Answer[], method: string, action: string) => answers.filter((answer) => answer.method === method && answer.action === action).length;

/** `schemaRevision` asked only by a page that had heard no answer for about 2 s (the timer ticks each second). */
function revisionAsksAfterSilence(answers: Answer[]): boolean {
  return answers.every((ask) => {
    if (ask.action !== 'Index/schemaRevision') return true;
    // the answers that had arrived when the ask left (a busy machine may answer another request meanwhile)
    const before = answers.filter((answer) => answer !== ask && answer.at <= ask.sentAt);
    return before.length === 0 || ask.sentAt - before[before.length - 1].at >= 1900;
  });
}

/** Waits until no API answer came for `quietMs`, so a late refetch is counted. */
async function settle(answers: Answer[], quietMs = 1500): Promise<void> {
  await poll(() => answers.length > 0 && Date.now() - answers[answers.length - 1].at >= quietMs).toBe(true);
}

async function openList(page: Page): Promise<Answer[]> {
  await loginAs(page, rig.server);
  await page.goto(url(rig.server, `${ADMIN_BASE}${LIST}`));
  await page.getByRole('row').nth(1).getByRole('link', { name: '编辑' }).waitFor();
  const answers = record(page);
  // whatever the first drawing still asks for is not part of the round
  await page.waitForTimeout(1500);
  answers.length = 0;
  return answers;
}

describe('a list, its edit dialog and back', () => {
  it('reads the row when the dialog opens and nothing when it closes unsaved', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      const answers = await openList(page);
      await page.getByRole('row').nth(1).getByRole('link', { name: '编辑' }).click();
      const dialog = page.getByRole('dialog', { name: '编辑邮件模板' });
      const subject = dialog.getByRole('textbox', { name: '主题', exact: true });
      await poll(() => subject.inputValue()).not.toBe('');
      await dialog.getByRole('button', { name: '取消' }).click();
      await page.waitForURL(adminPath(LIST));
      await dialog.waitFor({ state: 'detached' });
      await settle(answers);

      const gets = answers.filter((answer) => answer.method === 'GET');
      expect(count(gets, 'GET', 'routine.MailTemplate/edit'), JSON.stringify(gets)).toBe(1);
      expect(count(gets, 'GET', 'routine.MailTemplate/index'), JSON.stringify(gets)).toBe(0);
      expect(revisionAsksAfterSilence(answers), JSON.stringify(answers)).toBe(true);
      // the answers tell the revision themselves
      expect(answers.find((answer) => answer.action === 'routine.MailTemplate/edit')?.revision).toMatch(/^\d+$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('after a save reads the list once, showing the saved row', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      const answers = await openList(page);
      await page.getByRole('row').nth(1).getByRole('link', { name: '编辑' }).click();
      const dialog = page.getByRole('dialog', { name: '编辑邮件模板' });
      const subject = dialog.getByRole('textbox', { name: '主题', exact: true });
      await poll(() => subject.inputValue()).not.toBe('');
      await subject.fill('Saved once');
      await dialog.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath(LIST));
      await page.getByRole('cell', { name: 'Saved once' }).waitFor();
      await settle(answers);

      expect(count(answers, 'POST', 'routine.MailTemplate/edit'), JSON.stringify(answers)).toBe(1);
      expect(count(answers, 'GET', 'routine.MailTemplate/edit'), JSON.stringify(answers)).toBe(1);
      expect(count(answers, 'GET', 'routine.MailTemplate/index'), JSON.stringify(answers)).toBe(1);
      expect(revisionAsksAfterSilence(answers), JSON.stringify(answers)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
