import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enGenerated from '../../locales/en/admin/generated.json';
import zhGenerated from '../../locales/zh-cn/admin/generated.json';
import { openInApp } from './axe.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, startRig, type E2eRig } from './helpers.js';

/**
 * An empty list on a phone (390 px, Chromium, zh-cn and en): the toolbar's floating add button and the empty
 * state's own add button are both there to be tapped, each at a place of its own (the point at the middle of
 * each is that button), and the empty state's opens the add form. A fresh install has no team, so the teams'
 * list is empty.
 */

const CREATE = { 'zh-cn': '新建', en: 'Create' } as const;
const EMPTY = { 'zh-cn': zhGenerated.generated.list.empty, en: enGenerated.generated.list.empty } as const;

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

describe('an empty list on a phone', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    it(`offers two add buttons that do not cover each other (${language}, 390 px)`, async () => {
      const { context, page, errors } = await newPage(rig.browser, { language, phone: true });
      try {
        await loginAs(page, rig.server, { language });
        await openInApp(page, `${ADMIN_BASE}/team/team`);
        const main = page.getByRole('main');
        await main.getByText(EMPTY[language], { exact: true }).waitFor();
        const adds = main.getByRole('link', { name: CREATE[language], exact: true });
        expect(await adds.count()).toBe(2);
        // what a tap at the middle of each button reaches: the button itself, not another one above it
        const reached = await adds.evaluateAll((links) =>
          links.map((link) => {
            const box = link.getBoundingClientRect();
            return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest('a') === link;
          }),
        );
        expect(reached).toEqual([true, true]);
        await main.getByText(EMPTY[language], { exact: true }).locator('..').getByRole('link', { name: CREATE[language], exact: true }).click();
        await page.waitForURL(adminPath('/team/team/create'));
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
