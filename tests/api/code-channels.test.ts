import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeChannelHealth } from '../../src/contract/code-channels.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { proveMail, proveSms, solvedCaptcha } from '../support/code-channels.js';
import { sinkConfig, startMailSink, type MailSink } from '../support/mail-sink.js';
import { SmsSink } from '../support/sms-sink.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Verification-code channels (docs/wire-contract.md#code-channels): a channel is offered only once a message
 * through its current settings arrived; a failed test or code marks it not working; the SMS outbox never
 * says "sent"; a fresh install registers members without a code (register_without_code) and tells the
 * administrator on the dashboard; an SMS code needs the click captcha as a mail code does.
 */

const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('code channels on %s', (kind) => {
  let server: TestServer;
  let outbox: TestServer;
  let sink: MailSink;
  const texts = new SmsSink();
  let token: string;

  const count = async (on: TestServer, table: string) => Number(((await dynamicDb(on.server.app.db).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string }).n);
  const checkIn = async (on: TestServer = server) => (await on.api<{ accountVerificationType: string[]; registerWithoutCode: boolean }>('user/checkIn', { method: 'GET' })).data;
  const channels = async (on: TestServer, adminToken: string) => {
    const index = await on.admin<{ channels: CodeChannelHealth[] }>('routine.Config/index', { token: adminToken, method: 'GET' });
    return Object.fromEntries(index.data.channels.map((channel) => [channel.channel, channel]));
  };
  const dashboard = async () => (await server.admin<{ codeChannels?: { channels: CodeChannelHealth[]; registerWithoutCode: boolean } }>('Dashboard/index', { token, method: 'GET' })).data;
  const setRegisterWithoutCode = async (value: string) => {
    const saved = await server.admin('routine.Config/edit', { token, method: 'POST', body: { register_without_code: value } });
    expect(saved.code).toBe(1);
  };
  const registerBare = async (username: string, extra: Record<string, unknown> = {}, lang: 'en' | 'zh-cn' = 'en') =>
    server.api<{ userInfo: { username: string; email: string; mobile: string; token: string } }>('user/checkIn', { body: { tab: 'register', username, password: PASSWORD, ...extra }, lang });

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startTestServer(kind, { env: { SMTP_CA_FILE: sink.caFile }, sms: texts });
    outbox = await startTestServer(kind, { env: { SMS_DRIVER: 'outbox' } });
    ({ token } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
    await outbox?.close();
    await sink?.close();
  });

  it('on a fresh install offers no channel, lets a member register without a code after the click captcha, and tells the dashboard', async () => {
    expect(await checkIn()).toEqual({ userLoginCaptchaSwitch: false, accountVerificationType: [], registerWithoutCode: true });
    const notice = (await dashboard()).codeChannels;
    expect(notice).toEqual({ registerWithoutCode: true, channels: [expect.objectContaining({ channel: 'email', state: 'notSetUp' }), expect.objectContaining({ channel: 'mobile', state: 'unchecked' })] });

    // no captcha: refused, nobody made, although the member login asks none here (USER_LOGIN_CAPTCHA=false covers the login only)
    const users = await count(server, 'user');
    const refused = await registerBare('nocaptcha', {}, 'zh-cn');
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: '验证码错误！' });
    expect(await count(server, 'user')).toBe(users);

    const registered = await registerBare('freshone', await solvedCaptcha(server));
    expect({ code: registered.code, msg: registered.msg }).toEqual({ code: 1, msg: 'Login succeeded!' });
    expect(registered.data.userInfo).toMatchObject({ username: 'freshone', email: '', mobile: '' });
    const row = await server.server.app.db.selectFrom('user').select(['username', 'email', 'mobile', 'status']).where('username', '=', 'freshone').executeTakeFirstOrThrow();
    expect(row).toEqual({ username: 'freshone', email: '', mobile: '', status: 'enable' });
    // the new member is signed in with the token given
    expect((await server.api('account/profile', { userToken: registered.data.userInfo.token, method: 'GET' })).code).toBe(1);
  });

  it('refuses registration without a code when the setting is off, in both languages, making nobody', async () => {
    await setRegisterWithoutCode('never');
    try {
      expect((await checkIn()).registerWithoutCode).toBe(false);
      const users = await count(server, 'user');
      const en = await registerBare('offone', await solvedCaptcha(server));
      expect({ code: en.code, msg: en.msg }).toEqual({ code: 0, msg: 'Registration needs a verification code, which this site cannot send yet. Please contact the site administrator' });
      const zh = await registerBare('offone', await solvedCaptcha(server), 'zh-cn');
      expect(zh.msg).toBe('注册需要验证码，但本站暂时无法发送验证码。请联系网站管理员');
      expect(await count(server, 'user')).toBe(users);
      expect((await dashboard()).codeChannels?.registerWithoutCode).toBe(false);
    } finally {
      await setRegisterWithoutCode('auto');
    }
  });

  it('marks mail not working when its test fails, and then does not offer it even with those settings saved', async () => {
    // a port nothing listens on: the test mail cannot be delivered
    const broken = { ...sinkConfig({ port: 1 }) };
    const tested = await server.admin('routine.Config/sendTestMail', { token, method: 'POST', body: { ...broken, testMail: 'owner@example.org' } });
    expect(tested.code).toBe(0);
    expect(tested.msg).toMatch(/^Test mail sending failed: /);
    expect((await server.admin('routine.Config/edit', { token, method: 'POST', body: broken })).code).toBe(1);

    const email = (await channels(server, token)).email;
    expect(email).toMatchObject({ state: 'failing', checkedBy: 'test' });
    expect(email.detail).not.toBe('');
    expect(Math.abs(Number(email.checkedTime) - Date.now() / 1000)).toBeLessThan(60);
    expect(await checkIn()).toMatchObject({ accountVerificationType: [], registerWithoutCode: true });

    // a client asking anyway is refused before the captcha is used, and nothing is kept
    const codes = await count(server, 'verification_code');
    const sent = await server.api('Ems/send', { body: { email: 'someone@example.com', event: 'user_register', ...(await solvedCaptcha(server)) } });
    expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg: 'Mail sending service unavailable' });
    expect(await count(server, 'verification_code')).toBe(codes);
    expect((await dashboard()).codeChannels).toBeDefined();
  });

  it('marks mail working once a test mail arrives, offers it, and then needs a code to register', async () => {
    const mails = sink.mails.length;
    await proveMail(server, token, sink);
    expect(sink.mails).toHaveLength(mails + 1);
    expect((await channels(server, token)).email).toMatchObject({ state: 'working', checkedBy: 'test', detail: '' });
    expect(await checkIn()).toMatchObject({ accountVerificationType: ['email'], registerWithoutCode: false });
    expect((await dashboard()).codeChannels).toBeUndefined();

    // while a code can be sent, a registration without one is a registration without its parameters
    const users = await count(server, 'user');
    const bare = await registerBare('needscode', await solvedCaptcha(server));
    expect({ code: bare.code, msg: bare.msg }).toEqual({ code: 0, msg: 'Registration parameter error' });
    expect(await count(server, 'user')).toBe(users);

    // changed settings are unchecked until tested, whatever worked before
    expect((await server.admin('routine.Config/edit', { token, method: 'POST', body: { smtp_sender_mail: 'other@example.com' } })).code).toBe(1);
    expect((await channels(server, token)).email.state).toBe('unchecked');
    expect((await checkIn()).accountVerificationType).toEqual([]);
    // the same values again are the settings that worked
    expect((await server.admin('routine.Config/edit', { token, method: 'POST', body: { smtp_sender_mail: sinkConfig(sink).smtp_sender_mail } })).code).toBe(1);
    expect((await checkIn()).accountVerificationType).toEqual(['email']);
  });

  it('refuses an SMS code without the click captcha, sending and keeping nothing', async () => {
    await proveSms(server, token);
    expect((await checkIn()).accountVerificationType).toEqual(['email', 'mobile']);
    const before = texts.messages.length;
    const codes = await count(server, 'verification_code');
    for (const body of [{}, { captchaId: 'made-up', captchaInfo: '1,1-2,2;350;200' }]) {
      const sent = await server.api('Sms/send', { body: { mobile: '13800138555', template_code: 'user_register', event: 'user_register', ...body }, lang: 'zh-cn' });
      expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg: '验证码错误！' });
    }
    expect(texts.messages).toHaveLength(before);
    expect(await count(server, 'verification_code')).toBe(codes);

    const sent = await server.api('Sms/send', { body: { mobile: '13800138555', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) } });
    expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 1, msg: 'SMS sent successfully' });
    expect(texts.last('13800138555').content).toMatch(/[2-8A-Z]{4}/);
    expect((await channels(server, token)).mobile).toMatchObject({ state: 'working', checkedBy: 'code' });
  });

  it('marks SMS not working when a code fails to go, and stops offering it', async () => {
    texts.failure = 'isv.BUSINESS_LIMIT_CONTROL';
    try {
      const sent = await server.api('Sms/send', { body: { mobile: '13800138556', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) } });
      expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg: 'SMS sending failed, please try again later' });
      expect((await channels(server, token)).mobile).toMatchObject({ state: 'failing', checkedBy: 'code', detail: 'isv.BUSINESS_LIMIT_CONTROL' });
      expect((await checkIn()).accountVerificationType).toEqual(['email']);
      // A failure a visitor can cause on a channel that has worked closes it, and opens nothing: with mail
      // unchecked too (other settings), members may still not register without a code.
      expect((await server.admin('routine.Config/edit', { token, method: 'POST', body: { smtp_sender_mail: 'other@example.com' } })).code).toBe(1);
      expect(await checkIn()).toMatchObject({ accountVerificationType: [], registerWithoutCode: false });
      const users = await count(server, 'user');
      const bare = await registerBare('byfailure', await solvedCaptcha(server));
      expect({ code: bare.code, msg: bare.msg }).toEqual({ code: 0, msg: 'Registration needs a verification code, which this site cannot send yet. Please contact the site administrator' });
      expect(await count(server, 'user')).toBe(users);
      expect((await server.admin('routine.Config/edit', { token, method: 'POST', body: { smtp_sender_mail: sinkConfig(sink).smtp_sender_mail } })).code).toBe(1);
      const test = await server.admin('routine.Config/sendTestSms', { token, method: 'POST', body: { mobile: '13900000000' }, lang: 'zh-cn' });
      expect({ code: test.code, msg: test.msg }).toEqual({ code: 0, msg: '测试短信发送失败：isv.BUSINESS_LIMIT_CONTROL' });
    } finally {
      texts.failure = undefined;
    }
    await proveSms(server, token);
    expect((await checkIn()).accountVerificationType).toEqual(['email', 'mobile']);
  });

  it('never says an SMS was sent through the outbox: members get a message of its own, the test keeps the text and says it was not sent', async () => {
    const outboxToken = (await outbox.loginAdmin()).token;
    expect((await checkIn(outbox)).accountVerificationType).toEqual([]);
    expect((await channels(outbox, outboxToken)).mobile).toMatchObject({ state: 'outbox', checkedTime: null });
    for (const [lang, msg] of [
      ['en', 'This site cannot send SMS codes yet, so no code was sent. Please use another way or contact the site administrator'],
      ['zh-cn', '本站暂时无法发送短信验证码，验证码未发出。请换一种方式或联系网站管理员'],
    ] as const) {
      const sent = await outbox.api('Sms/send', { body: { mobile: '13800138557', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(outbox)) }, lang });
      expect({ code: sent.code, msg: sent.msg }).toEqual({ code: 0, msg });
    }
    expect(await count(outbox, 'verification_code')).toBe(0);
    expect(await count(outbox, 'sms_outbox')).toBe(0);

    const test = await outbox.admin('routine.Config/sendTestSms', { token: outboxToken, method: 'POST', body: { mobile: '13900000001' }, lang: 'en' });
    expect({ code: test.code, msg: test.msg }).toEqual({ code: 0, msg: 'The SMS outbox kept the text in the back office without sending it: set SMS_DRIVER to an SMS service to send codes' });
    const kept = await outbox.server.app.db.selectFrom('sms_outbox').select(['mobile', 'content']).executeTakeFirstOrThrow();
    expect(kept).toEqual({ mobile: '13900000001', content: '[Chidao Survey] Your sign-up code is: ••••, valid for 10 minutes.' });
    expect((await channels(outbox, outboxToken)).mobile.state).toBe('outbox');
    expect((await checkIn(outbox)).registerWithoutCode).toBe(true);
  });

  it('checks the test SMS number, sending nothing to a wrong one', async () => {
    const before = texts.messages.length;
    const bad = await server.admin('routine.Config/sendTestSms', { token, method: 'POST', body: { mobile: '123' }, lang: 'zh-cn' });
    expect({ code: bad.code, msg: bad.msg }).toEqual({ code: 0, msg: '手机号格式错误' });
    expect(texts.messages).toHaveLength(before);
  });
});
