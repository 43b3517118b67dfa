import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, fillLogin, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * Deep links for any path: opened without a session, a back-office address comes back,
 * path and query, after login (or says "page not found" inside the back office when no such page exists); the login URL carries it, and
 * no painted frame shows the loading screen or the page under the login page's title.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

/** What the browser paints, frame by frame: `path?query | title`, each change once. */
async function recordFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const frames: string[] = [];
    (window as unknown as { frames_: string[] }).frames_ = frames;
    const sample = () => {
      const now = `${location.pathname}${location.search} | ${document.title}`;
      if (frames[frames.length - 1] !== now) frames.push(now);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

const framesOf = (page: Page) => page.evaluate(() => (window as unknown as { frames_: string[] }).frames_);

describe('deep links', () => {
  it('bring an admin back to the page and query asked for, through a login URL that carries them', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      await recordFrames(page);
      await page.goto(url(rig.server, `${ADMIN_BASE}/routine/mailTemplate/1?from=mail`));
      await page.waitForURL(/\/chidaoadminstator\/login\?/);
      expect(new URL(page.url()).searchParams.get('to')).toBe('/routine/mailTemplate/1?from=mail');
      // A reload of the login page keeps where to go.
      await page.reload();
      await fillLogin(page);
      await page.waitForURL((address) => address.pathname === `${ADMIN_BASE}/routine/mailTemplate/1`);
      expect(new URL(page.url()).search).toBe('?from=mail');
      await page.getByRole('dialog', { name: '编辑邮件模板' }).getByRole('button', { name: '保存' }).waitFor();
      const afterLogin = (await framesOf(page)).slice((await framesOf(page)).findIndex((frame) => frame.includes('/loading/')));
      expect(afterLogin.length).toBeGreaterThan(0);
      expect(afterLogin.filter((frame) => frame.endsWith('| 登录'))).toEqual([]);
      expect(afterLogin.at(-1)).toMatch(/^\/chidaoadminstator\/routine\/mailTemplate\/1\?from=mail \| 邮件模板/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('say "page not found" inside the back office after login when no such page exists', async () => {
    const { page, context } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, `${ADMIN_BASE}/foo/bar?x=1`));
      await page.waitForURL(/\/chidaoadminstator\/login\?/);
      expect(new URL(page.url()).searchParams.get('to')).toBe('/foo/bar?x=1');
      await fillLogin(page);
      await page.waitForURL(url(rig.server, `${ADMIN_BASE}/foo/bar?x=1`));
      await page.getByRole('main').getByRole('heading', { name: '页面不存在' }).waitFor();
      // The shell stays around it: its menu is there to go on from.
      await page.getByRole('navigation', { name: '主菜单' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
