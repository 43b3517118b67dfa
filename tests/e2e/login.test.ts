import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { greetingFor } from '../../src/client/admin/pages/dashboard/greeting.js';
import { wallClockOf } from '../../src/contract/site-time.js';
import zhDashboard from '../../locales/zh-cn/admin/dashboard.json';
import type { AdminInfo } from '../../src/client/http/session.js';
import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import type { ClickPuzzle } from '../../src/server/captcha/click-captcha.js';
import {
  ADMIN_BASE, adminPath, errorToasts, loginForm, newPage, poll, solveClickCaptcha, startRig, stored, tokenRow, url, type E2eRig,
} from './helpers.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';

/**
 * Signing in to the back office with the click captcha switched on, and a session that outlives its
 * access token: what an administrator sees, with the database as the witness.
 */

let rig: E2eRig;

/** Points of the image (in image pixels) at least 20 px away from every target box and from each other. */
function missPoints(puzzle: ClickPuzzle, count: number): { x: number; y: number }[] {
  const margin = 20;
  const points: { x: number; y: number }[] = [];
  for (let y = margin; y < puzzle.height - margin && points.length < count; y += 10) {
    for (let x = margin; x < puzzle.width - margin && points.length < count; x += 10) {
      const nearTarget = puzzle.targets.some((t) => x > t.x - margin && x < t.x + t.width + margin && y > t.y - margin && y < t.y + t.height + margin);
      const nearPoint = points.some((p) => Math.abs(p.x - x) < margin * 2 && Math.abs(p.y - y) < margin * 2);
      if (!nearTarget && !nearPoint) points.push({ x, y });
    }
  }
  if (points.length < count) throw new Error('no room to miss the targets');
  return points;
}

beforeAll(async () => {
  rig = await startRig({ ADMIN_LOGIN_CAPTCHA: 'true' });
});

afterAll(async () => {
  await rig?.close();
});

/** Fills the form and submits it: the captcha opens; resolves with the request that fetched its puzzle. */
async function openCaptcha(page: Page, keep: boolean): Promise<Request> {
  const form = loginForm(page);
  await form.username.fill('admin');
  await form.password.fill(ADMIN_PASSWORD);
  if (keep) await form.remember.check();
  const puzzle = page.waitForResponse((response) => response.url().includes('/api/common/clickCaptcha?'));
  await form.submit.click();
  await page.getByRole('dialog', { name: '安全验证' }).waitFor();
  return (await puzzle).request();
}

function captchaIdOf(request: Request): string {
  return new URL(request.url()).searchParams.get('id') ?? '';
}

/** Fills the form, answers the captcha; the login request follows by itself. */
async function loginThroughCaptcha(page: Page, keep: boolean): Promise<void> {
  await solveClickCaptcha(page, rig.server, await openCaptcha(page, keep));
}

