import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyQuery } from '../../src/contract/query-string.js';
import { ADMIN_PASSWORD, PROJECT_ROOT, SERVER_FROM_BUNDLE, startTestServer, type TestServer } from '../support/test-server.js';
import { TEST_SERVER_BUNDLE } from '../support/build-server.js';
import { storedMessage } from '../../src/server/stored-text.js';

/**
 * The web terminal (docs/wire-contract.md#web-terminal) over HTTP: `ajax/terminal` opened as BuildAdmin's
 * client opens it (the token in the query, as an EventSource must), its Server-Sent Events read to the
 * end of the stream; `ajax/changeTerminalConfig` and what `Index/index` reports.
 */

interface TerminalEvent {
  data: string;
  uuid: string;
  extend: string;
  key: string;
}

const root = mkdtempSync(join(tmpdir(), 'chidao-terminal-'));
const schemasDir = join(root, 'schemas');
cpSync(join(PROJECT_ROOT, 'schemas'), schemasDir, { recursive: true });
cpSync(join(PROJECT_ROOT, 'locales'), join(root, 'locales'), { recursive: true });
// A package manager "installed" for these tests only: a `pnpm` on the PATH.
const bin = join(root, 'bin');
mkdirSync(bin);
// It answers `-v` only once the test opens its gate (a run that is still going for as long as the test
// needs, however slow the machine); anything else it prints in colour, draws a progress line with a
// carriage return and fails with 3.
const versionGate = join(root, 'pnpm-may-answer');
writeFileSync(
  join(bin, 'pnpm'),
  ['#!/bin/sh', `if [ "$1" = "-v" ]; then while [ ! -e '${versionGate}' ]; do sleep 0.05; done; echo 9.9.9; exit 0; fi`, `printf '\\033[31mfake pnpm\\033[0m %s\\n' "$*"`, `printf 'step 1\\rstep 2\\n'`, 'exit 3', ''].join('\n'),
);
chmodSync(join(bin, 'pnpm'), 0o755);
const previousPath = process.env.PATH;

