import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, adminPath, errorToasts, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The whole survey journey in Chromium: an administrator sets up a provider and an active survey whose
 * entry URL points at a fake survey site; a member starts it, answers, and the site sends the browser
 * back to `/success` signed with the provider's secret; the member sees the reward and the new balance.
 */

const SECRET = 'journey-secret-42';
const MEMBER = { username: 'journeyer', password: 'Member_pass1' };

let rig: E2eRig;
let site: Server;
let siteUrl: string;

/** The provider's survey: one question, then a redirect back to our outcome page, signed. */
function startFakeSurveySite(returnBase: () => string): Promise<Server> {
  const server = createServer((request, response) => {
    const requestUrl = new URL(request.url ?? '/', 'http://fake');
    const rid = requestUrl.searchParams.get('rid') ?? '';
    if (requestUrl.pathname === '/survey') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Fake panel</title><h1>Do you like coffee?</h1>
        <form method="get" action="/done"><input type="hidden" name="rid" value="${rid.replace(/[^0-9a-f]/g, '')}">
        <label><input type="radio" name="answer" value="yes" checked> Yes</label><button>Finish</button></form>`);
      return;
    }
    if (requestUrl.pathname === '/done') {
      const unsigned = `rid=${encodeURIComponent(rid)}`;
      const sig = createHmac('sha256', SECRET).update(`/success?${unsigned}`).digest('hex');
      response.writeHead(302, { location: `${returnBase()}/success?${unsigned}&sig=${sig}` });
      response.end();
      return;
    }
    response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  rig = await startRig();
  site = await startFakeSurveySite(() => rig.server.url);
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const token = (await rig.server.loginAdmin()).token;
  const added = await rig.server.admin('user.User/add', { token, body: { username: MEMBER.username, nickname: 'Journey', group_id: 1, password: MEMBER.password } });
  expect(added.code).toBe(1);
});

afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  await rig?.close();
});

describe('survey journey', () => {
  it('an admin publishes a survey, a member takes it and is credited once', async () => {
    const admin = await newPage(rig.browser);
    try {
      const { page } = admin;
      await loginAs(page, rig.server);
      const main = page.getByRole('main');
      const form = page.getByRole('dialog');

      // The provider, with its secret.
      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/provider/create`));
      await form.getByRole('textbox', { name: '渠道代码', exact: true }).fill('fakepanel');
      await form.getByRole('textbox', { name: '名称', exact: true }).fill('Fake panel');
      await form.getByLabel('密钥', { exact: true }).fill(SECRET);
      await form.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/survey/provider'));
      await main.getByRole('cell', { name: 'fakepanel', exact: true }).waitFor();

      // The survey, active, pointing at the fake site; speeders are credited at once here.
      await page.goto(url(rig.server, `${ADMIN_BASE}/survey/survey/create`));
      await form.getByRole('combobox', { name: '渠道' }).click();
      await page.getByRole('option', { name: 'Fake panel' }).click();
      await form.getByRole('textbox', { name: '标题', exact: true }).fill('Coffee habits');
      await form.getByRole('textbox', { name: '入口链接', exact: true }).fill(`${siteUrl}/survey?rid={rid}`);
      await form.getByRole('textbox', { name: '奖励金额', exact: true }).fill('1.50');
      await form.getByLabel('答题过快时暂扣奖励待审核').uncheck();
      await form.getByRole('radio', { name: '进行中' }).check();
      await form.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/survey/survey'));
      await main.getByRole('cell', { name: 'Coffee habits', exact: true }).waitFor();
      const stored = (await rig.server.server.app.db.selectFrom('survey').selectAll().where('title', '=', 'Coffee habits').executeTakeFirstOrThrow()) as Record<string, unknown>;
      expect(stored).toMatchObject({ status: 'active', reward_money: 150 });
      expect(await errorToasts(page).count()).toBe(0);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }

    const member = await newPage(rig.browser);
    try {
      const { page } = member;
      // The member logs in, finds the survey among the tasks open to them, and starts it.
      await page.goto(url(rig.server, '/user'));
      await page.waitForURL(/\/user\/login/);
      await page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }).fill(MEMBER.username);
      await page.getByLabel('密码', { exact: true }).fill(MEMBER.password);
      await page.getByRole('button', { name: '登录', exact: true }).click();
      const task = page.getByRole('listitem').filter({ hasText: 'Coffee habits' });
      await task.getByText('奖励 ¥1.50', { exact: true }).waitFor();
      await task.getByRole('link', { name: '开始答题' }).click();
      await page.waitForURL(`${siteUrl}/survey?rid=*`);
      await page.getByRole('heading', { name: 'Do you like coffee?' }).waitFor();
      await page.getByRole('button', { name: 'Finish' }).click();

      // Back on our outcome page: the reward and the new balance.
      await page.waitForURL(url(rig.server, '/success?*'));
      await page.getByRole('heading', { name: '成功' }).waitFor();
      await poll(() => page.getByTestId('reward').textContent()).toBe('已发放：¥1.50');
      expect(await page.getByTestId('balance').textContent()).toBe('您当前的余额为 ¥1.50，积分 0');
      expect(await page.title()).toContain('成功');

      // A reload sends the same return again: recorded once, credited once.
      await page.reload();
      await page.getByRole('heading', { name: '结果已记录过' }).waitFor();
      const user = (await rig.server.server.app.db.selectFrom('user').select(['id', 'money']).where('username', '=', MEMBER.username).executeTakeFirstOrThrow()) as { id: number; money: number };
      expect(Number(user.money)).toBe(150);
      const logs = await rig.server.server.app.db.selectFrom('user_money_log').select('money').where('user_id', '=', user.id).execute();
      expect(logs.map((log) => Number(log.money))).toEqual([150]);

      // The member's records show it.
      await page.goto(url(rig.server, '/user'));
      await page.getByRole('navigation', { name: '会员菜单' }).getByRole('link', { name: '任务记录' }).click();
      await page.waitForURL(url(rig.server, '/user/survey/tracking'));
      const row = page.getByRole('row').filter({ hasText: 'Coffee habits' });
      await row.getByText('完成', { exact: true }).waitFor();
      await row.getByText('¥1.50', { exact: true }).waitFor();
      expect(member.errors).toEqual([]);
    } finally {
      await member.context.close();
    }
  });
});
