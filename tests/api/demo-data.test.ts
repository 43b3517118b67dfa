import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDemoDataCommand } from '../../src/server/demo-data.js';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import { ADMIN_PASSWORD, createTestDatabase, DATABASES, PROJECT_ROOT } from '../support/test-server.js';

/**
 * A fresh install holds the operator's administrator and no member: no BuildAdmin demo account, no demo
 * email or mobile number on the administrator. `npm run demo-data` (its command, run here in the test
 * process) adds the demo member once; the server runs as `npm start` runs it, in a process of its own.
 *
 * @module-tag full (the built server in processes of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function call<T>(url: string, path: string, body?: unknown, token?: string): Promise<{ code: number; msg: string; data: T }> {
  const headers: Record<string, string> = { server: 'true', 'think-lang': 'en' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.batoken = token;
  const response = await fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await response.json()) as { code: number; msg: string; data: T };
}

/** The banner's lines once it is printed whole (the admin login is its last line). */
async function banner(server: ServerProcess): Promise<string[]> {
  await server.listening;
  await expect.poll(() => server.stdout.some((line) => line.includes('admin login:')), { interval: 10, timeout: 30_000 }).toBe(true);
  return server.stdout.slice(server.stdout.findIndex((line) => line.includes('is running')));
}

describe.each(DATABASES)('a fresh install and its demo data on %s', (kind) => {
  it('starts with the operator\'s admin and no member; the demo data command adds the demo member once, who then signs in', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(database.drop);
    const storage = mkdtempSync(join(tmpdir(), 'chidao-demo-'));
    cleanups.push(async () => rmSync(storage, { recursive: true, force: true }));

    // `npm start` on an empty database: a working admin login, and the banner says there is no member yet
    const first = spawnServer(database.url, { ADMIN_PASSWORD: undefined, USER_LOGIN_CAPTCHA: 'false' });
    cleanups.push(first.stop);
    const lines = await banner(first);
    const url = await first.listening;
    const printed = /admin login:\s+admin \/ (\S+) \(generated now/.exec(lines.join('\n'));
    expect(printed, lines.join('\n')).not.toBeNull();
    expect(lines.join('\n')).toContain('members:      none yet: members register in the member centre, or `npm run demo-data` adds a demo member');
    expect(lines.join('\n')).not.toContain('member login');
    const login = await call<{ userInfo: { token: string } }>(url, '/chidaoadminstator.php/Index/login', { username: 'admin', password: printed![1] });
    expect(login.code, login.msg).toBe(1);
    const token = login.data.userInfo.token;
    const members = await call<{ total: number; list: unknown[] }>(url, '/chidaoadminstator.php/user.User/index', undefined, token);
    expect(members.code, members.msg).toBe(1);
    expect(members.data).toMatchObject({ total: 0, list: [] });
    // the administrator carries no demo email or mobile number
    const admins = await call<{ list: { id: number; username: string; email: string; mobile: string }[] }>(url, '/chidaoadminstator.php/auth.Admin/index', undefined, token);
    expect(admins.data.list.map(({ id, username, email, mobile }) => ({ id, username, email, mobile }))).toEqual([{ id: 1, username: 'admin', email: '', mobile: '' }]);
    const noDemoMember = await call(url, '/api/user/checkIn', { tab: 'login', username: 'user', password: 'Member_pass1' });
    expect(noDemoMember).toMatchObject({ code: 0, msg: 'Incorrect account or password' });
    await first.stop();

    // the command, twice: the first adds the demo member and tells its login, the second adds nothing
    const env = { DATABASE_URL: database.url, STORAGE_DIR: storage, DEMO_MEMBER_PASSWORD: 'Demo_pass1' };
    const runs: { code: number; out: string[]; err: string[] }[] = [];
    for (let run = 0; run < 2; run += 1) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runDemoDataCommand(env, PROJECT_ROOT, { line: (text) => out.push(text), error: (text) => err.push(text) });
      runs.push({ code, out, err });
    }
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(runs[0].out).toContain('  demo member added: #1 user / Demo_pass1 (member centre login; shown only now)');
    expect(runs[1].out).toContain('  demo member not added: member #1 "user" already holds its username, email or mobile number');
    expect(runs.flatMap((run) => run.err)).toEqual([]);

    // the next start: members exist, so no note; the demo member signs in with the password the command told
    const second = spawnServer(database.url, { ADMIN_PASSWORD, USER_LOGIN_CAPTCHA: 'false' });
    cleanups.push(second.stop);
    const again = await banner(second);
    expect(again.join('\n')).not.toContain('members:');
    const secondUrl = await second.listening;
    const member = await call<{ userInfo: { id: number; username: string; email: string; mobile: string } }>(secondUrl, '/api/user/checkIn', { tab: 'login', username: 'user', password: 'Demo_pass1' });
    expect(member.code, member.msg).toBe(1);
    expect(member.data.userInfo).toMatchObject({ id: 1, username: 'user', email: '18888888888@qq.com', mobile: '18888888888' });
    const adminToken = (await call<{ userInfo: { token: string } }>(secondUrl, '/chidaoadminstator.php/Index/login', { username: 'admin', password: ADMIN_PASSWORD })).data.userInfo.token;
    expect((await call<{ total: number }>(secondUrl, '/chidaoadminstator.php/user.User/index', undefined, adminToken)).data.total).toBe(1);
  });
});
