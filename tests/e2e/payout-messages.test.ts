import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * Each review step on the payout list ends with its own message: a rejection made while the approval's
 * message is still on screen replaces it at once (react-admin would hold it until the first timed out),
 * in both languages, on a desktop and on a phone.
 */

const PASSWORD = 'Member_pass1';
let rig: E2eRig;
let counter = 0;

async function pendingPayout(): Promise<string> {
  const server = rig.server;
  const token = (await server.loginAdmin()).token;
  const username = `payee${++counter}`;
  expect((await server.admin('user.User/add', { token, body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
  const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
  await recordLedgerEntry(server.server.app.db, server.server.app.handle.dialect, { kind: 'money', userId: login.data.userInfo.id, amount: 5000, memo: 'Survey rewards' });
  const userToken = login.data.userInfo.token;
  expect((await server.api('paymentuser/payment', { userToken, body: { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '6222 0000 1111 2222' } })).code).toBe(1);
  expect((await server.api('paymentuser/payout', { userToken, body: { amount: '20.00' } })).code).toBe(1);
  return username;
}

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

const CASES = [
  { language: 'en', phone: false, approve: 'Approve', confirm: 'Confirm', reject: 'Reject', reason: 'Reason shown to the member', approved: 'Approved', rejected: 'Rejected, the amount is back on the balance' },
  { language: 'zh-cn', phone: true, approve: '审核通过', confirm: '确认', reject: '驳回', reason: '驳回原因（会员可见）', approved: '已审核通过', rejected: '已驳回，金额已退回余额' },
  { language: 'zh-cn', phone: false, approve: '审核通过', confirm: '确认', reject: '驳回', reason: '驳回原因（会员可见）', approved: '已审核通过', rejected: '已驳回，金额已退回余额' },
  { language: 'en', phone: true, approve: 'Approve', confirm: 'Confirm', reject: 'Reject', reason: 'Reason shown to the member', approved: 'Approved', rejected: 'Rejected, the amount is back on the balance' },
] as const;

describe('payout review messages', () => {
  it.each(CASES)('an approval then a rejection each show their own message ($language, phone: $phone)', async (c) => {
    const approvedName = await pendingPayout();
    const rejectedName = await pendingPayout();
    const { context, page, errors } = await newPage(rig.browser, { language: c.language, phone: c.phone });
    await loginAs(page, rig.server, { language: c.language });
    await page.goto(url(rig.server, `${ADMIN_BASE}/user/payout`));
    const main = page.getByRole('main');
    await main.getByRole('row').filter({ hasText: approvedName }).getByRole('button', { name: c.approve }).click();
    await page.getByRole('dialog').getByRole('button', { name: c.confirm }).click();
    const toast = page.locator('.MuiSnackbar-root');
    await expect.poll(() => toast.innerText(), { timeout: 15_000 }).toBe(c.approved);
    await main.getByRole('row').filter({ hasText: rejectedName }).getByRole('button', { name: c.reject }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(c.reason).fill(c.language === 'en' ? 'Bank details are wrong' : '收款信息有误');
    const answered = page.waitForResponse((response) => response.url().includes('/user.Payout/reject'));
    await dialog.getByRole('button', { name: c.reject, exact: true }).click();
    await answered;
    const answeredAt = Date.now();
    await poll(() => toast.innerText()).toBe(c.rejected);
    // The rejection's message follows its answer at once, not when the approval's would have timed out (4 s
    // after it showed, a few hundred milliseconds after the rejection's answer here).
    expect(Date.now() - answeredAt).toBeLessThan(1500);
    await page.screenshot({ path: `/tmp/payout-messages-${c.language}-${c.phone ? 390 : 1440}.png` });
    expectNoViolations(await sweep(page, `payout list after a rejection (${c.language})`));
    expect(errors).toEqual([]);
    await context.close();
  });
});
