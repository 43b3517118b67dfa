import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/test-server.js';
import { ADMIN_BASE, loginAs, newPage, startRig, url, type E2eRig } from './helpers.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * CSV export in the browser: a list of 10,000 rows filtered in the screen is exported
 * whole, every page of it, and the file holds exactly the filtered rows under the Chinese titles.
 */

const ROWS = 10_000;
const SCHEMA = {
  $id: 'exports/contact',
  title: 'Contact',
  type: 'object',
  'x-table': 'export_contact',
  'x-controller': 'exports.Contact',
  // written in both languages, so the glossary gives the Chinese of its English titles ("Name" → 名称)
  'x-menu': { title: { 'zh-cn': '联系人', en: 'Contacts' } },
  'x-list': { quickSearch: ['name'] },
  required: ['name'],
  properties: {
    id: { type: 'integer', readOnly: true, title: 'ID', 'x-ui': { list: true } },
    name: { type: 'string', maxLength: 80, title: 'Name', 'x-ui': { list: true } },
    status: { type: 'string', enum: ['0', '1'], default: '1', title: 'Status', 'x-ui': { list: true, search: '=', options: { 0: 'Disable', 1: 'Enable' } } },
    create_time: { type: ['integer', 'null'], readOnly: true },
    update_time: { type: ['integer', 'null'], readOnly: true },
  },
};

let rig: E2eRig;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'chidao-export-e2e-'));
  const schemas = join(root, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
  mkdirSync(join(schemas, 'exports'));
  writeFileSync(join(schemas, 'exports/contact.json'), JSON.stringify(SCHEMA));
  rig = await startRig({}, schemas);
  const now = Math.floor(Date.now() / 1000);
  const rows = Array.from({ length: ROWS }, (_, index) => ({ name: `Contact ${index + 1}`, status: index % 4 === 0 ? '0' : '1', create_time: now, update_time: now }));
  for (let start = 0; start < ROWS; start += 1000) await dynamicDb(rig.server.server.app.db).insertInto('export_contact').values(rows.slice(start, start + 1000)).execute();
});

afterAll(async () => {
  await rig?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('CSV export', () => {
  it('downloads every row of the filtered list of 10,000', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/exports/contact?filter=${encodeURIComponent(JSON.stringify({ status: '0' }))}`));
      const main = page.getByRole('main');
      await main.getByText('Contact 9997').waitFor();
      const downloading = page.waitForEvent('download');
      await main.getByRole('button', { name: '导出' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^export_contact-\d{4}-\d{2}-\d{2}\.csv$/);
      const file = await download.path();
      const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).toBe('ID,名称,状态');
      const rows = lines.slice(1);
      expect(rows).toHaveLength(ROWS / 4);
      expect(rows.every((line) => line.endsWith(',禁用'))).toBe(true);
      // Newest first, as the list shows them.
      expect(rows[0]).toBe('9997,Contact 9997,禁用');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
