import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * A schema written after the client was built gets its screens at the next start (issue 8): the back
 * office draws them from the definitions the server sends with the menus, not from its bundle.
 */

const PRODUCT_SCHEMA = {
  $id: 'shop/product',
  title: 'Product',
  type: 'object',
  'x-table': 'shop_product',
  'x-controller': 'shop.Product',
  'x-menu': { title: 'Products', icon: 'fa fa-cube' },
  'x-list': { quickSearch: ['name', 'sku'], defaultSort: 'weigh,desc', weighField: 'weigh' },
  required: ['name', 'sku'],
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true },
    name: { type: 'string', title: 'Name', maxLength: 60, 'x-ui': { list: true } },
    sku: { type: 'string', title: 'SKU', maxLength: 20, pattern: '^[A-Z]{2}-\\d{3}$', 'x-unique': true, 'x-ui': { list: true } },
    stock: { type: 'integer', title: 'Stock', minimum: 0, default: 0, 'x-ui': { list: true, search: 'RANGE' } },
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
  rig = await startRig({}, schemas);
});

afterAll(async () => {
  await rig?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('screens from a schema at run time', () => {
  it('lists, adds and validates a resource the client bundle has never seen', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.getByRole('navigation', { name: 'menu' }).getByRole('button', { name: 'Products' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      const main = page.getByRole('main');
      const form = page.getByRole('dialog');
      // The toolbar's add button (an empty list offers a second one in its body).
      await main.getByRole('link', { name: '新建' }).first().click();
      await page.waitForURL(adminPath('/shop/product/create'));
      await form.getByRole('textbox', { name: '名称', exact: true }).fill('Green tea');
      await form.getByRole('textbox', { name: 'SKU', exact: true }).fill('bad sku');
      await form.getByRole('button', { name: '保存' }).click();
      // The schema's pattern is checked by the server; the refusal shows on the field and nothing is written.
      await form.locator('input[name="sku"][aria-invalid="true"]').waitFor();
      expect(await rig.server.server.app.db.selectFrom('shop_product').selectAll().execute()).toEqual([]);
      await form.getByRole('textbox', { name: 'SKU', exact: true }).fill('GT-001');
      await form.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      await main.getByRole('row').filter({ hasText: 'GT-001' }).getByRole('cell', { name: 'Green tea', exact: true }).waitFor();
      expect(await page.goto(url(rig.server, `${ADMIN_BASE}/shop/product`)).then((response) => response?.status())).toBe(200);
      await main.getByRole('row').filter({ hasText: 'GT-001' }).waitFor();

      // The forms are dialogs over the list: Esc closes the edit one, Cancel the add one.
      await main.getByRole('row').filter({ hasText: 'GT-001' }).getByRole('link', { name: '编辑' }).click();
      await page.getByRole('dialog', { name: '编辑Products' }).getByRole('textbox', { name: 'SKU', exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.waitForURL(adminPath('/shop/product'));
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await main.getByRole('link', { name: '新建' }).first().click();
      await page.getByRole('dialog', { name: '添加Products' }).getByRole('button', { name: '取消' }).click();
      await page.waitForURL(adminPath('/shop/product'));
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
