import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import { codeIn, sinkConfig, startMailSink, type MailSink } from '../support/mail-sink.js';
import { SmsSink } from '../support/sms-sink.js';
import { proveMail, proveSms } from '../support/code-channels.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import type { ErrorId } from '../../src/server/errors.js';

/**
 * Member accounts (docs/wire-contract.md#verification-codes, #member-endpoints, #login-and-registration,
 * #sending-codes): codes sent by real mail to an SMTP sink on 127.0.0.1 and by SMS into memory,
 * registration, password retrieval and change, binding a new address, the profile and the overview. Every
 * refusal is checked to leave the database as it was.
 */

const MEMBER_PASSWORD = 'Member_pass1';

describe.each(DATABASES)('member accounts on %s', (kind) => {
  let server: TestServer;
  let sink: MailSink;
  const texts = new SmsSink();
  let adminToken: string;
  let sequence = 0;

  const db = () => server.server.app.db;
  const count = async (table: string) => Number(((await dynamicDb(db()).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string }).n);
  const member = async (column: 'id' | 'username' | 'email' | 'mobile', value: string | number) => db().selectFrom('user').selectAll().where(column, '=', value).executeTakeFirst() as Promise<Record<string, unknown> | undefined>;

  /** A solved click captcha, as a person would click it. */
  async function solvedCaptcha(): Promise<{ captchaId: string; captchaInfo: string }> {
    const captchaId = `0b7c1a2e-0d3f-4a6b-9c8d-${String(++sequence).padStart(12, '0')}`;
    expect((await server.api('common/clickCaptcha', { query: { id: captchaId } })).code).toBe(1);
    const puzzle = await new ClickCaptchaService(db()).puzzleOf(captchaId);
    if (!puzzle) throw new Error('no puzzle');
    const captchaInfo = `${puzzle.targets.map((target) => `${target.x + target.width / 2},${target.y + target.height / 2}`).join('-')};350;200`;
    return { captchaId, captchaInfo };
  }

  async function sendMailCode(email: string, event: string, request: ApiRequest = {}, extra: Record<string, unknown> = {}) {
    return server.api('Ems/send', { ...request, body: { email, event, ...(await solvedCaptcha()), ...extra } });
  }

  /** Sends a code by mail and reads it from the delivered mail. */
  async function mailedCode(email: string, event: string, request: ApiRequest = {}, extra: Record<string, unknown> = {}): Promise<string> {
    const before = sink.mails.length;
    const response = await sendMailCode(email, event, request, extra);
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'Mail sent successfully~' });
    expect(sink.mails).toHaveLength(before + 1);
    const mail = sink.mails[before];
    expect(mail.to).toEqual([email]);
    return codeIn(mail.raw);
  }

  async function smsCode(mobile: string, event: string, request: ApiRequest = {}): Promise<string> {
    const response = await server.api('Sms/send', { ...request, body: { mobile, template_code: event, event, ...(await solvedCaptcha()) } });
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'SMS sent successfully' });
    return codeIn(texts.last(mobile).content);
  }

  async function loginMember(username: string, password = MEMBER_PASSWORD): Promise<string> {
    const response = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username, password } });
    expect(response.msg).toBe('Login succeeded!');
    return response.data.userInfo.token;
  }

  async function makeMember(username: string, email: string, mobile: string): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    const row = await db()
      .insertInto('user')
      .values({ group_id: 1, username, nickname: username, email, mobile, password: await hashPassword(MEMBER_PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number((row as { id: number }).id);
  }

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startTestServer(kind, { env: { SMTP_CA_FILE: sink.caFile }, sms: texts });
    ({ token: adminToken } = await server.loginAdmin());
    // the channels are proven as an administrator proves them: a test SMS, and a test mail through the
    // settings configureMail saves (not saved yet: a fresh install has no mail settings)
    await proveSms(server, adminToken);
    await proveMail(server, adminToken, sink, { save: false });
  });

  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  // Each test starts with no recent codes: earlier tests' codes are moved two hours back in time.
  beforeEach(async () => {
    await db().updateTable('verification_code').set((eb) => ({ create_time: eb('create_time', '-', 7200) })).execute();
  });

  async function configureMail(): Promise<void> {
    const values: Record<string, string> = { ...sinkConfig(sink), site_name: 'Panel One' };
    for (const [name, value] of Object.entries(values)) await db().updateTable('config').set({ value }).where('name', '=', name).execute();
  }

  async function unconfigureMail(): Promise<void> {
    await db().updateTable('config').set({ value: '' }).where('name', '=', 'smtp_server').execute();
    server.server.app.config.invalidate();
  }

  it('reports only the verification types whose codes can be delivered, on GET checkIn and GET profile', async () => {
    // No mail settings yet: only SMS, whose test message arrived, can deliver a code.
    const checkIn = await server.api('user/checkIn');
    expect(checkIn.data).toEqual({ userLoginCaptchaSwitch: false, accountVerificationType: ['mobile'], registerWithoutCode: false });
    await makeMember('profiler', 'profiler@example.com', '13700000001');
    const token = await loginMember('profiler');
    expect((await server.api('account/profile', { userToken: token })).data).toEqual({ accountVerificationType: ['mobile'] });
    await configureMail();
    expect((await server.api('user/checkIn')).data).toEqual({ userLoginCaptchaSwitch: false, accountVerificationType: ['email', 'mobile'], registerWithoutCode: false });
    expect((await server.api('account/profile', { userToken: token })).data).toEqual({ accountVerificationType: ['email', 'mobile'] });
    await unconfigureMail();
  });

  it('refuses the mail method while mail is not configured, before the captcha or a code is used, writing nothing', async () => {
    const captcha = await solvedCaptcha();
    const response = await server.api('Ems/send', { body: { email: 'new@example.com', event: 'user_register', ...captcha }, lang: 'zh-cn' });
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 0, msg: '邮件发送服务不可用' });
    expect(await count('verification_code')).toBe(0);
    // the solved puzzle was not looked at: it still stands
    expect(await new ClickCaptchaService(db()).puzzleOf(captcha.captchaId)).toBeDefined();

    const users = await count('user');
    const register = await server.api('user/checkIn', {
      body: { tab: 'register', registerType: 'email', username: 'mailless', password: MEMBER_PASSWORD, email: 'mailless@example.com', captcha: 'ABCD' },
      lang: 'en',
    });
    expect({ code: register.code, msg: register.msg }).toEqual({ code: 0, msg: 'Mail sending service unavailable' });
    expect(await count('user')).toBe(users);
    const retrieve = await server.api('account/retrievePassword', { body: { type: 'email', account: 'profiler@example.com', captcha: 'ABCD', password: MEMBER_PASSWORD }, lang: 'zh-cn' });
    expect(retrieve.msg).toBe('邮件发送服务不可用');
    await configureMail();
  });

  it('mails a register code through SMTP, stores only its hash, and registers with it once', async () => {
    const code = await mailedCode('new@example.com', 'user_register');
    const raw = sink.mails.at(-1)?.raw ?? '';
    expect(raw).toContain('Subject: Registration-Panel One');
    const rows = (await db().selectFrom('verification_code').selectAll().where('address', '=', 'new@example.com').execute()) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(Number(rows[0].expire_time) - Number(rows[0].create_time)).toBe(600);

    const body = { tab: 'register', registerType: 'email', username: 'newbie', password: MEMBER_PASSWORD, email: 'new@example.com' };
    const wrong = await server.api('user/checkIn', { body: { ...body, captcha: code === 'AAAA' ? 'BBBB' : 'AAAA' } });
    expect({ code: wrong.code, msg: wrong.msg }).toEqual({ code: 0, msg: 'Please enter the correct verification code' });
    expect(await member('username', 'newbie')).toBeUndefined();

    const registered = await server.api<{ userInfo: Record<string, unknown>; routePath: string }>('user/checkIn', { body: { ...body, captcha: code.toLowerCase() } });
    expect(registered.msg).toBe('Login succeeded!');
    expect(registered.data.routePath).toBe('/user');
    expect(registered.data.userInfo).toMatchObject({ username: 'newbie', nickname: 'newbie', email: 'new@example.com', mobile: '', refresh_token: '' });
    // the answered token is a live session
    expect((await server.api('account/profile', { userToken: String(registered.data.userInfo.token) })).code).toBe(1);
    const stored = await member('username', 'newbie');
    expect(stored).toMatchObject({ group_id: 1, status: 'enable', email: 'new@example.com' });

    // the code is used up: a second registration with it is refused
    const again = await server.api('user/checkIn', { body: { ...body, username: 'newbie2', email: 'new@example.com', captcha: code } });
    expect(again.code).toBe(0);
    expect(await member('username', 'newbie2')).toBeUndefined();
  });

  it('refuses bad mail code requests with translated messages, sending and storing nothing', async () => {
    const mailsBefore = sink.mails.length;
    const codesBefore = await count('verification_code');
    const refusal = async (body: Record<string, unknown>, lang: 'en' | 'zh-cn' = 'en', code = 0) => {
      const response = await server.api('Ems/send', { body, lang });
      expect(response.code).toBe(code);
      return response.msg;
    };
    expect(await refusal({ email: 'not-an-email', event: 'user_register', ...(await solvedCaptcha()) })).toBe('Email format error');
    expect(await refusal({ email: 'not-an-email', event: 'user_register', ...(await solvedCaptcha()) }, 'zh-cn')).toBe('邮箱格式错误');
    expect(await refusal({ email: 'x@example.com', event: 'hack', ...(await solvedCaptcha()) })).toBe('Parameter error');
    expect(await refusal({ email: 'x@example.com', event: 'user_register' })).toBe('Captcha error');
    expect(await refusal({ email: 'x@example.com', event: 'user_register', captchaId: 'nope', captchaInfo: '1,1-2,2;350;200' })).toBe('Captcha error');
    expect(await refusal({ email: 'new@example.com', event: 'user_register', ...(await solvedCaptcha()) })).toBe('Email has been registered, please log in directly');
    // verifying an address needs a login
    expect(await refusal({ email: 'new@example.com', event: 'user_email_verify', ...(await solvedCaptcha()) }, 'en', 303)).toBe('Please login first');
    expect(sink.mails).toHaveLength(mailsBefore);
    expect(await count('verification_code')).toBe(codesBefore);
  });

  it('limits codes: one per minute per address and event, ten per address and thirty per IP an hour', async () => {
    await mailedCode('limit@example.com', 'user_register');
    const again = await sendMailCode('limit@example.com', 'user_register', { lang: 'zh-cn' });
    expect({ code: again.code, msg: again.msg }).toEqual({ code: 0, msg: '频繁发送验证码，请稍后再试' });
    // minutes pass between requests, but the hour does not
    const age = () => db().updateTable('verification_code').set((eb) => ({ create_time: eb('create_time', '-', 61) })).execute();
    for (let index = 1; index < 10; index += 1) {
      await age();
      await mailedCode('limit@example.com', 'user_register');
    }
    await age();
    const codesBefore = await count('verification_code');
    const eleventh = await sendMailCode('limit@example.com', 'user_register');
    expect({ code: eleventh.code, msg: eleventh.msg }).toEqual({ code: 0, msg: 'Too many verification codes requested, please try again in an hour' });
    expect(await count('verification_code')).toBe(codesBefore);

    // the same IP asking for other addresses: 30 an hour in all
    for (let index = 10; index < 30; index += 1) await smsCode(`1390000${String(index).padStart(4, '0')}`, 'user_register');
    const outboxBefore = texts.messages.length;
    const overIp = await server.api('Sms/send', { body: { mobile: '13900009999', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha()) } });
    expect({ code: overIp.code, msg: overIp.msg }).toEqual({ code: 0, msg: 'Too many verification codes requested, please try again in an hour' });
    expect(texts.messages).toHaveLength(outboxBefore);
  });

  it('keeps the limits under simultaneous requests', async () => {
    const outboxBefore = texts.messages.length;
    const send = async (mobile: string) => server.api('Sms/send', { body: { mobile, template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha()) } });
    const same = await Promise.all(Array.from({ length: 5 }, () => send('13300000000')));
    expect(same.filter((answer) => answer.code === 1).length).toBeLessThanOrEqual(1);
    await db().updateTable('verification_code').set((eb) => ({ create_time: eb('create_time', '-', 7200) })).execute();

    const outboxMiddle = texts.messages.length;
    const many = await Promise.all(Array.from({ length: 40 }, (_, index) => send(`1330000${String(index + 1).padStart(4, '0')}`)));
    const sent = many.filter((answer) => answer.code === 1).length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(30);
    for (const answer of many.filter((one) => one.code !== 1)) expect(answer.msg).toBe('Too many verification codes requested, please try again in an hour');
    expect(texts.messages).toHaveLength(outboxMiddle + sent);
    expect(outboxMiddle - outboxBefore).toBe(same.filter((answer) => answer.code === 1).length);
  });

  it('refuses an expired code and a code after five wrong guesses', async () => {
    const code = await smsCode('13600000001', 'user_register');
    await db().updateTable('verification_code').set({ expire_time: 1 }).where('address', '=', '13600000001').execute();
    const body = { tab: 'register', registerType: 'mobile', username: 'mobileman', password: MEMBER_PASSWORD, mobile: '13600000001' };
    const expired = await server.api('user/checkIn', { body: { ...body, captcha: code } });
    expect({ code: expired.code, msg: expired.msg }).toEqual({ code: 0, msg: 'Please enter the correct verification code' });
    expect(await member('username', 'mobileman')).toBeUndefined();

    await db().updateTable('verification_code').set((eb) => ({ create_time: eb('create_time', '-', 7200) })).execute();
    const fresh = await smsCode('13600000001', 'user_register');
    const wrong = fresh === '2222' ? '3333' : '2222';
    for (let index = 0; index < 5; index += 1) expect((await server.api('user/checkIn', { body: { ...body, captcha: wrong } })).code).toBe(0);
    expect((await server.api('user/checkIn', { body: { ...body, captcha: fresh } })).code).toBe(0);
    expect(await member('username', 'mobileman')).toBeUndefined();
  });

  it('sends SMS codes through the SMS driver, and registers by mobile', async () => {
    const code = await smsCode('13600000002', 'user_register');
    expect(texts.last('13600000002')).toMatchObject({ mobile: '13600000002', templateCode: 'user_register', params: { code } });
    // the back office menu holds the outbox (list and export only) and both template screens
    const menu = (await db().selectFrom('admin_rule').select(['id', 'title']).where('type', '=', 'menu').where('title', 'in', ['短信发件箱', '邮件模板', '短信模板']).execute()) as { id: number; title: string }[];
    expect(menu.map((row) => row.title).sort()).toEqual(['短信发件箱', '短信模板', '邮件模板'].sort());
    const outboxButtons = (await db().selectFrom('admin_rule').select('name').where('pid', '=', menu.find((row) => row.title === '短信发件箱')?.id ?? 0).execute()) as { name: string }[];
    expect(outboxButtons.map((row) => row.name).sort()).toEqual([expect.stringMatching(/\/export$/), expect.stringMatching(/\/index$/)]);
    const rows = texts.messages.length;

    const unknown = await server.api('Sms/send', { body: { mobile: '13600000003', template_code: 'nope', event: 'user_register', ...(await solvedCaptcha()) } });
    expect({ code: unknown.code, msg: unknown.msg }).toEqual({ code: 0, msg: 'SMS template does not exist' });
    const badMobile = await server.api('Sms/send', { body: { mobile: '12345', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha()) }, lang: 'zh-cn' });
    expect({ code: badMobile.code, msg: badMobile.msg }).toEqual({ code: 0, msg: '手机号格式错误' });
    expect(texts.messages).toHaveLength(rows);

    const registered = await server.api<{ userInfo: Record<string, unknown> }>('user/checkIn', {
      body: { tab: 'register', registerType: 'mobile', username: 'mobilemate', password: MEMBER_PASSWORD, mobile: '13600000002', captcha: code },
    });
    expect(registered.msg).toBe('Login succeeded!');
    expect(registered.data.userInfo).toMatchObject({ username: 'mobilemate', mobile: '13600000002', email: '' });
    expect(await loginMember('13600000002')).not.toBe('');
  });

  it('uses the templates edited in the back office', async () => {
    const list = await server.admin<{ list: { id: number; event: string }[] }>('routine.MailTemplate/index', { token: adminToken });
    const template = list.data.list.find((row) => row.event === 'user_register');
    expect(template).toBeDefined();
    const edit = await server.admin('routine.MailTemplate/edit', {
      token: adminToken,
      body: { id: template?.id, event: 'user_register', subject: 'Welcome to {site_name}', content: 'Hello! Your verification code is: {code}', subject_en: 'Welcome to {site_name}', content_en: 'Hello! Your verification code is: {code}', status: '1' },
    });
    expect(edit.code).toBe(1);
    const code = await mailedCode('templated@example.com', 'user_register');
    const raw = sink.mails.at(-1)?.raw ?? '';
    expect(raw).toContain('Subject: Welcome to Panel One');
    expect(raw).toContain(`Hello! Your verification code is: ${code}`);
  });

  it('retrieves a password by a mailed code; a wrong code changes nothing', async () => {
    const id = await makeMember('forgetful', 'forgetful@example.com', '13700000002');
    const before = await member('id', id);
    const code = await mailedCode('forgetful@example.com', 'user_retrieve_pwd');
    const wrong = await server.api('account/retrievePassword', { body: { type: 'email', account: 'forgetful@example.com', captcha: code === '2345' ? '3456' : '2345', password: 'Fresh_pass2' } });
    expect({ code: wrong.code, msg: wrong.msg }).toEqual({ code: 0, msg: 'Please enter the correct verification code' });
    // an address no member holds answers as a wrong code does
    const missing = await server.api('account/retrievePassword', { body: { type: 'email', account: 'ghost@example.com', captcha: code, password: 'Fresh_pass2' } });
    expect({ code: missing.code, msg: missing.msg, data: missing.data }).toEqual({ code: wrong.code, msg: wrong.msg, data: wrong.data });
    const weak = await server.api('account/retrievePassword', { body: { type: 'email', account: 'forgetful@example.com', captcha: code, password: 'ab' } });
    expect(weak.msg).toBe('Please enter the correct password');
    expect(await member('id', id)).toEqual(before);

    const done = await server.api('account/retrievePassword', { body: { type: 'email', account: 'forgetful@example.com', captcha: code, password: 'Fresh_pass2' } });
    expect({ code: done.code, msg: done.msg }).toEqual({ code: 1, msg: 'Password has been changed~' });
    expect(await loginMember('forgetful', 'Fresh_pass2')).not.toBe('');
    expect((await server.api('user/checkIn', { body: { tab: 'login', username: 'forgetful', password: MEMBER_PASSWORD } })).msg).toBe('Incorrect account or password');
  });

  it('a retrieval code for an address no member holds is answered as for a member, sent nowhere, and resets nothing', async () => {
    await configureMail();
    await makeMember('rememberer', 'rememberer@example.com', '13700000011');
    const answer = (response: { code: number; msg: string; data: unknown }) => ({ code: response.code, msg: response.msg, data: response.data });
    const mailsBefore = sink.mails.length;
    const known = await sendMailCode('rememberer@example.com', 'user_retrieve_pwd');
    const unknown = await sendMailCode('stranger@example.com', 'user_retrieve_pwd');
    expect(answer(unknown)).toEqual(answer(known));
    expect(answer(known)).toEqual({ code: 1, msg: 'Mail sent successfully~', data: null });
    expect(sink.mails.slice(mailsBefore).map((mail) => mail.to)).toEqual([['rememberer@example.com']]);
    // asking again within the minute is refused alike
    const knownAgain = await sendMailCode('rememberer@example.com', 'user_retrieve_pwd', { lang: 'zh-cn' });
    const unknownAgain = await sendMailCode('stranger@example.com', 'user_retrieve_pwd', { lang: 'zh-cn' });
    expect(knownAgain.code).toBe(0);
    expect(answer(unknownAgain)).toEqual(answer(knownAgain));

    const textsBefore = texts.messages.length;
    const sms = async (mobile: string) => server.api('Sms/send', { body: { mobile, template_code: 'user_retrieve_pwd', event: 'user_retrieve_pwd', ...(await solvedCaptcha()) } });
    const knownSms = await sms('13700000011');
    const unknownSms = await sms('13700000012');
    expect(answer(knownSms)).toEqual({ code: 1, msg: 'SMS sent successfully', data: null });
    expect(answer(unknownSms)).toEqual(answer(knownSms));
    expect(texts.messages.slice(textsBefore).map((text) => text.mobile)).toEqual(['13700000011']);
    const retrieve = (account: string) => server.api('account/retrievePassword', { body: { type: 'mobile', account, captcha: 'ABCD', password: 'Fresh_pass2' } });
    expect(answer(await retrieve('13700000012'))).toEqual(answer(await retrieve('13700000011')));
  });

  it('verifying an address answers alike whether another member holds it or nobody does', async () => {
    await makeMember('verifier', '', '13700000021');
    await makeMember('bystander', '', '13700000022');
    const token = await loginMember('verifier');
    const verify = async (mobile: string) => server.api('Sms/send', { userToken: token, body: { mobile, template_code: 'user_mobile_verify', event: 'user_mobile_verify', ...(await solvedCaptcha()) } });
    const held = await verify('13700000022');
    const free = await verify('13700000023');
    expect({ code: held.code, msg: held.msg }).toEqual({ code: 0, msg: 'You can only verify your own account' });
    expect({ code: free.code, msg: free.msg, data: free.data }).toEqual({ code: held.code, msg: held.msg, data: held.data });
  });

  it('changes the password with the old one, and ends every session of the member', async () => {
    const id = await makeMember('changer', 'changer@example.com', '13700000003');
    const first = await loginMember('changer');
    const second = await loginMember('changer');
    const before = await member('id', id);
    const wrong = await server.api('account/changePassword', { userToken: first, body: { oldPassword: 'Not_mine1', newPassword: 'Next_pass3' }, lang: 'zh-cn' });
    expect({ code: wrong.code, msg: wrong.msg }).toEqual({ code: 0, msg: '旧密码错误' });
    expect(await member('id', id)).toEqual(before);

    const done = await server.api('account/changePassword', { userToken: first, body: { oldPassword: MEMBER_PASSWORD, newPassword: 'Next_pass3' } });
    expect({ code: done.code, msg: done.msg }).toEqual({ code: 1, msg: 'Password has been changed, please login again~' });
    for (const token of [first, second]) expect((await server.api('account/profile', { userToken: token })).code).toBe(303);
    expect(await loginMember('changer', 'Next_pass3')).not.toBe('');
  });

  it('binds a new email only after proving the old one, with a code sent to the new one', async () => {
    const id = await makeMember('binder', 'binder@example.com', '13700000004');
    const token = await loginMember('binder');
    const newCode = await mailedCode('rebound@example.com', 'user_change_email', { userToken: token });
    const unproven = await server.api('account/changeBind', { userToken: token, body: { type: 'email', email: 'rebound@example.com', captcha: newCode, accountVerificationToken: '' } });
    expect({ code: unproven.code, msg: unproven.msg }).toEqual({ code: 0, msg: 'You need to verify your account before modifying the binding information' });
    expect((await member('id', id))?.email).toBe('binder@example.com');

    // proving the current address needs the password too
    const badPassword = await sendMailCode('binder@example.com', 'user_email_verify', { userToken: token }, { password: 'Not_mine1' });
    expect({ code: badPassword.code, msg: badPassword.msg }).toEqual({ code: 0, msg: 'Password error' });
    const verifyCode = await mailedCode('binder@example.com', 'user_email_verify', { userToken: token }, { password: MEMBER_PASSWORD });
    const verified = await server.api<{ type: string; accountVerificationToken: string }>('account/verification', { userToken: token, body: { type: 'email', captcha: verifyCode } });
    expect(verified.code).toBe(1);
    expect(verified.data.type).toBe('email');
    const pass = verified.data.accountVerificationToken;

    const taken = await server.api('account/changeBind', { userToken: token, body: { type: 'email', email: 'new@example.com', captcha: newCode, accountVerificationToken: pass } });
    expect(taken.data).toMatchObject({ errorId: 'emailOccupied' });
    const done = await server.api('account/changeBind', { userToken: token, body: { type: 'email', email: 'rebound@example.com', captcha: newCode, accountVerificationToken: pass } });
    expect(done.code).toBe(1);
    expect((await member('id', id))?.email).toBe('rebound@example.com');
    // the pass token was single use
    const reuse = await server.api('account/changeBind', { userToken: token, body: { type: 'email', email: 'other@example.com', captcha: newCode, accountVerificationToken: pass } });
    expect(reuse.msg).toBe('You need to verify your account before modifying the binding information');
  });

  it('binds a first mobile with the password and an SMS code', async () => {
    const id = await makeMember('nomobile', 'nomobile@example.com', '');
    const token = await loginMember('nomobile');
    const code = await smsCode('13500000001', 'user_change_mobile', { userToken: token });
    const wrong = await server.api('account/changeBind', { userToken: token, body: { type: 'mobile', mobile: '13500000001', captcha: code, password: 'Not_mine1' } });
    expect(wrong.data).toMatchObject({ errorId: 'passwordError' });
    expect((await member('id', id))?.mobile).toBe('');
    const done = await server.api('account/changeBind', { userToken: token, body: { type: 'mobile', mobile: '13500000001', captcha: code, password: MEMBER_PASSWORD } });
    expect(done.code).toBe(1);
    expect((await member('id', id))?.mobile).toBe('13500000001');
  });

  it('proves a bound mobile by SMS, then moves to a new mobile, and retrieves the password by mobile', async () => {
    const id = await makeMember('mover', 'mover@example.com', '13500000002');
    const token = await loginMember('mover');
    // another member's mobile cannot be "verified" by this one
    const foreign = await server.api('Sms/send', { userToken: token, body: { mobile: '13700000001', template_code: 'user_mobile_verify', event: 'user_mobile_verify', ...(await solvedCaptcha()) } });
    expect(foreign.msg).toBe('You can only verify your own account');
    const verifyCode = await smsCode('13500000002', 'user_mobile_verify', { userToken: token });
    const wrong = await server.api('account/verification', { userToken: token, body: { type: 'mobile', captcha: verifyCode === '2345' ? '3456' : '2345' } });
    expect({ code: wrong.code, msg: wrong.msg }).toEqual({ code: 0, msg: 'Please enter the correct verification code' });
    const verified = await server.api<{ type: string; accountVerificationToken: string }>('account/verification', { userToken: token, body: { type: 'mobile', captcha: verifyCode } });
    expect(verified.data.type).toBe('mobile');
    const newCode = await smsCode('13500000003', 'user_change_mobile', { userToken: token });
    const done = await server.api('account/changeBind', { userToken: token, body: { type: 'mobile', mobile: '13500000003', captcha: newCode, accountVerificationToken: verified.data.accountVerificationToken } });
    expect(done.code).toBe(1);
    expect((await member('id', id))?.mobile).toBe('13500000003');

    const resetCode = await smsCode('13500000003', 'user_retrieve_pwd');
    const reset = await server.api('account/retrievePassword', { body: { type: 'mobile', account: '13500000003', captcha: resetCode, password: 'Mobile_pass4' } });
    expect(reset.msg).toBe('Password has been changed~');
    expect(await loginMember('13500000003', 'Mobile_pass4')).not.toBe('');
    // the reset ended the session that knew the old password
    expect((await server.api('account/profile', { userToken: token })).code).toBe(303);
  });

  it('lets one of two simultaneous uses of a code through', async () => {
    const code = await smsCode('13500000004', 'user_register');
    const body = (username: string) => ({ tab: 'register', registerType: 'mobile', username, password: MEMBER_PASSWORD, mobile: '13500000004', captcha: code });
    const answers = await Promise.all([server.api('user/checkIn', { body: body('racer_a') }), server.api('user/checkIn', { body: body('racer_b') })]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, 1]);
    expect(await db().selectFrom('user').select('username').where('mobile', '=', '13500000004').execute()).toHaveLength(1);
  });

  it('saves the profile fields and refuses bad ones on their field', async () => {
    const id = await makeMember('painter', 'painter@example.com', '13700000005');
    const token = await loginMember('painter');
    const before = await member('id', id);
    const refuse = async (body: Record<string, unknown>, msg: string, field: string, errorId: ErrorId) => {
      const response = await server.api('account/profile', { userToken: token, body: { id, username: 'painter', nickname: 'Painter', ...body } });
      expect({ code: response.code, msg: response.msg, data: response.data }).toEqual({ code: 0, msg, data: { field, errorId } });
    };
    await refuse({ nickname: 'Bad<script>' }, 'Nickname may only hold Chinese characters, letters, digits, _ and -', 'nickname', 'fieldInvalid');
    await refuse({ username: 'newbie' }, 'Username already exists', 'username', 'alreadyExists');
    await refuse({ username: '1bad' }, 'Please enter the correct username', 'username', 'validation');
    await refuse({ birthday: '2001-02-30' }, 'Please enter a valid date', 'birthday', 'fieldInvalid');
    await refuse({ avatar: 'javascript:alert(1)' }, 'Please upload a valid avatar', 'avatar', 'fieldInvalid');
    expect(await member('id', id)).toEqual(before);

    const saved = await server.api('account/profile', {
      userToken: token,
      body: { id, username: 'artist', nickname: '画家-Art_1', avatar: '/storage/avatar/20260101/a.png', gender: 1, birthday: '1990-05-06', motto: 'Paint daily', money: '999.00', score: 99 },
    });
    expect({ code: saved.code, msg: saved.msg }).toEqual({ code: 1, msg: 'Data updated successfully~' });
    expect(await member('id', id)).toMatchObject({ username: 'artist', nickname: '画家-Art_1', avatar: '/storage/avatar/20260101/a.png', gender: 1, birthday: '1990-05-06', motto: 'Paint daily' });
    // money and score are not the member's to set
    expect(Number((await member('id', id))?.money)).toBe(0);
    expect(Number((await member('id', id))?.score)).toBe(0);
  });

  it('answers the overview: seven days of score and money changes', async () => {
    const id = await makeMember('earner', 'earner@example.com', '13700000006');
    expect((await server.admin('user.MoneyLog/add', { token: adminToken, body: { user_id: id, money: '12.50', memo: 'bonus' } })).code).toBe(1);
    expect((await server.admin('user.MoneyLog/add', { token: adminToken, body: { user_id: id, money: '-2.25', memo: 'fee' } })).code).toBe(1);
    expect((await server.admin('user.ScoreLog/add', { token: adminToken, body: { user_id: id, score: 7, memo: 'points' } })).code).toBe(1);
    const response = await server.api<{ days: string[]; score: number[]; money: string[] }>('account/overview', { userToken: await loginMember('earner') });
    expect(response.code).toBe(1);
    expect(response.data.days).toHaveLength(7);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    expect(response.data.days.at(-1)).toBe(today);
    expect(response.data.score).toEqual([0, 0, 0, 0, 0, 0, 7]);
    expect(response.data.money).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '10.25']);
  });
});
