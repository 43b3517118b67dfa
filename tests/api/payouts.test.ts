import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByTable } from '../../src/server/app-context.js';
import { ApiError } from '../../src/server/errors.js';
import { updateDomainRow } from '../../src/server/writes/domain-writes.js';
import { toJson } from '../../src/server/db/values.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Payment details and payouts on both databases: details checked and masked, the
 * amount frozen through the ledger at once, one open payout, the review with two administrators, a
 * rejection refunding, and parallel requests never freezing more than the balance.
 */

type Row = Record<string, unknown>;
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('payouts on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function member(money = 0): Promise<{ id: number; token: string }> {
    const username = `pay${++counter}${kind.slice(0, 2)}`;
    expect((await admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    const id = login.data.userInfo.id;
    if (money) await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: id, amount: money, memo: 'Earned' });
    return { id, token: login.data.userInfo.token };
  }

  async function balance(id: number): Promise<number> {
    return Number(((await db().selectFrom('user').select('money').where('id', '=', id).executeTakeFirstOrThrow()) as Row).money);
  }

  async function ledgerSum(id: number): Promise<number> {
    return Number(((await db().selectFrom('user_money_log').select((eb) => eb.fn.sum('money').as('sum')).where('user_id', '=', id).executeTakeFirstOrThrow()) as Row).sum ?? 0);
  }

  async function bankDetails(who: { token: string }, extra: Row = {}) {
    return server.api('paymentuser/payment', { userToken: who.token, body: { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '6222 0000 1111 2222', ...extra } });
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('saves payment details with the method’s own fields checked, masks the number, and asks the password to change them', async () => {
    const amy = await member();
    const missing = await server.api('paymentuser/payment', { userToken: amy.token, body: { payment: 'bank', bank: 'Amy Li' } });
    // every empty field at once, so the form marks them all; the message names the first
    expect({ code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ code: 0, msg: 'Bank cannot be empty', data: { field: 'bank_name', fields: ['bank_name', 'bank_address', 'bank_num'], errorId: 'paymentFieldsRequired' } });
    const badNumber = await bankDetails(amy, { bank_num: '12ab' });
    expect(badNumber.data).toEqual({ field: 'bank_num', errorId: 'paymentFieldInvalid' });
    expect(((await db().selectFrom('user').select('payment').where('id', '=', amy.id).executeTakeFirstOrThrow()) as Row).payment).toBe('');

    expect((await bankDetails(amy)).code).toBe(1);
    const shown = await server.api<{ details: Row }>('paymentuser/payment', { userToken: amy.token });
    expect(shown.data.details).toMatchObject({ payment: 'bank', bank_name: 'ICBC', bank_num: '************2222' });
    const list = await admin<{ list: Row[] }>('user.User/index', { query: { search: [{ field: 'id', val: amy.id, operator: '=' }] } });
    expect(list.data.list[0]).not.toHaveProperty('bank_num');

    const noPassword = await server.api('paymentuser/payment', { userToken: amy.token, body: { payment: 'alipay', zhifubao_name: 'Amy', zhifubao: 'amy@example.com' }, lang: 'zh-cn' });
    expect(noPassword.msg).toBe('修改收款信息需要输入登录密码');
    const changed = await server.api('paymentuser/payment', { userToken: amy.token, body: { payment: 'alipay', zhifubao_name: 'Amy', zhifubao: 'amy@example.com', password: PASSWORD } });
    expect(changed.code).toBe(1);
    const stored = (await db().selectFrom('user').select(['payment', 'bank_num', 'zhifubao']).where('id', '=', amy.id).executeTakeFirstOrThrow()) as Row;
    expect(stored).toEqual({ payment: 'alipay', bank_num: '', zhifubao: 'amy@example.com' });
  });

  it('tells the payouts page the balance, the minimum and each method’s fields, and takes the saved details back as they were shown', async () => {
    const cy = await member(2345);
    const page = await server.api<Row>('paymentuser/payment', { userToken: cy.token });
    expect(page.data).toEqual({
      details: { payment: '', bank: '', bank_name: '', bank_address: '', bank_num: '', zhifubao_name: '', zhifubao: '' },
      balance: '23.45',
      minimum: '10.00',
      pending: '0.00',
      fields: { bank: ['bank', 'bank_name', 'bank_address', 'bank_num'], alipay: ['zhifubao_name', 'zhifubao'] },
    });
    const none = await server.api('paymentuser/payment', { userToken: cy.token, body: { payment: 'alipay' } });
    expect(none.data).toEqual({ field: 'zhifubao_name', fields: ['zhifubao_name', 'zhifubao'], errorId: 'paymentFieldsRequired' });

    // The form comes back filled in (the number masked); saving it with only the branch changed keeps the number.
    expect((await bankDetails(cy)).code).toBe(1);
    const shown = (await server.api<{ details: Row }>('paymentuser/payment', { userToken: cy.token })).data.details;
    expect(shown).toMatchObject({ bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '************2222' });
    const resaved = await server.api('paymentuser/payment', { userToken: cy.token, body: { ...shown, bank_address: 'Pudong branch', password: PASSWORD } });
    expect(resaved.code).toBe(1);
    const stored = (await db().selectFrom('user').select(['bank_address', 'bank_num']).where('id', '=', cy.id).executeTakeFirstOrThrow()) as Row;
    expect(stored).toEqual({ bank_address: 'Pudong branch', bank_num: '6222000011112222' });
    // another number's mask is not a number
    const foreign = await server.api('paymentuser/payment', { userToken: cy.token, body: { ...shown, bank_num: '************9999', password: PASSWORD } });
    expect(foreign.data).toEqual({ field: 'bank_num', errorId: 'paymentFieldInvalid' });
  });

  it('freezes a payout at once, refuses a second, below the minimum or above the balance, and writes nothing then', async () => {
    const bo = await member(5000);
    const noDetails = await server.api('paymentuser/payout', { userToken: bo.token, body: { amount: '20.00' } });
    expect(noDetails.msg).toBe('Please save your payment details first');
    await bankDetails(bo);
    const cases: [unknown, string][] = [
      ['5.00', 'The least you can withdraw is 10.00'], ['60.00', 'The amount is more than your balance'], ['1,5', 'Please enter an amount such as 12.50'],
      // More than two decimals, whether the JSON holds a number or a text: refused, never rounded.
      [12.345, 'Please enter an amount such as 12.50'], ['12.345', 'Please enter an amount such as 12.50'], [12.001, 'Please enter an amount such as 12.50'],
    ];
    for (const [amount, msg] of cases) {
      const refused = await server.api('paymentuser/payout', { userToken: bo.token, body: { amount } });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg });
    }
    expect(await balance(bo.id)).toBe(5000);
    expect(await db().selectFrom('payout').select('id').where('user_id', '=', bo.id).execute()).toEqual([]);
    // The back office's money inputs (a ledger entry) refuse them the same way.
    for (const money of [12.345, '12.345']) {
      const gift = await admin('user.MoneyLog/add', { body: { user_id: bo.id, money, memo: 'Gift' } });
      expect({ code: gift.code, msg: gift.msg, data: gift.data }).toEqual({ code: 0, msg: 'Change amount must be an amount such as 12.50', data: { field: 'money', errorId: 'validation' } });
    }
    expect(await balance(bo.id)).toBe(5000);
    const asked = await server.api<{ id: number; balance: string }>('paymentuser/payout', { userToken: bo.token, body: { amount: '20.00' } });
    expect(asked.code).toBe(1);
    expect(await balance(bo.id)).toBe(3000);
    // The answer names the balance left, for the form to show at once.
    expect(asked.data.balance).toBe('30.00');
    const second = await server.api('paymentuser/payout', { userToken: bo.token, body: { amount: '10.00' } });
    expect(second.msg).toBe('You already have a payout waiting: please wait until it is done');
    const log = await server.api<{ list: Row[]; total: number; tags: Record<string, unknown> }>('account/paymentlog', { userToken: bo.token });
    expect(log.data.list[0]).toMatchObject({ amount: '20.00', status: 'pending', account: '************2222' });
    // Each status with the label and colour the payout schema gives it, in the member's language.
    expect(log.data.tags.status).toMatchObject({ pending: { label: 'Pending review', color: 'warning' }, paid: { label: 'Paid', color: 'success' }, rejected: { label: 'Rejected', color: 'danger' } });
    const chinese = await server.api<{ tags: { status: Record<string, unknown> } }>('account/paymentlog', { userToken: bo.token, lang: 'zh-cn' });
    expect(chinese.data.tags.status.pending).toEqual({ label: '待审核', color: 'warning' });
    expect(await ledgerSum(bo.id)).toBe(await balance(bo.id));
  });

  it('is approved by one admin and paid by another; a rejection refunds with the reason the member sees', async () => {
    const cy = await member(10_000);
    await bankDetails(cy);
    const id = (await server.api<{ id: number }>('paymentuser/payout', { userToken: cy.token, body: { amount: '30.00' } })).data.id;
    // The list offers each administrator only the steps they may take on the row now.
    const offered = async (adminToken = token) => {
      const list = await server.admin<{ list: Row[] }>('user.Payout/index', { token: adminToken, query: { search: [{ field: 'id', val: id, operator: '=' }] } });
      return list.data.list[0].actions;
    };
    expect(await offered()).toEqual(['approve', 'reject']);
    const payEarly = await admin('user.Payout/pay', { body: { ids: [id], reference: 'TX1' } });
    expect(payEarly.msg).toBe('A payout in status "Pending review" cannot take this step');
    expect((await admin('user.Payout/pay', { body: { ids: [id], reference: 'TX1' }, lang: 'zh-cn' })).msg).toBe('状态为“待审核”的提现不能进行此操作');
    expect((await admin('user.Payout/approve', { body: { ids: [id] } })).code).toBe(1);
    expect(await offered()).toEqual(['reject']);
    const sameAdmin = await admin('user.Payout/pay', { body: { ids: [id], reference: 'TX1' } });
    expect(sameAdmin.msg).toBe('Another administrator must mark this payout paid: you approved it');

    // A second administrator with the payout nodes pays it.
    const group = await admin('auth.Group/add', { body: { pid: 1, name: `Cashier ${counter}`, rules: ['*'], status: '1' } });
    expect(group.code).toBe(1);
    const groupId = Number(((await db().selectFrom('admin_group').select('id').where('name', '=', `Cashier ${counter}`).executeTakeFirstOrThrow()) as Row).id);
    expect((await admin('auth.Admin/add', { body: { username: `cashier${counter}`, nickname: 'Cashier', password: 'Cashier_pass1', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const cashier = await server.loginAdmin(`cashier${counter}`, 'Cashier_pass1');
    expect(await offered(cashier.token)).toEqual(['pay', 'reject']);
    const noReference = await server.admin('user.Payout/pay', { token: cashier.token, body: { ids: [id] } });
    expect(noReference.data).toMatchObject({ errorId: 'payoutReferenceRequired' });
    expect((await server.admin('user.Payout/pay', { token: cashier.token, body: { ids: [id], reference: 'TX-778' } })).code).toBe(1);
    const paid = (await db().selectFrom('payout').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    expect(paid).toMatchObject({ status: 'paid', reference: 'TX-778' });
    expect(await offered(cashier.token)).toEqual([]);
    const again = await server.admin('user.Payout/reject', { token: cashier.token, body: { ids: [id], reason: 'Late' } });
    expect(again.msg).toBe('A payout in status "Paid" cannot take this step');
    expect(await balance(cy.id)).toBe(7000);

    const second = (await server.api<{ id: number }>('paymentuser/payout', { userToken: cy.token, body: { amount: '15.00' } })).data.id;
    expect(await balance(cy.id)).toBe(5500);
    const noReason = await admin('user.Payout/reject', { body: { ids: [second] } });
    expect(noReason.msg).toBe('Please give a reason for the rejection');
    expect((await admin('user.Payout/reject', { body: { ids: [second], reason: 'Account name mismatch' } })).code).toBe(1);
    expect(await balance(cy.id)).toBe(7000);
    const log = await server.api<{ list: Row[] }>('account/paymentlog', { userToken: cy.token });
    expect(log.data.list.map((row) => [row.status, row.reason])).toEqual([['rejected', 'Account name mismatch'], ['paid', '']]);
    expect(await ledgerSum(cy.id)).toBe(await balance(cy.id));
  });

  it('shows the account paid to whole only with the account node', async () => {
    const list = await admin<{ list: Row[] }>('user.Payout/index');
    const row = list.data.list.find((item) => (item.account as Row).bank_num !== undefined);
    expect((row?.account as Row).bank_num).toBe('6222000011112222');
  });

  it('logs a watched payout field on each review step as the sensitive-data rule says, and the engine refuses a move x-transitions does not declare', async () => {
    const eve = await member(5000);
    await bankDetails(eve);
    const id = (await server.api<{ id: number }>('paymentuser/payout', { userToken: eve.token, body: { amount: '12.00' } })).data.id;
    const now = Math.floor(Date.now() / 1000);
    await db()
      .insertInto('security_sensitive_data')
      .values({ name: 'Payouts', controller: 'user/Payout.php', controller_as: 'user/payout', connection: '', data_table: 'payout', primary_key: 'id', data_fields: toJson({ status: 'Payout status', reason: 'Reason' }), status: '1', create_time: now, update_time: now })
      .execute();
    const logs = async () => (await db().selectFrom('security_sensitive_data_log').selectAll().where('data_table', '=', 'payout').where('id_value', '=', id).orderBy('id').execute()) as Row[];
    try {
      const adminId = Number(((await db().selectFrom('admin').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()) as Row).id);
      expect((await admin('user.Payout/approve', { body: { ids: [id] } })).code).toBe(1);
      expect(await logs()).toMatchObject([{ data_field: 'status', data_comment: 'Payout status', before: 'pending', after: 'approved', admin_id: adminId }]);
      // A refused step logs nothing.
      expect((await admin('user.Payout/approve', { body: { ids: [id] } })).msg).toBe('A payout in status "Approved" cannot take this step');
      expect(await logs()).toHaveLength(1);
      expect((await admin('user.Payout/reject', { body: { ids: [id], reason: 'Wrong name' } })).code).toBe(1);
      expect((await logs()).map((log) => [log.data_field, log.before, log.after])).toEqual([['status', 'pending', 'approved'], ['status', 'approved', 'rejected'], ['reason', '', 'Wrong name']]);
      // The list of the sensitive-data log shows the payout's entries to the administrator.
      const listed = await admin<{ list: Row[] }>('security.SensitiveDataLog/index', { query: { search: [{ field: 'data_table', val: 'payout', operator: '=' }] } });
      expect(listed.data.list.filter((row) => row.id_value === `id=${id}`)).toHaveLength(3);

      // The domain path goes through the engine: a move the schema does not declare (rejected → pending) is refused, the row unchanged.
      const app = server.server.app;
      const stored = (await db().selectFrom('payout').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
      const move = app.db.transaction().execute((trx) => updateDomainRow({ adminId: 0, ip: '127.0.0.1', userAgent: 'test' }, trx, { definition: resourceByTable(app, 'payout'), existing: stored, changes: { status: 'pending' } }));
      await expect(move).rejects.toMatchObject({ msg: '%s cannot change from "%s" to "%s"' });
      await expect(move).rejects.toThrow(ApiError);
      expect(((await db().selectFrom('payout').select('status').where('id', '=', id).executeTakeFirstOrThrow()) as Row).status).toBe('rejected');
      expect(await logs()).toHaveLength(3);
      expect(await balance(eve.id)).toBe(5000);
    } finally {
      await db().deleteFrom('security_sensitive_data').where('controller_as', '=', 'user/payout').execute();
    }
  });

  it('20 parallel requests never freeze more than the balance; the ledger sums to the balance', async () => {
    const dee = await member(2500);
    await bankDetails(dee);
    const answers = await Promise.all(Array.from({ length: 20 }, () => server.api('paymentuser/payout', { userToken: dee.token, body: { amount: '20.00' } })));
    expect(answers.filter((answer) => answer.code === 1)).toHaveLength(1);
    expect(await balance(dee.id)).toBe(500);
    expect(await db().selectFrom('payout').select('id').where('user_id', '=', dee.id).execute()).toHaveLength(1);
    expect(await ledgerSum(dee.id)).toBe(await balance(dee.id));
    // The dashboard counts the payouts waiting for review or payment, from the database.
    const waiting = (await db().selectFrom('payout').select(['amount']).where('status', 'in', ['pending', 'approved']).execute()) as Row[];
    const dashboard = await admin<{ figures: { payoutsPending: { count: number; amount: string } } }>('Dashboard/index');
    expect(dashboard.data.figures.payoutsPending).toEqual({ count: waiting.length, amount: (waiting.reduce((sum, row) => sum + Number(row.amount), 0) / 100).toFixed(2) });
    expect(waiting.length).toBeGreaterThan(0);
  });
});
