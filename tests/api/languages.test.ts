import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerNotes, recordLedgerEntry } from '../../src/server/services/ledger.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Both languages (issue "Running a panel day to day", item 11): notes the system writes are read in
 * the reader's language, old free-text notes as they are.
 */

type Row = Record<string, unknown>;
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('languages on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function member(money = 0): Promise<{ id: number; username: string; token: string }> {
    const username = `lang${++counter}${kind.slice(0, 2)}`;
    expect((await admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: PASSWORD, mobile: `1380013${String(counter).padStart(4, '0')}` } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    const id = login.data.userInfo.id;
    if (money) await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: id, amount: money, memo: 'Opening bonus, typed by hand' });
    return { id, username, token: login.data.userInfo.token };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('ledger notes', () => {
    let amy: { id: number; username: string; token: string };
    let payoutId: number;

    beforeAll(async () => {
      amy = await member(5000);
      const details = { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '6222 0000 1111 2222' };
      expect((await server.api('paymentuser/payment', { userToken: amy.token, body: details })).code).toBe(1);
      // Requested in Chinese: the note must not stay Chinese for an English reader.
      const requested = await server.api<{ id: number }>('paymentuser/payout', { userToken: amy.token, body: { amount: '20.00' }, lang: 'zh-cn' });
      expect(requested.code).toBe(1);
      payoutId = requested.data.id;
      expect((await admin('user.Payout/reject', { body: { ids: [payoutId], reason: '账户名不符' }, lang: 'en' })).code).toBe(1);
    });

    it('shows the member centre’s balance log in the reader’s language, a hand-typed note as typed', async () => {
      const memos = async (lang: 'zh-cn' | 'en') =>
        (await server.api<{ list: Row[] }>('account/balance', { userToken: amy.token, lang })).data.list.map((row) => row.memo);
      expect(await memos('zh-cn')).toEqual([`提现 #${payoutId} 被驳回：账户名不符`, `提现申请 #${payoutId}`, 'Opening bonus, typed by hand']);
      expect(await memos('en')).toEqual([`Payout #${payoutId} rejected: 账户名不符`, `Payout #${payoutId} requested`, 'Opening bonus, typed by hand']);
    });

    it('shows the admin balance list and its CSV export in the admin’s language', async () => {
      const query = { search: [{ field: 'user_id', val: amy.id, operator: '=' }], order: 'id,asc' };
      const memos = async (lang: 'zh-cn' | 'en') => (await admin<{ list: Row[] }>('user.MoneyLog/index', { query, lang })).data.list.map((row) => row.memo);
      expect(await memos('zh-cn')).toEqual(['Opening bonus, typed by hand', `提现申请 #${payoutId}`, `提现 #${payoutId} 被驳回：账户名不符`]);
      expect(await memos('en')).toEqual(['Opening bonus, typed by hand', `Payout #${payoutId} requested`, `Payout #${payoutId} rejected: 账户名不符`]);
      const csv = await (await server.raw(`/chidaoadminstator.php/user.MoneyLog/export?search[0][field]=user_id&search[0][val]=${amy.id}&search[0][operator]=%3D`, { headers: { batoken: token, 'think-lang': 'en' } })).text();
      expect(csv).toContain(`Payout #${payoutId} requested`);
      expect(csv).not.toContain('"key"');
    });

    it('keeps a note within the column when the survey title is long, the title cut short', async () => {
      const title = '很长的问卷标题'.repeat(60);
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'score', userId: amy.id, amount: 5, memo: ledgerNotes.surveyReward({ id: 12, title }) });
      const [row] = (await server.api<{ list: Row[] }>('account/integral', { userToken: amy.token, lang: 'en' })).data.list;
      expect(String(row.memo)).toMatch(/^Survey reward: #12 (很长的问卷标题)+.*…$/);
    });
  });
});