describe('admin login through the click captcha', () => {
  it('redirects to the login page, asks for the captcha and lands on the dashboard', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, ADMIN_BASE));
      await page.waitForURL(adminPath('/login'));
      await poll(() => page.title()).toContain('登录');

      // The login is sent once the captcha is answered, not before.
      const logins: string[] = [];
      page.on('request', (request) => request.url().includes('/Index/login') && request.method() === 'POST' && logins.push(request.url()));
      const puzzle = await openCaptcha(page, false);
      expect(logins).toHaveLength(0);
      await solveClickCaptcha(page, rig.server, puzzle);
      await page.waitForURL(adminPath('/dashboard'));
      expect(logins).toHaveLength(1);

      // The greeting follows the site's clock (config time_zone, seeded as Asia/Shanghai), not the browser's.
      const hours = Number(wallClockOf(Date.now() / 1000, 'Asia/Shanghai').hour);
      const greetings = [hours, (hours + 1) % 24].map((hour) => zhDashboard.dashboard.greetings[greetingFor(hour)]);
      // The page's heading (level 1) names the page; the greeting is the heading below it.
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('控制台');
      const heading = page.getByRole('heading', { level: 2 }).and(page.getByTestId('greeting'));
      await poll(() => heading.textContent()).toMatch(new RegExp(`^(${greetings.join('|')})，Admin$`));
      await poll(() => page.getByRole('button', { name: '账户' }).textContent()).toContain('Admin');

      const menu = page.getByRole('navigation', { name: '主菜单' });
      for (const title of ['控制台', '权限管理', '会员管理', '常规管理', '数据安全管理']) {
        expect(await menu.getByRole('button', { name: title, exact: true }).isVisible(), title).toBe(true);
      }
      await menu.getByRole('button', { name: '权限管理', exact: true }).click();
      await menu.getByRole('button', { name: '管理员管理', exact: true }).click();
      await page.waitForURL(adminPath('/auth/admin'));
      await page.getByRole('cell', { name: 'Admin', exact: true }).waitFor();

      // The session the browser holds is a real admin token, without a refresh token (no "remember me").
      const info = await stored<AdminInfo>(page, 'adminInfo');
      expect(info).toMatchObject({ username: 'admin', super: true, refresh_token: '' });
      expect(await tokenRow(rig.server, info?.token ?? '')).toMatchObject({ type: 'admin', user_id: 1 });
      // The answered captcha was used up by the login.
      expect(await new ClickCaptchaService(rig.server.server.app.db).puzzleOf(captchaIdOf(puzzle))).toBeUndefined();
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a wrong click does not log in and brings a fresh puzzle', async () => {
    const { context, page } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      const id = captchaIdOf(await openCaptcha(page, false));
      const dialog = page.getByRole('dialog', { name: '安全验证' });
      const puzzle = await new ClickCaptchaService(rig.server.server.app.db).puzzleOf(id);
      if (!puzzle) throw new Error('no stored puzzle');
      const image = dialog.getByRole('img');
      await poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
      const box = await image.boundingBox();
      if (!box) throw new Error('captcha image has no box');
      // As many clicks as there are targets, each well away from every target's box.
      const misses = missPoints(puzzle, puzzle.targets.length);
      const second = page.waitForResponse((response) => response.url().includes('/api/common/clickCaptcha?'));
      for (const point of misses) await page.mouse.click(box.x + (point.x * box.width) / puzzle.width, box.y + (point.y * box.height) / puzzle.height);
      await dialog.getByRole('status').getByText('未点中正确区域，请重试！').waitFor();
      await second;
      // A wrong answer uses the puzzle up: it cannot be guessed at again.
      expect(await new ClickCaptchaService(rig.server.server.app.db).puzzleOf(id)).toBeUndefined();
      expect(page.url()).toMatch(adminPath('/login'));
      expect(await page.evaluate(() => localStorage.getItem('adminInfo'))).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('an access token expiring mid-session', () => {
  it('is refreshed without the user noticing', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      await page.waitForURL(adminPath('/login'));
      await loginThroughCaptcha(page, true);
      // The place asked for before logging in is where the user lands.
      await page.waitForURL(adminPath('/auth/admin'));
      await page.getByRole('cell', { name: 'Admin', exact: true }).waitFor();

      const before = await stored<AdminInfo>(page, 'adminInfo');
      expect(before?.refresh_token, 'remember me asks for a refresh token').toBeTruthy();
      const { db, tokens } = rig.server.server.app;
      const expired = await db.updateTable('token').set({ expire_time: 1 }).where('token', '=', tokens.digest(before?.token ?? '')).executeTakeFirst();
      expect(Number(expired.numUpdatedRows)).toBe(1);

      const refreshes: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.url().includes('/api/common/refreshToken')) refreshes.push(response.json().then((body: { code: number }) => body.code));
      });
      await page.getByRole('navigation', { name: '主菜单' }).getByRole('button', { name: '角色组管理', exact: true }).click();
      await page.waitForURL(adminPath('/auth/group'));
      await page.getByRole('table').getByText('一级管理员').waitFor();

      // One refresh call, which succeeded; the list request was replayed with the new token.
      expect(await Promise.all(refreshes)).toEqual([1]);
      const after = await stored<AdminInfo>(page, 'adminInfo');
      expect(after?.token).toBeTruthy();
      expect(after?.token).not.toBe(before?.token);
      expect(await tokenRow(rig.server, after?.token ?? '')).toMatchObject({ type: 'admin', user_id: 1 });
      expect(page.url()).not.toContain('/login');
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
