import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enGenerated from '../../locales/en/admin/generated.json';
import zhGenerated from '../../locales/zh-cn/admin/generated.json';
import { openInApp } from './axe.js';
import { ADMIN_BASE, loginAs, memberWithPendingPayout, menuPages, newPage, startRig, type E2eRig } from './helpers.js';

/**
 * Every list the super administrator's menus open, in Chromium at 1440 and 390 px, in zh-cn and en: no
 * column lies under the Actions column (measured from the header cells' boxes, before and after scrolling
 * the table sideways), and the quick search's placeholder fits its box (its text's width in the box's font
 * against the box's inner width). With a
 * member and a payout, so the members' and payouts' lists have rows. Screenshots of the members' and
 * payouts' lists go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-list-columns');
const OPERATE = { 'zh-cn': zhGenerated.generated.list.operate, en: enGenerated.generated.list.operate } as const;
const PASSWORD = 'Member_pass1';

let rig: E2eRig;
let pages: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  const { server } = rig;
  await memberWithPendingPayout(server, token, 'columns', PASSWORD);
  pages = await menuPages(server, token);
});

afterAll(async () => {
  await rig?.close();
});

interface Measured {
  /** header titles of the columns the Actions column covers, before and after scrolling */
  covered: string[];
  /** the quick search's placeholder width and the box's inner width, when there is one */
  placeholder?: { text: string; needs: number; has: number };
  hasTable: boolean;
}

/** Measures the list on screen now. */
async function measure(page: Page, operate: string): Promise<Measured> {
  return page.evaluate(async (operateTitle) => {
    const result: { covered: string[]; placeholder?: { text: string; needs: number; has: number }; hasTable: boolean } = { covered: [], hasTable: false };
    const input = document.querySelector<HTMLInputElement>('main input[name="q"]');
    if (input && input.placeholder) {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      if (context) {
        context.font = style.font;
        const needs = context.measureText(input.placeholder).width;
        const has = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        result.placeholder = { text: input.placeholder, needs: Math.ceil(needs), has: Math.floor(has) };
      }
    }
    const table = document.querySelector('main table');
    if (!table) return result;
    const headers = [...table.querySelectorAll<HTMLTableCellElement>('thead th')];
    const operateCell = headers.find((cell) => (cell.textContent ?? '').trim() === operateTitle);
    if (!operateCell) return result;
    result.hasTable = true;
    const scroller = (table.closest('.RaDataTable-tableWrapper, .MuiTableContainer-root') as HTMLElement | null) ?? table.parentElement!;
    const check = () => {
      const box = operateCell.getBoundingClientRect();
      for (const cell of headers) {
        if (cell === operateCell) continue;
        const other = cell.getBoundingClientRect();
        if (other.width === 0) continue;
        const overlap = Math.min(other.right, box.right) - Math.max(other.left, box.left);
        if (overlap > 1) result.covered.push(`${(cell.textContent ?? '').trim() || '(untitled)'} by ${Math.round(overlap)} px at scroll ${Math.round(scroller.scrollLeft)}`);
      }
    };
    scroller.scrollLeft = 0;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    check();
    scroller.scrollLeft = scroller.scrollWidth;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    check();
    scroller.scrollLeft = 0;
    return result;
  }, operate);
}

describe('the generated lists', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const width = phone ? 390 : 1440;
      it(`keep every column clear of the Actions column and show whole quick-search hints (${language}, ${width} px)`, async () => {
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          const problems: string[] = [];
          let lists = 0;
          let hints = 0;
          for (const path of pages) {
            await openInApp(page, `${ADMIN_BASE}${path}`);
            const measured = await measure(page, OPERATE[language]);
            if (measured.hasTable) lists += 1;
            for (const covered of measured.covered) problems.push(`${path}: ${covered} lies under ${OPERATE[language]}`);
            if (measured.placeholder) {
              hints += 1;
              if (measured.placeholder.needs > measured.placeholder.has) problems.push(`${path}: the hint "${measured.placeholder.text}" needs ${measured.placeholder.needs} px, its box has ${measured.placeholder.has} px`);
            }
            if (path === '/user/user' || path === '/user/payout') await page.screenshot({ path: join(SHOTS, `${language}-${width}${path.replace(/\//g, '-')}.png`) });
          }
          expect(problems).toEqual([]);
          // the sweep saw the lists: the members', the payouts' and the others the menus open with rows
          expect(lists).toBeGreaterThanOrEqual(10);
          expect(hints).toBeGreaterThanOrEqual(15);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }, 240_000);
    }
  }
});
