import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * A schema written after the client was built gets its screens at the next start: the back
 * office draws them from the definitions the server sends with the menus, not from its bundle, in the
 * admin's language (the schema's own texts, the glossary's, and a locale file beside the schemas).
 */

const PRODUCT_SCHEMA = {
  $id: 'shop/product',
  title: { 'zh-cn': '商品', en: 'Product' },
  type: 'object',
  'x-table': 'shop_product',
  'x-controller': 'shop.Product',
  'x-menu': { title: { 'zh-cn': '商品管理', en: 'Products' }, icon: 'fa fa-cube' },
  'x-list': { quickSearch: ['name', 'sku'], defaultSort: 'weigh,desc', weighField: 'weigh' },
  required: ['name', 'sku'],
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true },
    name: { type: 'string', title: 'Name', maxLength: 60, 'x-ui': { list: true } },
    sku: { type: 'string', title: 'SKU', maxLength: 20, pattern: '^[A-Z]{2}-\\d{3}$', 'x-unique': true, 'x-ui': { list: true } },
    stock: { type: 'integer', title: 'Stock', minimum: 0, default: 0, 'x-ui': { list: true, search: 'RANGE' } },
    state: {
      type: 'string', title: { 'zh-cn': '状态', en: 'State' }, enum: ['draft', 'on_sale'], default: 'draft',
      'x-ui': { widget: 'radio', render: 'tag', list: true, options: { draft: { 'zh-cn': '草稿', en: 'Draft', color: 'info' }, on_sale: { 'zh-cn': '在售', en: 'On sale', color: 'success' } } },
    },
    weigh: { type: 'integer', title: 'Weigh', default: 0 },
    create_time: { type: ['integer', 'null'], title: 'Create time', readOnly: true },
    update_time: { type: ['integer', 'null'], title: 'Update time', readOnly: true },
  },
};

let rig: E2eRig;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'chidao-runtime-schemas-'));
  const schemas = join(root, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
  mkdirSync(join(schemas, 'shop'));
  writeFileSync(join(schemas, 'shop/product.json'), JSON.stringify(PRODUCT_SCHEMA, null, 2));
  // "Stock" is in no glossary: its Chinese comes from a locale file beside the schemas
  mkdirSync(join(root, 'locales/zh-cn/schemas/shop'), { recursive: true });
  writeFileSync(join(root, 'locales/zh-cn/schemas/shop/product.json'), JSON.stringify({ fields: { stock: '库存' } }));
  rig = await startRig({}, schemas);
});

afterAll(async () => {
  await rig?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('screens from a schema at run time', () => {
  it('lists, adds, validates, edits and deletes a resource the client bundle has never seen', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.getByRole('navigation', { name: '主菜单' }).getByRole('button', { name: '商品管理' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      const main = page.getByRole('main');
      const form = page.getByRole('dialog');
      // The toolbar's add button (an empty list offers a second one in its body).
      await main.getByRole('link', { name: '新建' }).first().click();
      await page.waitForURL(adminPath('/shop/product/create'));
      // BuildAdmin's layout: each label in a column left of its input, on the input's line.
      const nameInput = form.getByRole('textbox', { name: '名称', exact: true });
      const nameLabel = form.locator(`label[for="${await nameInput.getAttribute('id')}"]`);
      const [labelBox, inputBox] = await Promise.all([nameLabel.boundingBox(), nameInput.boundingBox()]);
      expect(labelBox && inputBox && labelBox.x + labelBox.width <= inputBox.x).toBe(true);
      expect(labelBox && inputBox && labelBox.y >= inputBox.y && labelBox.y < inputBox.y + inputBox.height).toBe(true);
      await nameInput.fill('Green tea');
      await form.getByRole('radio', { name: '在售' }).check();
      await form.getByRole('textbox', { name: 'SKU', exact: true }).fill('bad sku');
      await form.getByRole('button', { name: '保存' }).click();
      // The schema's pattern is checked by the server; the refusal shows on the field and nothing is written.
      await form.locator('input[name="sku"][aria-invalid="true"]').waitFor();
      expect(await dynamicDb(rig.server.server.app.db).selectFrom('shop_product').selectAll().execute()).toEqual([]);
      await form.getByRole('textbox', { name: 'SKU', exact: true }).fill('GT-001');
      await form.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      const row = main.getByRole('row').filter({ hasText: 'GT-001' });
      await row.getByRole('cell', { name: 'Green tea', exact: true }).waitFor();
      // Every column in Chinese: the schema's own, the glossary's ("Name" → 名称) and the locale file's.
      const headers = await main.getByRole('columnheader').allTextContents();
      expect(headers.map((text) => text.trim()).filter(Boolean)).toEqual(['操作', '名称', 'SKU', '库存', '状态']);
      // the enum value as its label, on a chip of the schema's colour
      expect(await row.locator('.MuiChip-colorSuccess').textContent()).toBe('在售');
      expect(await page.goto(url(rig.server, `${ADMIN_BASE}/shop/product`)).then((response) => response?.status())).toBe(200);
      await row.waitFor();

      // Edit: the form loads the row, the save reaches the table and the list.
      await row.getByRole('link', { name: '编辑' }).click();
      const editForm = page.getByRole('dialog', { name: '编辑商品' });
      const stock = editForm.getByRole('spinbutton', { name: '库存' });
      await poll(() => stock.inputValue()).toBe('0');
      await stock.fill('12');
      await editForm.getByRole('radio', { name: '草稿' }).check();
      await editForm.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      await row.getByRole('cell', { name: '12', exact: true }).waitFor();
      await row.getByText('草稿').waitFor();
      expect(await dynamicDb(rig.server.server.app.db).selectFrom('shop_product').select(['stock', 'state']).executeTakeFirst()).toEqual({ stock: 12, state: 'draft' });

      // The forms are dialogs over the list: Esc closes the edit one, Cancel the add one.
      await main.getByRole('row').filter({ hasText: 'GT-001' }).getByRole('link', { name: '编辑' }).click();
      await page.getByRole('dialog', { name: '编辑商品' }).getByRole('textbox', { name: 'SKU', exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.waitForURL(adminPath('/shop/product'));
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await main.getByRole('link', { name: '新建' }).first().click();
      await page.getByRole('dialog', { name: '添加商品' }).getByRole('button', { name: '取消' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // Delete, confirming in the dialog: the row leaves the list and the table.
      await row.getByRole('button', { name: '删除' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
      await poll(() => row.count()).toBe(0);
      expect(await dynamicDb(rig.server.server.app.db).selectFrom('shop_product').selectAll().execute()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
