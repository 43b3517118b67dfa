import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * A payout from end to end in Chromium: the member saves bank details and asks for a payout; one
 * administrator approves it, a second marks it paid with the reference; the member sees it paid.
 */

const MEMBER = { username: 'payee', password: 'Member_pass1' };
const CASHIER = { username: 'cashier', password: 'Cashier_pass1' };
let rig: E2eRig;
let memberId = 0;

beforeAll(async () => {
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  expect((await rig.server.admin('user.User/add', { token, body: { username: MEMBER.username, nickname: 'Payee', group_id: 1, password: MEMBER.password } })).code).toBe(1);
  memberId = Number(((await rig.server.server.app.db.selectFrom('user').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow()) as { id: number }).id);
  await recordLedgerEntry(rig.server.server.app.db, rig.server.server.app.handle.dialect, { kind: 'money', userId: memberId, amount: 5000, memo: 'Survey rewards' });
  expect((await rig.server.admin('auth.Admin/add', { token, body: { username: CASHIER.username, nickname: 'Cashier', password: CASHIER.password, group_arr: [1], status: '1' } })).code).toBe(1);
});

afterAll(async () => {
  await rig?.close();
});

async function reviewAs(page: Page, username: string, password: string) {
  await loginAs(page, rig.server, { username, password });
  await page.goto(url(rig.server, `${ADMIN_BASE}/user/payout`));
  return page.getByRole('main').getByRole('row').filter({ hasText: MEMBER.username });
}

describe('payout journey', () => {
  it('member asks, one admin approves, another pays, the member sees it paid', async () => {
    const member = await newPage(rig.browser);
    const page = member.page;
    await page.goto(url(rig.server, '/user/login'));
    await page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }).fill(MEMBER.username);
    await page.getByLabel('密码', { exact: true }).fill(MEMBER.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    // The centre opens on the task list; payouts are under "My account".
    await page.getByRole('navigation', { name: '会员菜单' }).getByRole('link', { name: '提现' }).click();
    await page.waitForURL(url(rig.server, '/user/account/payout'));
    const wallet = page.getByRole('region', { name: '提现' });
    await wallet.getByLabel('开户人').fill('Pay Ee');
    await wallet.getByLabel('开户银行').fill('ICBC');
    await wallet.getByLabel('开户支行').fill('Shanghai');
    await wallet.getByLabel('银行卡号').fill('6222000011112222');
    await wallet.getByRole('button', { name: '保存收款信息' }).click();
    await wallet.getByText('收款信息已保存').waitFor();
    // The saved details come back filled in, the number masked.
    await poll(() => wallet.getByLabel('银行卡号').inputValue()).toBe('************2222');
    await wallet.getByLabel(/^金额/).fill('20');
    await wallet.getByRole('button', { name: '申请提现' }).click();
    await wallet.getByRole('table', { name: '提现记录' }).getByText('待审核').waitFor();
    expect(Number(((await rig.server.server.app.db.selectFrom('user').select('money').where('id', '=', memberId).executeTakeFirstOrThrow()) as { money: number }).money)).toBe(3000);

    const first = await newPage(rig.browser);
    const approverRow = await reviewAs(first.page, 'admin', 'Admin_pass1');
    await approverRow.getByRole('button', { name: '审核通过' }).click();
    await first.page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
    await poll(async () => ((await rig.server.server.app.db.selectFrom('payout').select('status').executeTakeFirstOrThrow()) as { status: string }).status).toBe('approved');
    await first.context.close();

    const second = await newPage(rig.browser);
    const payerRow = await reviewAs(second.page, CASHIER.username, CASHIER.password);
    await payerRow.getByRole('button', { name: '标记已打款' }).click();
    const dialog = second.page.getByRole('dialog');
    await dialog.getByLabel('打款流水号').fill('TX-20261124');
    await dialog.getByRole('button', { name: '标记已打款' }).click();
    await poll(async () => ((await rig.server.server.app.db.selectFrom('payout').select('status').executeTakeFirstOrThrow()) as { status: string }).status).toBe('paid');
    await second.context.close();

    await page.reload();
    await page.getByRole('region', { name: '提现' }).getByRole('table', { name: '提现记录' }).getByText('已打款').waitFor();
    await page.getByText('TX-20261124').waitFor();
    expect(member.errors).toEqual([]);
    await member.context.close();
  });
});
