import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../src/contract/site-time.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { stringifyQuery } from '../../src/contract/query-string.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';
import { adminHolding } from '../support/limited-admin.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * CSV export of a filtered list: every page of it, in the list's order, with its search and
 * quick search, under translated column titles, values as the list shows them; cells that would break
 * the file or run as a formula are quoted or defused. A node of its own: an admin without it is refused.
 */

const ROWS = 1_203;
const SCHEMA = {
  $id: 'exports/contact',
  title: 'Contact',
  type: 'object',
  'x-table': 'export_contact',
  'x-controller': 'exports.Contact',
  // written in both languages, so the glossary gives the Chinese of its English titles ("Name" → 名称)
  'x-menu': { title: { 'zh-cn': '联系人', en: 'Contacts' } },
  'x-list': { quickSearch: ['name'], defaultSort: 'score,desc' },
  required: ['name'],
  properties: {
    id: { type: 'integer', readOnly: true, title: 'ID', 'x-ui': { list: true } },
    name: { type: 'string', maxLength: 80, title: 'Name', 'x-ui': { list: true, search: 'LIKE' } },
    status: { type: 'string', enum: ['0', '1'], default: '1', title: 'Status', 'x-ui': { list: true, search: '=', options: { 0: 'Disable', 1: 'Enable' } } },
    score: { type: 'integer', default: 0, title: 'Score', 'x-ui': { list: true, sortable: true } },
    note: { type: 'string', maxLength: 200, title: 'Remark' },
    create_time: { type: ['integer', 'null'], readOnly: true, title: 'Create time', 'x-ui': { list: true, render: 'datetime' } },
    update_time: { type: ['integer', 'null'], readOnly: true },
  },
};

const root = mkdtempSync(join(tmpdir(), 'chidao-export-'));
const schemasDir = join(root, 'schemas');
cpSync(resolve(import.meta.dirname, '../../schemas'), schemasDir, { recursive: true });
mkdirSync(join(schemasDir, 'exports'));
writeFileSync(join(schemasDir, 'exports', 'contact.json'), JSON.stringify(SCHEMA));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** RFC 4180 rows: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