describe('ajax/terminal', () => {
  let server: TestServer;
  let superToken: string;

  /** Open the stream and read it to its end. */
  async function stream(query: Record<string, string>, options: { prefix?: string; lang?: string } = {}): Promise<{ status: number; type: string | null; events: TerminalEvent[] }> {
    const prefix = options.prefix ?? `${server.server.app.settings.adminEntrance}.php`;
    const response = await server.raw(`${prefix}/ajax/terminal?${stringifyQuery({ uuid: 'task-1', extend: '', ...query, server: '1' })}`, {
      headers: { accept: 'text/event-stream', 'accept-language': options.lang ?? 'en' },
    });
    const text = await response.text();
    const events = text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => {
        expect(block.startsWith('data: ')).toBe(true);
        return JSON.parse(block.slice('data: '.length)) as TerminalEvent;
      });
    return { status: response.status, type: response.headers.get('content-type'), events };
  }

  const lines = (events: TerminalEvent[]) => events.map((event) => event.data);

  async function logRows() {
    return server.server.app.db.selectFrom('admin_log').select(['admin_id', 'title', 'url', 'data']).where('title', '=', storedMessage('Run terminal command')).orderBy('id').execute();
  }

  beforeAll(async () => {
    process.env.PATH = `${bin}${delimiter}${previousPath}`;
    server = await startTestServer('sqlite', { schemasDir });
    superToken = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    process.env.PATH = previousPath;
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('streams a whitelisted command in order: linked, the command line, its output, exit code 0, success, completed', async () => {
    const { status, type, events } = await stream({ command: 'version.node', uuid: 'abc-123', extend: 'module-install:x', batoken: superToken });
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream');
    expect(lines(events)).toEqual(['command-link-success', '> node -v', process.version, 'exitCode: 0', 'command-exec-success', 'command-exec-completed']);
    // every event names the task, its extension and the command, as the client sent them
    for (const event of events) expect(event).toMatchObject({ uuid: 'abc-123', extend: 'module-install:x', key: 'version.node' });
  });

  it('answers on the entrance without .php and under /index.php, as BuildAdmin builds the address', async () => {
    const entrance = server.server.app.settings.adminEntrance;
    for (const prefix of [entrance, `/index.php${entrance}.php`]) {
      const { events } = await stream({ command: 'version.node', batoken: superToken }, { prefix });
      expect(lines(events), prefix).toEqual(['command-link-success', '> node -v', process.version, 'exitCode: 0', 'command-exec-success', 'command-exec-completed']);
    }
  });

  it('writes each run to the admin log with its exit code, the token masked', async () => {
    const before = (await logRows()).length;
    await stream({ command: 'version.node', batoken: superToken });
    const rows = await logRows();
    expect(rows).toHaveLength(before + 1);
    const row = rows[rows.length - 1];
    expect(Number(row.admin_id)).toBe(1);
    expect(JSON.parse(String(row.data))).toEqual({ command: 'version.node', exitCode: 0 });
    expect(row.url).toContain('batoken=***');
    expect(row.url).not.toContain(superToken);
  });

  it('a failing command ends with its exit code and command-exec-error, then completed', async () => {
    const broken = join(schemasDir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'bad.json'), JSON.stringify({ $id: 'broken/bad', type: 'object', 'x-table': 'bad', properties: { id: { type: 'no-such-type' } } }));
    try {
      const { events } = await stream({ command: 'schema.check', batoken: superToken });
      const text = lines(events);
      // The bundle carries the check built; the sources run it through tsx.
      const check = SERVER_FROM_BUNDLE ? relative(PROJECT_ROOT, join(TEST_SERVER_BUNDLE, 'check-schemas.js')) : '--import tsx scripts/check-schemas.ts';
      expect(text.slice(0, 2)).toEqual(['command-link-success', `> node ${check} ${schemasDir}`]);
      expect(text.some((line) => line.startsWith('Invalid schema:') && line.includes('broken/bad.json'))).toBe(true);
      expect(text.slice(-3)).toEqual(['exitCode: 1', 'command-exec-error', 'command-exec-completed']);
      expect(JSON.parse(String((await logRows()).at(-1)?.data))).toEqual({ command: 'schema.check', exitCode: 1 });
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
    // the same check passes on the schemas as they ship
    const { events } = await stream({ command: 'schema.check', batoken: superToken });
    expect(lines(events).slice(-3)).toEqual(['exitCode: 0', 'command-exec-success', 'command-exec-completed']);
  });

  it('never starts an unknown command, nor anything the client adds to a known one', async () => {
    const marker = join(root, 'ran');
    const before = (await logRows()).length;
    for (const command of ['migrate.run', 'version', 'version.node && touch ' + marker, '../version.node', 'ping.localhost', '']) {
      const { events } = await stream({ command, batoken: superToken });
      expect(lines(events), command).toEqual(['Error:The command was not allowed to be executed', 'command-exec-error']);
    }
    // `extend` is echoed back, never run
    const { events } = await stream({ command: 'version.node', extend: `x; touch ${marker}`, batoken: superToken });
    expect(lines(events)).toContain('exitCode: 0');
    expect(events[0].extend).toBe(`x; touch ${marker}`);
    expect(existsSync(marker)).toBe(false);
    expect(await logRows()).toHaveLength(before + 1);
  });

  it('refuses without a token, with a member token and for an admin who is not a super admin', async () => {
    const refused = ['Error:You are not super administrator or not logged in', 'command-exec-error'];
    expect(lines((await stream({ command: 'version.node' })).events)).toEqual(refused);
    expect(lines((await stream({ command: 'version.node', batoken: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' })).events)).toEqual(refused);

    const member = server.demoMember!;
    const checkIn = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: member.username, password: member.password } });
    expect(checkIn.code).toBe(1);
    const memberToken = checkIn.data.userInfo.token;
    expect(lines((await stream({ command: 'version.node', batoken: memberToken })).events)).toEqual(refused);
    expect(lines((await stream({ command: 'version.node', 'ba-user-token': memberToken })).events)).toEqual(refused);

    const rule = await server.server.app.db.selectFrom('admin_rule').select('id').where('name', '=', 'dashboard').executeTakeFirstOrThrow();
    const group = await server.admin('auth.Group/add', { token: superToken, body: { pid: 1, name: 'Terminal testers', rules: [Number(rule.id)], status: '1' } });
    expect(group.code, group.msg).toBe(1);
    const groupRow = await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Terminal testers').executeTakeFirstOrThrow();
    const added = await server.admin('auth.Admin/add', { token: superToken, body: { username: 'operator', nickname: 'operator', password: ADMIN_PASSWORD, group_arr: [Number(groupRow.id)], status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const operator = await server.loginAdmin('operator', ADMIN_PASSWORD);
    expect(lines((await stream({ command: 'version.node', batoken: operator.token })).events)).toEqual(refused);
    // and in Chinese for a Chinese browser
    expect(lines((await stream({ command: 'version.node', batoken: operator.token }, { lang: 'zh-CN,zh;q=0.9' })).events)).toEqual(['Error:您不是超级管理员或尚未登录', 'command-exec-error']);
    // the operator's bootstrap carries no command list
    const index = await server.admin<{ terminal: Record<string, unknown> }>('Index/index', { token: operator.token });
    expect(index.data.terminal).toEqual({ phpDevelopmentServer: false, npmPackageManager: 'npm' });
  });

  it('refuses an expired token, and a second command while one is running', async () => {
    const { token } = await server.loginAdmin();
    await server.server.app.db.updateTable('token').set({ expire_time: Math.floor(Date.now() / 1000) - 10 }).where('token', '=', server.server.app.tokens.digest(token)).execute();
    expect(lines((await stream({ command: 'version.node', batoken: token })).events)).toEqual(['Error:Token expiration', 'command-exec-error']);

    const first = await server.raw(`${server.server.app.settings.adminEntrance}/ajax/terminal?command=version.pnpm&uuid=slow&extend=&batoken=${superToken}`);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    try {
      while (!text.includes('command-link-success')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      // `pnpm -v` waits for the gate: the first run is still going whatever the time
      expect(lines((await stream({ command: 'version.node', batoken: superToken })).events)).toEqual(['Error:Another command is still running, please wait for it to end', 'command-exec-error']);
    } finally {
      writeFileSync(versionGate, '');
    }
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain('"data":"9.9.9"');
    expect(text).toContain('"data":"command-exec-success"');
    // the first run over, the next one starts
    expect(lines((await stream({ command: 'version.node', batoken: superToken })).events)).toContain('exitCode: 0');
  });

  it('changeTerminalConfig stores an installed package manager, which Index/index reports and the commands use', async () => {
    const index = await server.admin<{ terminal: { npmPackageManager: string; packageManagers: string[]; commands: { key: string; title: string }[] } }>('Index/index', { token: superToken });
    expect(index.data.terminal.npmPackageManager).toBe('npm');
    expect(index.data.terminal.packageManagers).toEqual(expect.arrayContaining(['npm', 'pnpm']));
    expect(index.data.terminal.commands).toEqual(expect.arrayContaining([{ key: 'version.node', title: 'Show the Node.js version' }, { key: 'schema.check', title: 'Check the schema files' }]));
    const zh = await server.admin<{ terminal: { commands: { key: string; title: string }[] } }>('Index/index', { token: superToken, lang: 'zh-cn' });
    expect(zh.data.terminal.commands).toContainEqual({ key: 'version.node', title: '查看 Node.js 版本' });

    for (const [manager, lang, message] of [
      ['bun', 'en', 'manager must be one of: npm, pnpm'],
      ['npm -g', 'zh-cn', 'manager 只能是以下之一：npm, pnpm'],
      [['npm'], 'en', 'manager must be one of: npm, pnpm'],
    ] as const) {
      const refused = await server.admin('ajax/changeTerminalConfig', { token: superToken, lang, body: { manager } });
      expect(refused.code).toBe(0);
      expect(refused.msg).toBe(message);
    }
    expect((await server.admin<{ terminal: { npmPackageManager: string } }>('Index/index', { token: superToken })).data.terminal.npmPackageManager).toBe('npm');

    const changed = await server.admin('ajax/changeTerminalConfig', { token: superToken, body: { manager: 'pnpm' } });
    expect(changed.code, changed.msg).toBe(1);
    expect((await server.admin<{ terminal: { npmPackageManager: string } }>('Index/index', { token: superToken })).data.terminal.npmPackageManager).toBe('pnpm');
    const logged = await server.server.app.db.selectFrom('admin_log').select(['title', 'data']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(logged.title).toBe(storedMessage('Change terminal config'));
    // types.gen now runs through pnpm (the stand-in fails on purpose)
    const { events } = await stream({ command: 'types.gen', batoken: superToken });
    // colour codes taken out, the carriage return ends a line
    expect(lines(events)).toEqual(['command-link-success', '> pnpm run gen', 'fake pnpm run gen', 'step 1', 'step 2', 'exitCode: 3', 'command-exec-error', 'command-exec-completed']);

    expect((await server.admin('ajax/changeTerminalConfig', { token: superToken, body: { manager: 'npm' } })).code).toBe(1);
  });
});

describe('ajax/terminal with TERMINAL=off', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { TERMINAL: 'off' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers every command with the refusal and runs nothing', async () => {
    const { token } = await server.loginAdmin();
    const response = await server.raw(`${server.server.app.settings.adminEntrance}/ajax/terminal?command=version.node&uuid=u&extend=&batoken=${token}&server=1`, { headers: { 'accept-language': 'en' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    // The stream is written past Fastify, yet carries the headers of every answer.
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const events = (await response.text()).split('\n\n').filter(Boolean).map((block) => (JSON.parse(block.slice(6)) as TerminalEvent).data);
    expect(events).toEqual(['Error:The web terminal is switched off on this server', 'command-exec-error']);
    const index = await server.admin<{ terminal: { enabled: boolean } }>('Index/index', { token });
    expect(index.data.terminal.enabled).toBe(false);
    expect(await server.server.app.db.selectFrom('admin_log').select('id').where('title', '=', storedMessage('Run terminal command')).execute()).toEqual([]);
  });
});
