import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicDb } from '../../src/server/db/connection.js';
import { describeSmsDriver } from '../../src/server/sms/sms-driver.js';
import { settingsFromEnv } from '../../src/server/settings.js';
import { DATABASES, PROJECT_ROOT, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * SMS go nowhere unless a driver is set: without `SMS_DRIVER` mobile codes are refused with a message
 * and not offered. The outbox (`SMS_DRIVER=outbox`) is for development: it keeps each text with its
 * code masked, and only super admins read it, whatever rules a group holds.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('SMS without a driver and in the outbox on %s', (kind) => {
  let plain: TestServer;
  let outbox: TestServer;
  const mobile = kind === 'sqlite' ? '13800138101' : '13800138102';

  async function addMember(server: TestServer, token: string): Promise<void> {
    const added = await server.admin('user.User/add', { token, body: { username: `sms${kind.slice(0, 2)}`, nickname: 'Sms', mobile, group_id: 1, password: 'Member_pass1' } });
    expect(added.code).toBe(1);
  }

  const count = async (server: TestServer, table: string) => Number(((await dynamicDb(server.server.app.db).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string }).n);

  beforeAll(async () => {
    plain = await startTestServer(kind);
    outbox = await startTestServer(kind, { env: { SMS_DRIVER: 'outbox' } });
    await addMember(plain, (await plain.loginAdmin()).token);
    await addMember(outbox, (await outbox.loginAdmin()).token);
  });

  afterAll(async () => {
    await plain?.close();
    await outbox?.close();
  });

  it('refuses a code by SMS when no SMS driver is set, sending and keeping nothing, and does not offer mobile codes', async () => {
    const sent = await plain.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', event: 'user_retrieve_pwd' } });
    expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg: 'SMS sending service unavailable' });
    const zh = await plain.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', event: 'user_retrieve_pwd' }, lang: 'zh-cn' });
    expect(zh.msg).toBe('短信发送服务不可用');
    expect(await count(plain, 'sms_outbox')).toBe(0);
    expect(await count(plain, 'verification_code')).toBe(0);
    const checkIn = await plain.api<{ accountVerificationType: string[] }>('user/checkIn', { method: 'GET' });
    expect(checkIn.data.accountVerificationType).not.toContain('mobile');
  });

  it('keeps the outbox only when asked for, and says so at start-up', () => {
    expect(settingsFromEnv({}, PROJECT_ROOT).sms.driver).toBe('none');
    expect(describeSmsDriver(settingsFromEnv({ SMS_DRIVER: 'outbox' }, PROJECT_ROOT).sms)).toMatch(/outbox.*development only/i);
    expect(describeSmsDriver(settingsFromEnv({}, PROJECT_ROOT).sms)).toMatch(/none/);
  });

  it('never reports a code sent through the outbox: the member is told the site cannot send SMS codes yet, and an administrator\'s test keeps the text masked', async () => {
    const sent = await outbox.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', event: 'user_retrieve_pwd' }, lang: 'zh-cn' });
    expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg: '本站暂时无法发送短信验证码，验证码未发出。请换一种方式或联系网站管理员' });
    expect(await count(outbox, 'verification_code')).toBe(0);
    const test = await outbox.admin('routine.Config/sendTestSms', { token: (await outbox.loginAdmin()).token, method: 'POST', body: { mobile }, lang: 'zh-cn' });
    expect({ code: test.code, msg: test.msg }).toEqual({ code: 0, msg: '短信发件箱只把短信保存在后台，并未发出：请把 SMS_DRIVER 设为短信服务后才能发送验证码' });
    const row = (await outbox.server.app.db.selectFrom('sms_outbox').select(['mobile', 'content']).where('mobile', '=', mobile).executeTakeFirstOrThrow()) as Row;
    expect(row.content).toBe('【Chidao Survey】您的注册验证码是：••••，10 分钟内有效。');
  });

  it('lets only super admins read the outbox, whatever rules a group holds', async () => {
    const token = (await outbox.loginAdmin()).token;
    const db = outbox.server.app.db;
    const rules = (await db.selectFrom('admin_rule').select('id').where('name', 'in', ['routine', 'routine/smsOutbox', 'routine/smsOutbox/index']).execute()).map((rule) => Number(rule.id));
    expect(rules).toHaveLength(3);
    const group = `Outbox readers ${kind}`;
    expect((await outbox.admin('auth.Group/add', { token, body: { pid: 1, name: group, rules, status: '1' } })).code).toBe(1);
    const groupId = Number(((await db.selectFrom('admin_group').select('id').where('name', '=', group).executeTakeFirstOrThrow()) as Row).id);
    expect((await outbox.admin('auth.Admin/add', { token, body: { username: `reader${kind}`, nickname: 'Reader', password: 'Reader_pass1', group_arr: [groupId], status: '1' } })).code).toBe(1);
    const reader = (await outbox.loginAdmin(`reader${kind}`, 'Reader_pass1')).token;
    for (const query of [{}, { select: 'true' }, { quickSearch: mobile }]) {
      const refused = await outbox.admin('routine.SmsOutbox/index', { token: reader, method: 'GET', query, lang: 'en' });
      expect({ code: refused.code, msg: refused.msg, data: refused.data }).toEqual({ code: 401, msg: 'Only super administrators can read the SMS outbox', data: [] });
    }
    const list = await outbox.admin<{ list: Row[] }>('routine.SmsOutbox/index', { token, method: 'GET', query: { quickSearch: mobile } });
    expect(list.code).toBe(1);
    expect(list.data.list).toEqual([expect.objectContaining({ mobile, template_code: 'user_register', content: '【Chidao Survey】您的注册验证码是：••••，10 分钟内有效。' })]);

    // Nobody edits what was sent, super admins neither.
    const rows = await count(outbox, 'sms_outbox');
    const add = await outbox.admin('routine.SmsOutbox/add', { token, body: { mobile: '13600000009', template_code: 'x', content: 'forged' } });
    expect({ code: add.code, msg: add.msg }).toEqual({ code: 0, msg: 'Sent messages cannot be changed or deleted' });
    const del = await outbox.admin('routine.SmsOutbox/del', { token, method: 'DELETE', query: { ids: [list.data.list[0].id] } });
    expect({ code: del.code, msg: del.msg }).toEqual({ code: 0, msg: 'Sent messages cannot be changed or deleted' });
    expect(await count(outbox, 'sms_outbox')).toBe(rows);
  });
});
