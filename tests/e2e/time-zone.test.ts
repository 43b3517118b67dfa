import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../src/contract/site-time.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { pastSecond } from '../support/clock.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, fillLogin, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * One time on every screen: the site is in Pacific/Auckland, the machine in UTC and the
 * browser in New York, three zones hours apart. An admin's login time reads the same in the admin list
 * (formatted by the server) and the admin log (formatted in the browser), and the previous login as the
 * dashboard and the member overview show it ("Last login": the login before this one, with its address),
 * all on Auckland's wall clock.
 */

const ZONE = 'Pacific/Auckland';
const MEMBER_PASSWORD = 'Member_pass1';
const EARLIER_ADDRESS = '203.0.113.9';
let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
  const db = rig.server.server.app.db;
  await db.updateTable('config').set({ value: ZONE }).where('name', '=', 'time_zone').execute();
  const now = Math.floor(Date.now() / 1000);
  await db
    .insertInto('user')
    .values({ group_id: 1, username: 'kiwi', nickname: 'Kiwi', email: '', mobile: '', password: await hashPassword(MEMBER_PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
    .execute();
  rig.server.server.app.config.invalidate();
});

afterAll(async () => {
  await rig?.close();
});

/** The member login form, as kiwi, landing inside the member centre. */
async function memberLogin(page: Page): Promise<void> {
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: /username|用户名/i }).fill('kiwi');
  await page.getByLabel(/^(password|密码)$/i).fill(MEMBER_PASSWORD);
  await page.getByRole('button', { name: /^(log ?in|sign in|登录)$/i }).click();
  await page.waitForURL(/\/user\/(?!login)/);
}

describe('the site time zone', () => {
  it('shows an admin login at one time in the admin list and the admin log, and the previous logins on the dashboard and the member overview', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'America/New_York' });
    context.setDefaultTimeout(WAIT_MS);
    // A browser in English whose visitor chose Chinese before: the pages speak Chinese, the browser still formats in en-US.
    await context.addInitScript(() => {
      if (!localStorage.getItem('storeConfig_v2')) localStorage.setItem('storeConfig_v2', JSON.stringify({ layout: {}, lang: { defaultLang: 'zh-cn', fallbackLang: 'en' } }));
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const db = rig.server.server.app.db;
      // an earlier login from elsewhere, which the dashboard then names
      const earlier = await rig.server.admin<{ userInfo: { token: string } }>('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, headers: { 'x-forwarded-for': EARLIER_ADDRESS } });
      expect(earlier.code).toBe(1);
      const adminEarlier = Number((await db.selectFrom('admin').select('last_login_time').where('username', '=', 'admin').executeTakeFirstOrThrow()).last_login_time);
      await pastSecond(adminEarlier);
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      await fillLogin(page);
      await page.waitForURL(adminPath('/dashboard'));
      // the back office speaks its default language, Chinese
      await page.getByText(`${formatLocalDateTime(adminEarlier, ZONE)}，来自 ${EARLIER_ADDRESS}`, { exact: true }).waitFor();

      const admin = (await db.selectFrom('admin').select('last_login_time').where('username', '=', 'admin').executeTakeFirstOrThrow()) as { last_login_time: number };
      const loginAt = formatLocalDateTime(admin.last_login_time, ZONE);
      // Far from the machine's and the browser's reading of the same instant.
      expect(loginAt).not.toBe(formatLocalDateTime(admin.last_login_time, 'UTC'));
      expect(loginAt).not.toBe(formatLocalDateTime(admin.last_login_time, 'America/New_York'));

      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      await page.getByRole('cell', { name: loginAt }).first().waitFor();

      const log = (await db.selectFrom('admin_log').select('create_time').where('admin_id', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow()) as { create_time: number };
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/adminLog`));
      await page.getByRole('cell', { name: formatLocalDateTime(log.create_time, ZONE) }).first().waitFor();

      // the member's first login: the overview says so
      await memberLogin(page);
      await page.goto(url(rig.server, '/user/account/overview'));
      await page.getByTestId('stat-lastLogin').getByText('首次登录', { exact: true }).waitFor();

      // signed out and in again: the overview names the first login, on Auckland's clock
      const member = (await db.selectFrom('user').select('last_login_time').where('username', '=', 'kiwi').executeTakeFirstOrThrow()) as { last_login_time: number };
      await page.evaluate(() => localStorage.removeItem('userInfo'));
      await pastSecond(Number(member.last_login_time));
      await memberLogin(page);
      await page.goto(url(rig.server, '/user/account/overview'));
      await page.getByTestId('stat-lastLogin').getByText(`${formatLocalDateTime(member.last_login_time, ZONE)}，来自 127.0.0.1`, { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
