import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proveMail } from '../support/code-channels.js';
import { codeIn, startMailSink, type MailSink } from '../support/mail-sink.js';
import { newPage, poll, solveClickCaptcha, startRig, url, type E2eRig } from './helpers.js';

/**
 * The member centre in Chromium: a visitor registers with a code mailed through a real SMTP server
 * (after the click captcha), lands in the centre, logs out, logs in again through a deep link and sees
 * the overview with its chart; the left menu follows the member's rules.
 */

let rig: E2eRig;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  rig = await startRig({ SMTP_CA_FILE: sink.caFile });
  const token = (await rig.server.loginAdmin()).token;
  // mail is offered once a test mail through its settings arrived
  await proveMail(rig.server, token, sink);
  expect((await rig.server.admin('routine.Config/edit', { token, method: 'POST', body: { site_name: 'Panel One' } })).code).toBe(1);
  sink.mails.length = 0;
});

afterAll(async () => {
  await rig?.close();
  await sink?.close();
});

describe('member centre', () => {
  it('registers with an emailed code, logs in again through a deep link and sees the overview chart', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, '/user/login'));
      await page.getByRole('link', { name: '注册账号' }).click();
      const form = page.getByRole('form', { name: '注册账号' });
      await form.getByRole('textbox', { name: '用户名' }).fill('newbie');
      await form.getByLabel('密码', { exact: true }).fill('Member_pass1');
      await form.getByRole('textbox', { name: '邮箱' }).fill('newbie@example.com');

      // The mail code asks for the click captcha first, then goes out through SMTP.
      const puzzle = page.waitForRequest((request) => request.url().includes('/api/common/clickCaptcha'));
      await form.getByRole('button', { name: '发送验证码' }).click();
      await solveClickCaptcha(page, rig.server, await puzzle);
      await form.getByText('邮件发送成功~').waitFor();
      await poll(() => sink.mails.length).toBe(1);
      expect(sink.mails[0].to).toEqual(['newbie@example.com']);
      await form.getByRole('button', { name: /秒后重发/ }).waitFor();

      await form.getByRole('textbox', { name: '验证码' }).fill(codeIn(sink.mails[0].raw));
      await form.getByRole('button', { name: '注册' }).click();
      await page.waitForURL(url(rig.server, '/user/survey/tasks'));
      await page.getByRole('heading', { name: '任务大厅' }).waitFor();
      expect(await page.title()).toBe('任务大厅 - Panel One');
      const stored = (await rig.server.server.app.db.selectFrom('user').select(['email', 'nickname']).where('username', '=', 'newbie').executeTakeFirstOrThrow()) as { email: string; nickname: string };
      expect(stored).toEqual({ email: 'newbie@example.com', nickname: 'newbie' });

      // Logout from the member menu, then a deep link goes through the login and comes back.
      await page.getByRole('button', { name: '我的账户' }).click();
      await page.getByRole('menuitem', { name: '退出登录' }).click();
      await page.waitForURL(/\/user\/login$/);
      await page.goto(url(rig.server, '/user/account/overview'));
      await page.waitForURL(/\/user\/login\?redirect=/);
      await page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }).fill('newbie@example.com');
      await page.getByLabel('密码', { exact: true }).fill('Member_pass1');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForURL(url(rig.server, '/user/account/overview'));
      await page.getByText('欢迎回来，newbie').waitFor();
      const chart = page.getByRole('img', { name: '近 7 天每日收益（¥）与完成数' });
      await chart.waitFor();
      // Seven days on the axis, the last one today (the server's zone).
      await poll(() => chart.locator('.recharts-cartesian-axis-tick-value').count()).toBeGreaterThanOrEqual(7);
      const menu = page.getByRole('navigation', { name: '会员菜单' });
      for (const title of ['任务大厅', '任务记录', '排行榜', '账户概览', '个人资料', '修改密码', '余额记录', '提现', '团队成员']) {
        await menu.getByRole('link', { name: title }).waitFor();
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens every page of the menu, whether its rule names BuildAdmin’s view file or our page', async () => {
    const db = rig.server.server.app.db;
    const rules = (await db.selectFrom('user_rule').select(['title', 'path', 'component']).where('type', '=', 'menu').where('status', '=', '1').execute()) as { title: string; path: string; component: string }[];
    // the seeded rules carry both kinds of component
    expect(rules.filter((rule) => rule.component.startsWith('/src/views/frontend/user/')).length).toBe(5);
    expect(rules.filter((rule) => !rule.component.startsWith('/src/')).length).toBeGreaterThan(0);
    const added = await rig.server.admin('user.User/add', { token: (await rig.server.loginAdmin()).token, body: { username: 'walker', nickname: 'walker', group_id: 1, password: 'Member_pass1' } });
    expect(added.code).toBe(1);

    const { page, context, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, '/user/login'));
      await page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }).fill('walker');
      await page.getByLabel('密码', { exact: true }).fill('Member_pass1');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForURL(url(rig.server, '/user/survey/tasks'));
      const menu = page.getByRole('navigation', { name: '会员菜单' });
      for (const rule of rules) {
        await menu.getByRole('link', { name: rule.title }).click();
        await page.waitForURL(url(rig.server, `/user/${rule.path}`));
        await poll(() => page.title()).toBe(`${rule.title} - Panel One`);
        await page.getByRole('main').getByRole('heading').first().waitFor();
        expect({ page: rule.path, missing: await page.getByText('此版本未提供该页面。').count() }).toEqual({ page: rule.path, missing: 0 });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