describe.each(DATABASES)('CSV export on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const createdAt = 1_717_189_507;

  async function download(query: Record<string, unknown>, lang: 'en' | 'zh-cn' = 'en', as = token) {
    const response = await server.raw(`/chidaoadminstator.php/exports.Contact/export?${stringifyQuery(query)}`, { headers: { batoken: as, 'think-lang': lang } });
    // Decoded keeping the byte-order mark, which `text()` would drop.
    return { response, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()) };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { schemasDir });
    token = (await server.loginAdmin()).token;
    const db = dynamicDb(server.server.app.db);
    const rows = Array.from({ length: ROWS }, (_, index) => ({
      name: index === 7 ? 'Smith, "Jo"\nSecond line' : index === 8 ? '=HYPERLINK("http://evil")' : `Contact ${String(index).padStart(4, '0')}`,
      status: index % 3 === 0 ? '0' : '1',
      score: (index * 7919) % 5000,
      note: '',
      create_time: createdAt,
      update_time: createdAt,
    }));
    for (let start = 0; start < rows.length; start += 400) await db.insertInto('export_contact').values(rows.slice(start, start + 400)).execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('sends every row of the filtered list, in its order, as the list shows it', async () => {
    const search = [{ field: 'status', operator: '=', val: '1' }];
    const { response, text } = await download({ search, order: 'score,asc' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="export_contact-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(['ID', 'Name', 'Status', 'Score', 'Create time']);
    // The same rows, in the same order, as the list's pages.
    const listed: number[] = [];
    for (let page = 1; ; page++) {
      const answer = await server.admin<{ list: { id: number }[] }>('exports.Contact/index', { token, query: { search, order: 'score,asc', page, limit: 100 } });
      listed.push(...answer.data.list.map((row) => row.id));
      if (answer.data.list.length < 100) break;
    }
    expect(rows.length).toBe(listed.length);
    expect(rows.length).toBeGreaterThan(500);
    expect(rows.map((row) => Number(row[0]))).toEqual(listed);
    expect(rows.every((row) => row[2] === 'Enable')).toBe(true);
    const zone = await server.server.app.config.timeZone();
    expect(rows[0][4]).toBe(formatLocalDateTime(createdAt, zone));
  });

  it('quotes separators and line breaks, and defuses formulas', async () => {
    const rows = parseCsv((await download({ quickSearch: 'Smith' })).text.slice(1)).slice(1);
    expect(rows.map((row) => row[1])).toEqual(['Smith, "Jo"\nSecond line']);
    const formula = parseCsv((await download({ quickSearch: 'HYPERLINK' })).text.slice(1)).slice(1);
    expect(formula.map((row) => row[1])).toEqual([`'=HYPERLINK("http://evil")`]);
  });

  it('titles the columns and labels the values in Chinese for a Chinese admin', async () => {
    const [header, first] = parseCsv((await download({ search: [{ field: 'status', operator: '=', val: '0' }] }, 'zh-cn')).text.slice(1));
    expect(header.slice(0, 3)).toEqual(['ID', '名称', '状态']);
    expect(first[2]).toBe('禁用');
  });

  it('answers a refused search with an error, not a file', async () => {
    const { response, text } = await download({ order: 'note,asc' });
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(JSON.parse(text)).toMatchObject({ code: 0, msg: 'The list cannot be ordered by Remark' });
  });

  it('every flat list has an export node to grant, participations included; without it the refusal is translated', async () => {
    const db = dynamicDb(server.server.app.db);
    const names = new Set(((await db.selectFrom('admin_rule').select('name').execute()) as { name: string }[]).map((rule) => rule.name.toLowerCase()));
    const lists = [...server.server.app.resources.values()].filter((definition) => definition.menu?.buttons.includes('index') && !definition.list.tree && server.server.app.controllers.forResource(definition.id)?.actions.export);
    expect(lists.map((definition) => definition.id)).toContain('survey/participation');
    for (const definition of lists) expect(names.has(`${definition.menu?.name}/export`.toLowerCase()), `${definition.id} has an export node`).toBe(true);

    const reader = await adminHolding(server, token, ['survey/participation/index']);
    const exporter = await adminHolding(server, token, ['survey/participation/index', 'survey/participation/export']);
    const exportAs = async (as: string, lang: 'en' | 'zh-cn') => server.raw('/chidaoadminstator.php/survey.Participation/export', { headers: { batoken: as, 'think-lang': lang } });
    const granted = await exportAs(exporter, 'en');
    expect(granted.headers.get('content-type')).toContain('text/csv');
    expect((await granted.text()).split('\r\n')[0]).toContain('RID');
    expect(await (await exportAs(reader, 'en')).json()).toMatchObject({ code: 401, msg: 'You have no permission to operate' });
    expect(await (await exportAs(reader, 'zh-cn')).json()).toMatchObject({ code: 401, msg: '您没有权限操作' });
  });

  it('gives a menu synced before exports existed its export node once, at the next start', async () => {
    const db = dynamicDb(server.server.app.db);
    const node = () => db.selectFrom('admin_rule').select('id').where('name', '=', 'routine/mailTemplate/export').executeTakeFirst();
    expect(await node()).toBeDefined();
    // As a database of the previous version: menu synced (1), no export node.
    await db.deleteFrom('admin_rule').where('name', '=', 'routine/mailTemplate/export').execute();
    await db.updateTable('schema_state').set({ menu_synced: 1 }).where('table_name', '=', 'mail_template').execute();
    const restarted = await startTestServer(kind, { schemasDir, databaseUrl: server.databaseUrl });
    await restarted.close();
    const added = (await db.selectFrom('admin_rule').select(['pid', 'title', 'type']).where('name', '=', 'routine/mailTemplate/export').executeTakeFirstOrThrow()) as { pid: number; title: string; type: string };
    const menu = (await db.selectFrom('admin_rule').select('id').where('name', '=', 'routine/mailTemplate').executeTakeFirstOrThrow()) as { id: number };
    expect(added).toEqual({ pid: menu.id, title: '导出', type: 'button' });
    // Deleted by an admin afterwards: not brought back by later starts.
    await db.deleteFrom('admin_rule').where('name', '=', 'routine/mailTemplate/export').execute();
    await (await startTestServer(kind, { schemasDir, databaseUrl: server.databaseUrl })).close();
    expect(await node()).toBeUndefined();
  });

  it('needs the export node: an admin who may only list is refused', async () => {
    const db = dynamicDb(server.server.app.db);
    const rules = (await db.selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ['exports/contact', 'exports/contact/index', 'exports/contact/export']).execute()) as { id: number; name: string }[];
    expect(rules.map((rule) => rule.name).sort()).toEqual(['exports/contact', 'exports/contact/export', 'exports/contact/index']);
    const listOnly = rules.filter((rule) => rule.name !== 'exports/contact/export').map((rule) => rule.id).join(',');
    const now = Math.floor(Date.now() / 1000);
    const group = await db.insertInto('admin_group').values({ pid: 0, name: 'Readers', rules: listOnly, status: '1', create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
    const admin = await db
      .insertInto('admin')
      .values({ username: 'reader', nickname: 'Reader', password: await hashPassword('Reader_pass1'), salt: '', email: '', mobile: '', status: '1', create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('admin_group_access').values({ uid: admin.id, group_id: group.id }).execute();
    const reader = (await server.loginAdmin('reader', 'Reader_pass1')).token;
    expect((await server.admin('exports.Contact/index', { token: reader })).code).toBe(1);
    const { text } = await download({}, 'en', reader);
    expect(JSON.parse(text)).toMatchObject({ code: 401 });
  });
});
