import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { proveSms, solvedCaptcha } from '../support/code-channels.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * `SMS_DRIVER=aliyun`: `POST /api/Sms/send` calls Dysms `SendSms` (RPC style, signature version 1.0) on a
 * fake of that API listening on 127.0.0.1, which checks the signature the way Aliyun documents it.
 */

const KEY_ID = 'LTAI-test-key';
const KEY_SECRET = 'test-secret/+=';

interface Call {
  params: Record<string, string>;
  signatureOk: boolean;
}

/** Aliyun's percent-encoding: RFC 3986 unreserved characters stay, everything else is %XX (upper case). */
function percent(value: string): string {
  return Array.from(Buffer.from(value, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

function expectedSignature(params: Record<string, string>): string {
  const canonical = Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${percent(key)}=${percent(params[key])}`)
    .join('&');
  return createHmac('sha1', `${KEY_SECRET}&`).update(`GET&%2F&${percent(canonical)}`).digest('base64');
}

async function startFakeDysms(): Promise<{ url: string; calls: Call[]; answer: { Code: string; Message: string }; close(): Promise<void> }> {
  const calls: Call[] = [];
  const state = { calls, answer: { Code: 'OK', Message: 'OK' } };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const params = Object.fromEntries(url.searchParams.entries());
    calls.push({ params, signatureOk: request.method === 'GET' && params.Signature === expectedSignature(params) });
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ ...state.answer, RequestId: 'req-1', BizId: 'biz-1' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

describe.each(DATABASES)('SMS through Aliyun Dysms on %s', (kind) => {
  let server: TestServer;
  let dysms: Awaited<ReturnType<typeof startFakeDysms>>;
  let adminToken: string;
  const db = () => server.server.app.db;
  const count = async (table: string) => Number(((await dynamicDb(db()).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string }).n);

  beforeAll(async () => {
    dysms = await startFakeDysms();
    server = await startTestServer(kind, {
      env: {
        SMS_DRIVER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: KEY_ID,
        ALIYUN_SMS_ACCESS_KEY_SECRET: KEY_SECRET,
        ALIYUN_SMS_SIGN_NAME: '测试签名',
        ALIYUN_SMS_ENDPOINT: dysms.url,
        ACCOUNT_VERIFICATION: 'mobile',
      },
    });
    await db().updateTable('sms_template').set({ provider_template: 'SMS_123456' }).where('template_code', '=', 'user_register').execute();
    adminToken = (await server.loginAdmin()).token;
    await proveSms(server, adminToken);
  });

  afterAll(async () => {
    await server?.close();
    await dysms?.close();
  });

  beforeEach(() => {
    dysms.calls.length = 0;
    dysms.answer = { Code: 'OK', Message: 'OK' };
  });

  it('sends a signed SendSms request carrying the code, and the code registers the member', async () => {
    const response = await server.api('Sms/send', { body: { mobile: '13800000001', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) } });
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'SMS sent successfully' });
    expect(dysms.calls).toHaveLength(1);
    const [call] = dysms.calls;
    expect(call.signatureOk).toBe(true);
    expect(call.params).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      AccessKeyId: KEY_ID,
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Format: 'JSON',
      PhoneNumbers: '13800000001',
      SignName: '测试签名',
      TemplateCode: 'SMS_123456',
    });
    expect(call.params.Timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const { code } = JSON.parse(call.params.TemplateParam) as { code: string };
    expect(code).toMatch(/^[2-8A-Z]{4}$/);
    // the real provider got it: nothing went to the local outbox
    expect(await count('sms_outbox')).toBe(0);

    const registered = await server.api('user/checkIn', {
      body: { tab: 'register', registerType: 'mobile', username: 'dysmsuser', password: 'Member_pass1', mobile: '13800000001', captcha: code },
    });
    expect(registered.msg).toBe('Login succeeded!');
  });

  it('reports a refusal of the provider, and the unsent code does not count', async () => {
    dysms.answer = { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'frequency limit' };
    const response = await server.api('Sms/send', { body: { mobile: '13800000002', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) }, lang: 'zh-cn' });
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 0, msg: '短信发送失败，请稍后再试' });
    expect(dysms.calls).toHaveLength(1);
    expect(await db().selectFrom('verification_code').select('id').where('address', '=', '13800000002').execute()).toEqual([]);
    // the failure marks SMS not working, with the provider's reason, until a test gets through again
    const index = await server.admin<{ channels: { channel: string; state: string; detail: string }[] }>('routine.Config/index', { token: adminToken, method: 'GET' });
    expect(index.data.channels.find((channel) => channel.channel === 'mobile')).toMatchObject({ state: 'failing', detail: 'Dysms refused: isv.BUSINESS_LIMIT_CONTROL frequency limit' });
    expect((await server.api('user/checkIn')).data).toMatchObject({ accountVerificationType: [] });
    dysms.answer = { Code: 'OK', Message: 'OK' };
    await proveSms(server, adminToken);
    // then the member can try again at once: the failed send left no code behind
    expect((await server.api('Sms/send', { body: { mobile: '13800000002', template_code: 'user_register', event: 'user_register', ...(await solvedCaptcha(server)) } })).code).toBe(1);
  });

  it('turns email verification off by ACCOUNT_VERIFICATION', async () => {
    const checkIn = await server.api('user/checkIn');
    expect(checkIn.data).toMatchObject({ accountVerificationType: ['mobile'] });
    const users = await count('user');
    const byEmail = await server.api('user/checkIn', {
      body: { tab: 'register', registerType: 'email', username: 'mailuser', password: 'Member_pass1', email: 'mail@example.com', captcha: 'ABCD' },
    });
    expect({ code: byEmail.code, msg: byEmail.msg }).toEqual({ code: 0, msg: 'This verification method is not enabled' });
    expect(await count('user')).toBe(users);
    const mailCode = await server.api('Ems/send', { body: { email: 'mail@example.com', event: 'user_register', captchaId: 'x', captchaInfo: '1,1;350;200' } });
    expect(mailCode.data).toMatchObject({ errorId: 'verificationTypeOff' });
  });
});
