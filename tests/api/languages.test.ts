import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerNotes, recordLedgerEntry } from '../../src/server/services/ledger.js';
import { SmsSink } from '../support/sms-sink.js';
import { proveSms, solvedCaptcha } from '../support/code-channels.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Both languages (issue "Running a panel day to day", item 11): notes the system writes are read in
 * the reader's language, old free-text notes as they are.
 */

type Row = Record<string, unknown>;
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('languages on %s', (kind) => {
  let server: TestServer;
  const texts = new SmsSink();
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function member(money = 0, lang: 'zh-cn' | 'en' = 'en'): Promise<{ id: number; username: string; mobile: string; token: string }> {
    const username = `lang${++counter}${kind.slice(0, 2)}`;
    const mobile = `1380013${String(counter).padStart(4, '0')}`;
    expect((await admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: PASSWORD, mobile } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD }, lang });
    const id = login.data.userInfo.id;
    if (money) await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: id, amount: money, memo: 'Opening bonus, typed by hand' });
    return { id, username, mobile, token: login.data.userInfo.token };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { sms: texts });
    token = (await server.loginAdmin()).token;
    await proveSms(server, token);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('ledger notes', () => {
    let amy: { id: number; username: string; mobile: string; token: string };
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
      expect(String(row.memo)).toMatch(/^Survey reward: (很长的问卷标题)+.*…$/);
    });

    it('names the survey of a reward by its title in the member’s language, never by its id', async () => {
      const memo = ledgerNotes.surveyReward({ id: 13, title: '通勤方式问卷', title_en: 'How you commute' });
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'score', userId: amy.id, amount: 5, memo });
      const first = async (lang: 'zh-cn' | 'en') => String((await server.api<{ list: Row[] }>('account/integral', { userToken: amy.token, lang })).data.list[0].memo);
      expect(await first('zh-cn')).toBe('问卷奖励：通勤方式问卷');
      expect(await first('en')).toBe('Survey reward: How you commute');
      // Two long titles share the column: the longer is cut short, the note still fits and each reads.
      const english = `${'A long title '.repeat(7)}end`;
      const long = ledgerNotes.surveyReward({ title: '很长的问卷标题'.repeat(14), title_en: english });
      expect(long.length).toBeLessThanOrEqual(255);
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'score', userId: amy.id, amount: 5, memo: long });
      expect(await first('zh-cn')).toMatch(/^问卷奖励：(很长的问卷标题)+.*…$/);
      expect(await first('en')).toBe(`Survey reward: ${english}`);
    });
  });

  describe('texts sent to a member', () => {
    async function sms(mobile: string, lang: 'zh-cn' | 'en'): Promise<string> {
      // One code a minute per number: the earlier codes are taken as sent a minute ago.
      await db().updateTable('verification_code').set({ create_time: Math.floor(Date.now() / 1000) - 120 }).where('address', '=', mobile).execute();
      const sent = await server.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', event: 'user_retrieve_pwd', ...(await solvedCaptcha(server)) }, lang });
      expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 1, msg: lang === 'en' ? 'SMS sent successfully' : '短信发送成功' });
      return texts.last(mobile).content;
    }

    it('speaks the language the member last used, whatever the page that asked for the code speaks', async () => {
      const ben = await member(0, 'en');
      const chen = await member(0, 'zh-cn');
      expect(await sms(ben.mobile, 'zh-cn')).toMatch(/^\[Chidao Survey\] You are resetting your password\. Your code is: \w+$/);
      expect(await sms(chen.mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码，验证码是：\w+。$/);
      // Ben switches the member centre to Chinese: the next text is Chinese.
      const switched = await server.api('account/language', { userToken: ben.token, body: { lang: 'zh-cn' }, lang: 'en' });
      expect({ code: switched.code, data: switched.data }).toEqual({ code: 1, data: { lang: 'zh-cn' } });
      expect(await sms(ben.mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码/);
    });

    it('keeps the language the member chose, at login or with the switch, not the language of each page read', async () => {
      const dana = await member(0, 'zh-cn');
      // Reading a page in English (a link opened with ?lang=en, another tab) chooses nothing.
      expect((await server.api('account/overview', { userToken: dana.token, lang: 'en' })).code).toBe(1);
      expect((await server.api('account/overview', { userToken: dana.token, query: { lang: 'en' } })).code).toBe(1);
      expect(await sms(dana.mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码/);
      // A language the site does not speak is refused on its field and changes nothing; so is a read, or no login.
      const refused = await server.api<{ errorId: string; field: string }>('account/language', { userToken: dana.token, body: { lang: 'fr' }, lang: 'en' });
      expect({ code: refused.code, msg: refused.msg, errorId: refused.data.errorId, field: refused.data.field }).toEqual({
        code: 0, msg: 'Choose a language the site speaks: zh-cn or en', errorId: 'unknownLanguage', field: 'lang',
      });
      expect((await server.api('account/language', { userToken: dana.token, query: { lang: 'en' } })).code).toBe(0);
      expect((await server.api('account/language', { body: { lang: 'en' }, lang: 'en' })).code).toBe(303);
      expect(await sms(dana.mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码/);
      // Dana switches to English: the next text is English, whatever the page asking for it speaks.
      expect((await server.api('account/language', { userToken: dana.token, body: { lang: 'EN' }, lang: 'zh-cn' })).code).toBe(1);
      expect(await sms(dana.mobile, 'zh-cn')).toMatch(/^\[Chidao Survey\] You are resetting your password/);
      // Signing in again in Chinese chooses Chinese: the next text is Chinese.
      expect((await server.api('user/checkIn', { body: { tab: 'login', username: dana.username, password: PASSWORD }, lang: 'zh-cn' })).code).toBe(1);
      expect(await sms(dana.mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码/);
    });

    it('writes to a new number in the page’s language, keeps it as the new member’s, and falls back to Chinese without an English text', async () => {
      const mobile = `1370013${kind === 'sqlite' ? '0001' : '0002'}`;
      const sent = await server.api('Sms/send', { body: { mobile, template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) }, lang: 'en' });
      expect(sent.code).toBe(1);
      const row = texts.last(mobile);
      expect(row.content).toMatch(/^\[Chidao Survey\] Your sign-up code is: (\w+), valid for 10 minutes\.$/);
      const code = /code is: (\w+)/.exec(row.content)?.[1];
      const username = `reg${kind.slice(0, 2)}`;
      const registered = await server.api('user/checkIn', { body: { tab: 'register', registerType: 'mobile', username, password: PASSWORD, mobile, captcha: code }, lang: 'en' });
      expect(registered.msg).toBe('Login succeeded!');
      expect(await sms(mobile, 'zh-cn')).toMatch(/^\[Chidao Survey\] You are resetting your password/);
      await db().updateTable('sms_template').set({ content_en: '' }).where('template_code', '=', 'user_retrieve_pwd').execute();
      expect(await sms(mobile, 'en')).toMatch(/^【Chidao Survey】您正在找回密码/);
    });

    it('gives the templates of a database made before English texts existed the seeded English texts, once', async () => {
      // As a database of the previous version: no content_en column, and no record of one.
      await db().schema.alterTable('sms_template').dropColumn('content_en').execute();
      const state = (await db().selectFrom('schema_state').select('definition').where('table_name', '=', 'sms_template').executeTakeFirstOrThrow()) as { definition: string };
      const snapshot = JSON.parse(state.definition) as { columns: Record<string, unknown> };
      delete snapshot.columns.content_en;
      await db().updateTable('schema_state').set({ definition: JSON.stringify(snapshot) }).where('table_name', '=', 'sms_template').execute();
      await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
      const texts = async () => ((await db().selectFrom('sms_template').select(['id', 'content_en']).orderBy('id').execute()) as Row[]).map((row) => row.content_en);
      expect(await texts()).toEqual([
        '[{site_name}] Your sign-up code is: {code}, valid for 10 minutes.',
        '[{site_name}] You are resetting your password. Your code is: {code}',
        '[{site_name}] You are binding a new mobile number. Your code is: {code}',
        '[{site_name}] You are verifying your account. Your code is: {code}',
      ]);
      // An administrator clears one afterwards: later starts leave it cleared.
      await db().updateTable('sms_template').set({ content_en: '' }).where('id', '=', 1).execute();
      await (await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true })).close();
      expect((await texts())[0]).toBe('');
    });
  });

  describe('seeded names', () => {
    it('shows seeded group names in the reader’s language, and a renamed group as named', async () => {
      const groups = async (lang: 'zh-cn' | 'en') => {
        const list = (await admin<{ list: Row[] }>('auth.Group/index', { lang })).data.list;
        const flat: Row[] = [];
        const walk = (rows: Row[]) => rows.forEach((row) => (flat.push(row), walk((row.children as Row[] | undefined) ?? [])));
        walk(list);
        return Object.fromEntries(flat.map((row) => [row.id, row.name]));
      };
      expect(await groups('en')).toMatchObject({ 1: 'Super administrators', 2: 'Administrators, level 1', 3: 'Administrators, level 2' });
      expect(await groups('zh-cn')).toMatchObject({ 1: '超级管理组', 2: '一级管理员' });
      await db().updateTable('admin_group').set({ name: '客服组' }).where('id', '=', 3).execute();
      expect((await groups('en'))[3]).toBe('客服组');
      // The form edits the stored name.
      expect((await admin<{ row: Row }>('auth.Group/edit', { query: { id: 1 }, lang: 'en' })).data.row.name).toBe('超级管理组');

      const admins = (await admin<{ list: Row[] }>('auth.Admin/index', { lang: 'en' })).data.list;
      expect(admins.find((row) => row.username === 'admin')?.group_name_arr).toEqual(['Super administrators']);
      const members = (await admin<{ list: Row[] }>('user.User/index', { lang: 'en', query: { limit: 1 } })).data.list;
      expect((members[0].group as Row).name).toBe('Default group');
      const membersZh = (await admin<{ list: Row[] }>('user.User/index', { lang: 'zh-cn', query: { limit: 1 } })).data.list;
      expect((membersZh[0].group as Row).name).toBe('默认分组');
    });
  });
});
