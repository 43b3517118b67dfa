import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../src/contract/site-time.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { ADMIN_BASE, adminPath, fillLogin, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * One time on every screen: the site is in Pacific/Auckland, the machine in UTC and the
 * browser in New York, three zones hours apart. An admin's login time reads the same in the admin list
 * (formatted by the server) and the admin log (formatted in the browser), and a member's login time on
 * the member overview, all on Auckland's wall clock.
 */

const ZONE = 'Pacific/Auckland';
const MEMBER_PASSWORD = 'Member_pass1';
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

describe('the site time zone', () => {
  it('shows an admin login at one time in the admin list and the admin log, and a member login on the overview', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'America/New_York' });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const db = rig.server.server.app.db;
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      await fillLogin(page);
      await page.waitForURL(adminPath('/dashboard'));

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

      await page.goto(url(rig.server, '/user/login'));
      await page.getByRole('textbox', { name: /username|用户名/i }).fill('kiwi');
      await page.getByLabel(/^(password|密码)$/i).fill(MEMBER_PASSWORD);
      await page.getByRole('button', { name: /^(log ?in|sign in|登录)$/i }).click();
      await page.waitForURL(/\/user\/(?!login)/);
      const member = (await db.selectFrom('user').select('last_login_time').where('username', '=', 'kiwi').executeTakeFirstOrThrow()) as { last_login_time: number };
      await page.goto(url(rig.server, '/user/account/overview'));
      await page.getByText(formatLocalDateTime(member.last_login_time, ZONE)).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
