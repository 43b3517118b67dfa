import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enPayout from '../../locales/en/admin/payout.json';
import enGenerated from '../../locales/en/admin/generated.json';
import zhPayout from '../../locales/zh-cn/admin/payout.json';
import zhGenerated from '../../locales/zh-cn/admin/generated.json';
import { openInApp, settled } from './axe.js';
import { ADMIN_BASE, loginAs, memberWithPendingPayout, menuPages, newPage, startRig, type E2eRig } from './helpers.js';

/**
 * Every list the super administrator's menus open, in Chromium at 1440 and 390 px, in zh-cn and en: the
 * first row's action buttons have a name, lie inside the viewport and the list's own scroll box with no
 * sideways scroll (of the page or the table), are not covered by anything, and a click at their place
 * opens what they open, still with no sideways scroll. On the payouts' list the approve and reject buttons
 * of a pending payout are among them. At 1440 px the members' list fits its card. Screenshots of the
 * members' and payouts' lists go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-row-actions');
const ACTIONS = { 'zh-cn': zhGenerated.generated.list.operate, en: enGenerated.generated.list.operate } as const;
/** The review steps a pending payout's row offers the super administrator. */
const REVIEW: Record<'zh-cn' | 'en', readonly string[]> = {
  'zh-cn': [zhPayout.payout.approve, zhPayout.payout.reject],
  en: [enPayout.payout.approve, enPayout.payout.reject],
};
const PASSWORD = 'Member_pass1';

let rig: E2eRig;
let pages: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  const { server } = rig;
  await memberWithPendingPayout(server, token, 'actions', PASSWORD);
  pages = await menuPages(server, token);
});

afterAll(async () => {
  await rig?.close();
});

interface ActionButton {
  name: string;
  disabled: boolean;
  /** the button's centre, where a click lands */
  x: number;
  y: number;
  /** what keeps the button from a person's reach, if anything */
  problems: string[];
}

interface Row {
  /** whether the page shows a list with an Actions column and a first row */
  hasRow: boolean;
  buttons: ActionButton[];
  /** how far the page and the table are scrolled sideways */
  scrolled: number;
  /** how much wider the table is than its scroll box */
  overflow: number;
}

/** The first row's action buttons as they are on screen now, after scrolling the page down (never sideways) to the row. */
async function firstRow(page: Page, actionsTitle: string): Promise<Row> {
  return page.evaluate(async (title) => {
    const result: Row = { hasRow: false, buttons: [], scrolled: 0, overflow: 0 };
    const table = document.querySelector('main table');
    if (!table) return result;
    const headers = [...table.querySelectorAll<HTMLTableCellElement>('thead th')];
    const column = headers.findIndex((cell) => (cell.textContent ?? '').trim() === title);
    const row = [...table.querySelectorAll<HTMLTableRowElement>('tbody tr')].find((candidate) => candidate.cells.length === headers.length);
    if (column < 0 || !row) return result;
    result.hasRow = true;
    const scroller = table.closest<HTMLElement>('.RaDataTable-tableWrapper, .MuiTableContainer-root') ?? table.parentElement ?? table;
    const cell = row.cells[column];
    const top = cell.getBoundingClientRect().top;
    if (top < 0 || top + cell.offsetHeight > window.innerHeight) window.scrollBy(0, top - window.innerHeight / 3);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const frame = scroller.getBoundingClientRect();
    for (const button of cell.querySelectorAll<HTMLElement>('button, a[href]')) {
      const box = button.getBoundingClientRect();
      const name = (button.getAttribute('aria-label') ?? button.textContent ?? '').trim();
      const problems: string[] = [];
      if (!name) problems.push('has no accessible name');
      if (box.left < 0 || box.right > window.innerWidth || box.top < 0 || box.bottom > window.innerHeight) problems.push(`lies outside the viewport (${Math.round(box.left)}–${Math.round(box.right)} of ${window.innerWidth} px)`);
      if (box.left < frame.left - 1 || box.right > frame.right + 1) problems.push(`lies outside the table's box (${Math.round(box.left)}–${Math.round(box.right)}, the box ${Math.round(frame.left)}–${Math.round(frame.right)})`);
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (!problems.length && !(hit && button.contains(hit))) problems.push(`is covered by ${hit?.tagName.toLowerCase() ?? 'nothing'}`);
      result.buttons.push({ name, disabled: button.matches(':disabled, [aria-disabled="true"]'), x, y, problems });
    }
    result.scrolled = Math.max(Math.abs(scroller.scrollLeft), Math.abs(window.scrollX), Math.abs(document.scrollingElement?.scrollLeft ?? 0));
    result.overflow = scroller.scrollWidth - scroller.clientWidth;
    return result;
  }, actionsTitle);
}

