import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enConfig from '../../locales/en/admin/config.json';
import zhConfig from '../../locales/zh-cn/admin/config.json';
import { settled } from './axe.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The config screen on a phone (390 × 844), in zh-cn and en: scrolled to the end of each group, the
 * floating "add config item" button and the fixed save bar cover none of the form (the last item's help
 * line included), so every line can be read. Screenshots go to `$E2E_SCREENSHOTS`.
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-config-phone');
const WORDS = { 'zh-cn': { add: zhConfig.config.add, groups: '配置分组' }, en: { add: enConfig.config.add, groups: 'Config groups' } } as const;

let rig: E2eRig;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

describe('the config screen on a phone', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    it(`leaves every line of each group clear of the add button and the save bar (${language}, 390 px)`, async () => {
      const { add, groups } = WORDS[language];
      const { context, page, errors } = await newPage(rig.browser, { language, phone: true });
      try {
        await loginAs(page, rig.server, { language });
        await page.goto(url(rig.server, `${ADMIN_BASE}/routine/config`));
        await page.waitForURL(adminPath('/routine/config'));
        const tabs = page.getByRole('tablist', { name: groups }).getByRole('tab');
        await tabs.first().waitFor();
        const addButton = page.getByRole('link', { name: add });
        await addButton.waitFor();
        const count = await tabs.count();
        expect(count).toBeGreaterThan(1);
        for (let index = 0; index < count; index += 1) {
          await tabs.nth(index).click();
          await poll(() => tabs.nth(index).getAttribute('aria-selected')).toBe('true');
          await page.locator('[data-config-item]').first().waitFor();
          await settled(page);
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await settled(page);
          // what stays on the screen over the content: the floating add button, and the save bar when the group has one
          const covers = await page.evaluate(() => {
            const tops = [...document.querySelectorAll('.RaCreateButton-floating, .RaToolbar-mobileToolbar')].map((element) => element.getBoundingClientRect().top);
            return Math.min(...tops);
          });
          // the lowest line a person reads in the group: the last item's text, boxes and help
          const lowest = await page.locator('[data-config-item]').last().evaluate((element) => element.getBoundingClientRect().bottom);
          expect(lowest, `group ${index + 1}: its last line ends above what floats over it`).toBeLessThanOrEqual(covers);
          await page.screenshot({ path: join(SHOTS, `${language}-390-group-${index + 1}-end.png`) });
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
