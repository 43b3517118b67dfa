import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../../scripts/dev.js';
import type { SchemaStatus } from '../../src/server/dev/live-schemas.js';
import { ADMIN_PASSWORD, PROJECT_ROOT } from '../support/test-server.js';

/**
 * `npm run dev` on a copy of `schemas/`: an added field shows in the definitions and the API within
 * seconds, with no restart; a broken edit keeps the last good schema serving and is reported.
 *
 * @module-tag full (`npm run dev` (Vite and a server) in processes of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

let dir: string;
let dev: DevServer;
const log: string[] = [];
const events: SchemaStatus[] = [];
let stopStream: AbortController;
let token: string;

const teamFile = () => join(dir, 'schemas/team/team.json');
const readTeam = () => JSON.parse(readFileSync(teamFile(), 'utf8')) as { properties: Record<string, unknown> };

async function admin<T>(path: string, init: { body?: unknown; query?: string } = {}): Promise<{ code: number; msg: string; data: T }> {
  const response = await fetch(`${dev.apiUrl}/chidaoadminstator.php/${path}${init.query ?? ''}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'think-lang': 'en', 'content-type': 'application/json', ...(token ? { batoken: token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await response.json()) as { code: number; msg: string; data: T };
}

interface Definition { id: string; fields: { name: string; title: Record<string, string> }[] }

async function teamFields(): Promise<string[]> {
  const { data } = await admin<{ definitions: Definition[] }>('Index/index');
  return data.definitions.find((definition) => definition.id === 'team/team')?.fields.map((field) => field.name) ?? [];
}

/** Poll until `check` passes, for at most `ms`; returns how long it took. */
async function within(ms: number, check: () => Promise<void> | void): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Read the schema event stream as the back office does, collecting each status. */
async function followStream(url: string): Promise<void> {
  stopStream = new AbortController();
  const response = await fetch(url, { signal: stopStream.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (block.includes('event: schemas') && data) events.push(JSON.parse(data.slice(6)) as SchemaStatus);
        }
      }
    } catch {
      // aborted at the end of the suite
    }
  })();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chidao-dev-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  mkdirSync(join(dir, 'locales'));
  dev = await startDev({
    env: {
      ADMIN_PASSWORD, ADMIN_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: '0', AUTH_RATE_LIMIT: '0',
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`, STORAGE_DIR: join(dir, 'storage'), HOST: '127.0.0.1', PORT: '0',
    },
    schemasDir: join(dir, 'schemas'),
    typesOutput: join(dir, 'resources.ts'),
    clientPort: 0,
    clientLogLevel: 'warn',
    log: (line) => log.push(line),
    debounceMs: 100,
  });
  const login = await admin<{ userInfo: { token: string } }>('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
  token = login.data.userInfo.token;
  await followStream(`${dev.clientUrl}/__dev/schemas`);
  await within(5_000, () => expect(events).toHaveLength(1));
});

afterAll(async () => {
  stopStream?.abort();
  await dev?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves the client with Vite, proxying the API to the server it started', async () => {
    expect(dev.clientUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${dev.clientUrl}/chidaoadminstator/login`);
    expect(await page.text()).toContain('<div id="root">');
    const proxied = await fetch(`${dev.clientUrl}/chidaoadminstator.php/Index/index`, { headers: { batoken: token, 'think-lang': 'en' } });
    expect(((await proxied.json()) as { code: number }).code).toBe(1);
  });

  it('picks up a field added to a schema file within seconds: definitions, API, types', async () => {
    expect(await teamFields()).not.toContain('motto');
    const team = readTeam();
    team.properties.motto = { type: 'string', title: 'Team motto', maxLength: 60, 'x-ui': { list: true } };
    writeFileSync(teamFile(), JSON.stringify(team, null, 2));

    const took = await within(10_000, async () => expect(await teamFields()).toContain('motto'));
    expect(took).toBeLessThan(10_000);
    // the column exists: a row is written and read back with it
    const added = await admin('team.Team/add', { body: { name: 'Live team', motto: 'Fast feedback' } });
    expect(added.code, added.msg).toBe(1);
    const list = await admin<{ list: { name: string; motto: string }[] }>('team.Team/index', { query: '?quickSearch=Live' });
    expect(list.data.list.find((row) => row.name === 'Live team')?.motto).toBe('Fast feedback');
    // the open back office was told, and the row types were regenerated
    await within(5_000, () => expect(events.at(-1)).toEqual({ version: 2, error: null }));
    expect(readFileSync(join(dir, 'resources.ts'), 'utf8')).toMatch(/motto\?: string/);
    expect(log.some((line) => line.includes('migrate:') && line.includes('motto'))).toBe(true);
  });

  it('picks up a locale file written beside the schemas: the field gets its Chinese title', async () => {
    const motto = async () => (await admin<{ definitions: Definition[] }>('Index/index')).data.definitions.find((item) => item.id === 'team/team')?.fields.find((field) => field.name === 'motto')?.title;
    expect(await motto()).toEqual({ 'zh-cn': 'Team motto', en: 'Team motto' });
    mkdirSync(join(dir, 'locales/zh-cn/schemas/team'), { recursive: true });
    writeFileSync(join(dir, 'locales/zh-cn/schemas/team/team.json'), JSON.stringify({ fields: { motto: '口号' } }));
    await within(10_000, async () => expect(await motto()).toEqual({ 'zh-cn': '口号', en: 'Team motto' }));
    await within(5_000, () => expect(events.at(-1)).toEqual({ version: 3, error: null }));
  });

  it('a broken edit keeps the last good schema serving and reports file and JSON path; fixing it applies it', async () => {
    const good = readFileSync(teamFile(), 'utf8');
    const team = readTeam();
    team.properties.slogan = { type: 'strnig', title: 'Slogan' };
    writeFileSync(teamFile(), JSON.stringify(team, null, 2));

    await within(10_000, () => expect(events.at(-1)?.error).not.toBeNull());
    const error = events.at(-1)!.error!;
    expect(error.file).toBe('schemas/team/team.json');
    expect(error.path).toContain('/properties/slogan');
    expect(events.at(-1)!.version).toBe(3);
    expect(log.join('\n')).toContain('schemas/team/team.json');
    // still serving the last good one
    expect(await teamFields()).toContain('motto');
    expect(await teamFields()).not.toContain('slogan');
    expect((await admin('team.Team/index')).code).toBe(1);

    // not JSON at all: the same
    writeFileSync(teamFile(), good.replace('{', '{,'));
    await within(10_000, () => expect(events.at(-1)?.error?.message).toContain('not valid JSON'));
    expect(await teamFields()).toContain('motto');

    // fixed: applied, the error cleared
    team.properties.slogan = { type: 'string', title: 'Slogan', maxLength: 40 };
    writeFileSync(teamFile(), JSON.stringify(team, null, 2));
    await within(10_000, async () => expect(await teamFields()).toContain('slogan'));
    await within(5_000, () => expect(events.at(-1)).toEqual({ version: 4, error: null }));
  });

  it('a destructive change is refused with the data kept, as at start-up', async () => {
    // (a locale file naming a field the schema drops is refused first, so it goes first)
    writeFileSync(join(dir, 'locales/zh-cn/schemas/team/team.json'), '{}');
    await within(10_000, () => expect(events.at(-1)).toEqual({ version: 5, error: null }));
    const team = readTeam();
    delete team.properties.motto;
    team.properties.name = { ...(team.properties.name as object), maxLength: 5 };
    writeFileSync(teamFile(), JSON.stringify(team, null, 2));
    await within(10_000, () => expect(events.at(-1)?.error?.message).toContain('Refusing destructive'));
    expect(await teamFields()).toContain('motto');
    const list = await admin<{ list: { name: string; motto: string }[] }>('team.Team/index', { query: '?quickSearch=Live' });
    expect(list.data.list.find((row) => row.name === 'Live team')?.motto).toBe('Fast feedback');
  });
});
