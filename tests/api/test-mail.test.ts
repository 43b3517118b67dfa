import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * `routine.Config/sendTestMail` (docs/wire-contract.md#site-configuration) against real SMTP servers on 127.0.0.1: one speaking
 * TLS from the start (`SSL`), one offering STARTTLS (`TLS`), one offering no encryption at all. Their
 * certificate is trusted through `SMTP_CA_FILE`, as an internal CA would be.
 */

const MAIL_USER = 'mailer@example.com';
const MAIL_PASS = 'mail-secret';

interface Delivery {
  from: string;
  to: string[];
  secure: boolean;
  raw: string;
}

interface MailServer {
  port: number;
  deliveries: Delivery[];
  logins: { user: string; secure: boolean }[];
  close(): Promise<void>;
}

async function startMailServer(mode: 'SSL' | 'STARTTLS' | 'plain', tls: { key: string; cert: string }): Promise<MailServer> {
  const deliveries: Delivery[] = [];
  const logins: MailServer['logins'] = [];
  const smtp = new SMTPServer({
    secure: mode === 'SSL',
    key: tls.key,
    cert: tls.cert,
    disabledCommands: mode === 'plain' ? ['STARTTLS'] : [],
    // so a client that would log in without encryption can be caught doing it
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? '', secure: session.secure });
      if (auth.username === MAIL_USER && auth.password === MAIL_PASS) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        deliveries.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          secure: session.secure,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return { port, deliveries, logins, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

describe('routine.Config/sendTestMail', () => {
  let server: TestServer;
  let token: string;
  let certDir: string;
  const mail: Partial<Record<'SSL' | 'STARTTLS' | 'plain', MailServer>> = {};

  const call = (body: Record<string, unknown>, request: ApiRequest = {}) => server.admin('routine.Config/sendTestMail', { token, method: 'POST', body, ...request });
  const stored = async (name: string) => ((await server.server.app.db.selectFrom('config').select('value').where('name', '=', name).executeTakeFirst()) as { value: string }).value;
  const settings = (mode: 'SSL' | 'STARTTLS' | 'plain', extra: Record<string, unknown> = {}) => ({
    smtp_server: '127.0.0.1',
    smtp_port: String(mail[mode]?.port),
    smtp_user: MAIL_USER,
    smtp_pass: MAIL_PASS,
    smtp_verification: mode === 'SSL' ? 'SSL' : 'TLS',
    smtp_sender_mail: 'panel@example.com',
    testMail: 'owner@example.org',
    ...extra,
  });
  const delivered = () => Object.values(mail).reduce((total, one) => total + one.deliveries.length, 0);

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
    });
    certDir = mkdtempSync(join(tmpdir(), 'chidao-smtp-ca-'));
    writeFileSync(join(certDir, 'ca.pem'), pems.cert);
    const tls = { key: pems.private, cert: pems.cert };
    [mail.SSL, mail.STARTTLS, mail.plain] = await Promise.all([startMailServer('SSL', tls), startMailServer('STARTTLS', tls), startMailServer('plain', tls)]);
    server = await startTestServer('sqlite', { env: { SMTP_CA_FILE: join(certDir, 'ca.pem') } });
    ({ token } = await server.loginAdmin());
    await server.admin('routine.Config/edit', { token, method: 'POST', body: { site_name: 'Panel One' } });
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all(Object.values(mail).map((one) => one.close()));
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it('sends over SSL with the settings as typed, without saving them', async () => {
    const before = await stored('smtp_server');
    const response = await call(settings('SSL'));
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'Test mail sent successfully' });
    const [delivery] = mail.SSL?.deliveries ?? [];
    expect(delivery).toMatchObject({ from: 'panel@example.com', to: ['owner@example.org'], secure: true });
    expect(delivery.raw).toContain('Subject: Test mail from Panel One');
    expect(delivery.raw).toContain('sent from Panel One to test its mail settings');
    expect(mail.SSL?.logins).toEqual([{ user: MAIL_USER, secure: true }]);
    expect(await stored('smtp_server')).toBe(before);
  });

  it('sends over STARTTLS, using the stored password when the field is left empty', async () => {
    await server.admin('routine.Config/edit', { token, method: 'POST', body: { smtp_pass: MAIL_PASS } });
    const response = await call(settings('STARTTLS', { smtp_pass: '' }), { lang: 'zh-cn' });
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: '测试邮件发送成功~' });
    expect(mail.STARTTLS?.deliveries).toHaveLength(1);
    expect(mail.STARTTLS?.deliveries[0].secure).toBe(true);
    expect(mail.STARTTLS?.logins).toEqual([{ user: MAIL_USER, secure: true }]);
  });

  it('never falls back to plain text when TLS was asked for and the server offers none', async () => {
    const response = await call(settings('plain'));
    expect(response.code).toBe(0);
    expect(response.msg).toMatch(/^Test mail sending failed: .*STARTTLS/);
    expect(mail.plain?.logins).toEqual([]);
    expect(mail.plain?.deliveries).toEqual([]);
  });

  it('reports what the mail server refused, in the admin language', async () => {
    const count = delivered();
    const wrong = await call(settings('SSL', { smtp_pass: 'not-the-password' }), { lang: 'zh-cn' });
    expect(wrong.code).toBe(0);
    expect(wrong.msg).toMatch(/^测试邮件发送失败：.*Invalid username or password/);
    // no server listens there: the connection is refused
    const closed = await call(settings('SSL', { smtp_port: '1' }));
    expect(closed.msg).toMatch(/^Test mail sending failed: .*ECONNREFUSED/);
    expect(delivered()).toBe(count);
  });

  it('checks every value before connecting, on the field that is wrong', async () => {
    const count = delivered();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ testMail: 'not-an-address' }, 'testMail', 'Please enter the correct email address'],
      [{ testMail: undefined }, 'testMail', 'Please enter the correct email address'],
      [{ smtp_server: '' }, 'smtp_server', 'SMTP server cannot be empty'],
      [{ smtp_server: 'mail server;rm -rf' }, 'smtp_server', 'SMTP server has an invalid format'],
      [{ smtp_port: '70000' }, 'smtp_port', 'SMTP port has an invalid format'],
      [{ smtp_port: '25a' }, 'smtp_port', 'SMTP port has an invalid format'],
      [{ smtp_verification: 'NONE' }, 'smtp_verification', 'SMTP verification has an invalid format'],
      [{ smtp_sender_mail: 'panel' }, 'smtp_sender_mail', 'Please enter the correct email address'],
      [{ smtp_user: { nested: true } }, 'smtp_user', 'SMTP username has an invalid format'],
    ];
    for (const [change, field, msg] of cases) {
      const response = await call(settings('SSL', change));
      expect({ code: response.code, msg: response.msg, data: response.data }, JSON.stringify(change)).toEqual({ code: 0, msg, data: { field, errorId: 'validation' } });
    }
    const chinese = await call(settings('SSL', { smtp_server: '' }), { lang: 'zh-cn' });
    expect(chinese.msg).toBe('SMTP 服务器不能为空');
    expect((await server.admin('routine.Config/sendTestMail', { token })).code).toBe(0);
    expect(delivered()).toBe(count);
  });

  it('is for admins holding its node, which a super admin grants', async () => {
    const rules = (await server.server.app.db.selectFrom('admin_rule').select('id').where('name', 'like', 'routine%').where('name', '<>', 'routine/config/sendTestMail').execute()) as { id: number }[];
    expect((await server.admin('auth.Group/add', { token, method: 'POST', body: { pid: 1, name: 'Config keepers', rules: rules.map((rule) => Number(rule.id)), status: '1' } })).code).toBe(1);
    const group = (await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Config keepers').executeTakeFirstOrThrow()) as { id: number };
    const created = await server.admin('auth.Admin/add', { token, method: 'POST', body: { username: 'keeper1', nickname: 'Keeper', password: 'Keeper_pass1', group_arr: [Number(group.id)], status: '1' } });
    expect(created.code).toBe(1);
    const keeper = await server.loginAdmin('keeper1', 'Keeper_pass1');
    const count = delivered();
    const refused = await server.admin('routine.Config/sendTestMail', { token: keeper.token, method: 'POST', body: settings('SSL') });
    expect(refused.code).toBe(401);
    expect(delivered()).toBe(count);
    const node = await server.server.app.db.selectFrom('admin_rule').select('id').where('name', '=', 'routine/config/sendTestMail').executeTakeFirstOrThrow();
    const granted = await server.admin('auth.Group/edit', { token, method: 'POST', body: { id: Number(group.id), pid: 1, name: 'Config keepers', rules: [...rules.map((rule) => Number(rule.id)), Number(node.id)], status: '1' } });
    expect(granted.code, granted.msg).toBe(1);
    const sent = await server.admin('routine.Config/sendTestMail', { token: keeper.token, method: 'POST', body: settings('SSL') });
    expect(sent.code, sent.msg).toBe(1);
    expect(delivered()).toBe(count + 1);
  });

  it('keeps the SMTP password out of the admin log', async () => {
    const rows = (await server.server.app.db.selectFrom('admin_log').select('data').where('url', 'like', '%sendTestMail%').execute()) as { data: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.data).not.toContain(MAIL_PASS);
    const edits = (await server.server.app.db.selectFrom('admin_log').select('data').where('url', 'like', '%Config/edit%').execute()) as { data: string }[];
    expect(edits.some((row) => row.data.includes('"smtp_pass":"***"'))).toBe(true);
  });
});