/** Whether the page or the table has been scrolled sideways. */
function scrolledSideways(page: Page): Promise<number> {
  return page.evaluate(() => {
    const scroller = document.querySelector('main table')?.closest<HTMLElement>('.RaDataTable-tableWrapper, .MuiTableContainer-root') ?? document.querySelector('main table')?.parentElement;
    return Math.max(Math.abs(scroller?.scrollLeft ?? 0), Math.abs(window.scrollX));
  });
}

/** Clicks where the button is (a click a person makes, with no scrolling on the way), expects a dialog or another page, and returns to the list. */
async function clickAt(page: Page, path: string, button: ActionButton, problems: string[]): Promise<void> {
  const before = page.url();
  await page.mouse.click(button.x, button.y);
  const dialog = page.getByRole('dialog').first();
  const opened = await Promise.race([dialog.waitFor().then(() => 'dialog'), page.waitForURL((next) => next.href !== before).then(() => 'page')]).catch(() => 'nothing');
  if (opened === 'nothing') problems.push(`${path}: a click on "${button.name}" opened nothing`);
  const scrolled = await scrolledSideways(page);
  if (scrolled > 0) problems.push(`${path}: a click on "${button.name}" scrolled the list ${scrolled} px sideways`);
  if (opened === 'dialog') {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  } else if (opened === 'page') {
    await openInApp(page, `${ADMIN_BASE}${path}`);
  }
  await settled(page);
}

describe('the generated lists', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const width = phone ? 390 : 1440;
      it(`keep the first row's named action buttons in view and clickable without sideways scroll (${language}, ${width} px)`, async () => {
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          const problems: string[] = [];
          let lists = 0;
          for (const path of pages) {
            await openInApp(page, `${ADMIN_BASE}${path}`);
            const row = await firstRow(page, ACTIONS[language]);
            if (path === '/user/user' || path === '/user/payout') await page.screenshot({ path: join(SHOTS, `${language}-${width}${path.replace(/\//g, '-')}.png`) });
            if (!row.hasRow) continue;
            lists += 1;
            if (row.scrolled > 0) problems.push(`${path}: the list opened scrolled ${row.scrolled} px sideways`);
            if (row.buttons.length === 0) problems.push(`${path}: the first row has no action buttons`);
            for (const button of row.buttons) for (const problem of button.problems) problems.push(`${path}: "${button.name}" ${problem}`);
            if (path === '/user/user' && !phone && row.overflow > 0) problems.push(`${path}: the members' list is ${row.overflow} px wider than its card`);
            const review: readonly string[] = path === '/user/payout' ? REVIEW[language] : [];
            for (const name of review) if (!row.buttons.some((button) => button.name === name)) problems.push(`${path}: the pending payout's row has no "${name}"`);
            const reachable = row.buttons.filter((button) => !button.disabled && button.problems.length === 0);
            const clicked = review.length ? reachable.filter((button) => review.includes(button.name)) : reachable.slice(0, 1);
            for (const button of clicked) await clickAt(page, path, button, problems);
          }
          expect(problems).toEqual([]);
          // the sweep saw the lists: the members', the payouts' and the others the menus open with rows
          expect(lists).toBeGreaterThanOrEqual(10);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }, 300_000);
    }
  }
});
