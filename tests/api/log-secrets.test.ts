import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Secrets stay out of the logs: the admin log masks a value by the type of its field (a `password`
 * config item, a password or write-only schema field), by a wide set of names at any depth, and by
 * the decoded names of the query; the request log (`LOG_REQUESTS=true`) masks the query the same way.
 */

/** A resource whose secrets have plain names: known as secrets only by their type. */
const VAULT_SCHEMA = {
  $id: 'logs/vault',
  title: 'Vault',
  type: 'object',
  'x-table': 'log_vault',
  'x-controller': 'logs.Vault',
  'x-menu': { title: 'Vaults' },
  properties: {
    id: { type: 'integer', readOnly: true },
    label: { type: 'string', maxLength: 30, title: 'Label' },
    lock_combination: { type: 'string', maxLength: 64, title: 'Combination', 'x-ui': { widget: 'password' } },
    hidden_note: { type: 'string', maxLength: 64, title: 'Hidden note', writeOnly: true },
  },
};

const root = mkdtempSync(join(tmpdir(), 'chidao-log-secrets-'));
const schemasDir = join(root, 'schemas');
cpSync(resolve(import.meta.dirname, '../../schemas'), schemasDir, { recursive: true });
mkdirSync(join(schemasDir, 'logs'));
writeFileSync(join(schemasDir, 'logs', 'vault.json'), JSON.stringify(VAULT_SCHEMA));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(DATABASES)('secrets in the logs on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const lines: string[] = [];
  const db = () => server.server.app.db;
  const lastLog = async () => (await db().selectFrom('admin_log').select(['url', 'data']).orderBy('id', 'desc').executeTakeFirstOrThrow()) as { url: string; data: string };

  beforeAll(async () => {
    server = await startTestServer(kind, { schemasDir, requestLog: { write: (line: string) => void lines.push(line) } });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('masks a password config item by its type, whatever its name', async () => {
    const added = await server.admin('routine.Config/add', { token, body: { name: 'panel_access', group: 'basics', title: 'Panel access', type: 'password', value: 'first-Secret-1', rule: '' } });
    expect(added.code).toBe(1);
    const addLog = await lastLog();
    expect(addLog.data).not.toContain('first-Secret-1');
    expect(JSON.parse(addLog.data)).toMatchObject({ name: 'panel_access', type: 'password', value: '***' });

    const edited = await server.admin('routine.Config/edit', { token, body: { panel_access: 'second-Secret-2', site_name: 'Logged site' } });
    expect(edited.code).toBe(1);
    const editLog = await lastLog();
    expect(editLog.data).not.toContain('second-Secret-2');
    expect(JSON.parse(editLog.data)).toMatchObject({ panel_access: '***', site_name: 'Logged site' });
  });

  it('masks secret names of every usual spelling, nested too, and keeps the rest', async () => {
    const secrets = {
      pwd: 'S-pwd', key: 'S-key', api_key: 'S-api', accessKey: 'S-access', authorization: 'S-authz', Authorization: 'S-Authz', auth: 'S-auth',
      credentials: { user: 'S-user', password: 'S-cred' },
      nested: { deeper: { smtp: { apiKey: 'S-deep', host: 'mail.example' } } },
      items: [{ name: 'sms_api_key', value: 'S-pair' }, { name: 'site_name', value: 'kept-pair' }],
    };
    await server.admin('auth.Admin/add', { token, body: { username: 'logkeys', nickname: 'Author', keyword: 'kept-keyword', ...secrets } });
    const row = await lastLog();
    expect(row.data).not.toMatch(/S-\w+/);
    expect(JSON.parse(row.data)).toMatchObject({
      username: 'logkeys', nickname: 'Author', keyword: 'kept-keyword', pwd: '***', key: '***', api_key: '***', accessKey: '***', authorization: '***', Authorization: '***', auth: '***', credentials: '***',
      nested: { deeper: { smtp: { apiKey: '***', host: 'mail.example' } } },
      items: [{ name: 'sms_api_key', value: '***' }, { name: 'site_name', value: 'kept-pair' }],
    });
  });

  it('masks a schema field by its type: a password or write-only field under a plain name', async () => {
    const added = await server.admin('logs.Vault/add', { token, body: { label: 'Front door', lock_combination: 'Combo-4711', hidden_note: 'Note-0815' } });
    expect(added.code).toBe(1);
    const row = await lastLog();
    expect(row.data).not.toMatch(/Combo-4711|Note-0815/);
    expect(JSON.parse(row.data)).toMatchObject({ label: 'Front door', lock_combination: '***', hidden_note: '***' });
  });

  it('masks the query by its decoded names, in the admin log and in the request log', async () => {
    const tokenValue = 'Q-token-value-1';
    const query = `bat%6Fken=${tokenValue}&ba%2Dtoken=${tokenValue}2&%70wd=${tokenValue}3&api%5Fkey=${tokenValue}4&page=2`;
    const answer = await server.raw(`/chidaoadminstator.php/auth.Admin/add?${query}`, { method: 'POST', headers: { batoken: token, 'content-type': 'application/json', 'think-lang': 'en' }, body: '{}' });
    expect(answer.status).toBe(200);
    const row = await lastLog();
    expect(row.url).not.toContain(tokenValue);
    expect(row.url).toContain('bat%6Fken=***');
    expect(row.url).toContain('page=2');

    const logged = lines.filter((line) => line.includes('auth.Admin/add?'));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line).not.toContain(tokenValue);
    expect(logged.join('\n')).toContain('page=2');
  });
});
