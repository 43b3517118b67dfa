// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratedCreate } from '../../../src/client/admin/resources/GeneratedCreate.js';
import { GeneratedList } from '../../../src/client/admin/resources/GeneratedList.js';
import { schemaGlossary } from '../../../src/schema/load-files.js';
import { normaliseResource, type RawResourceSchema } from '../../../src/schema/normalise.js';
import { fakeDataProvider, renderScreen } from './support.js';

/**
 * A schema written in both languages draws its screens in the admin's language: column
 * titles, enum labels on their chips (in the colour the schema gives), and help under the input.
 */
const product = normaliseResource('schemas/shop/product.json', {
  $id: 'shop/product',
  title: { 'zh-cn': '商品', en: 'Product' },
  type: 'object',
  'x-table': 'shop_product',
  'x-controller': 'shop.Product',
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true, 'x-ui': { list: true } },
    name: { type: 'string', maxLength: 100, title: { 'zh-cn': '名称', en: 'Name' }, description: { 'zh-cn': '顾客看到的名称', en: 'What customers see' }, 'x-ui': { list: true } },
    state: {
      type: 'string', title: { 'zh-cn': '状态', en: 'State' }, enum: ['draft', 'on_sale'], default: 'draft',
      'x-ui': { render: 'tag', widget: 'radio', list: true, options: { draft: { 'zh-cn': '草稿', en: 'Draft', color: 'danger' }, on_sale: { 'zh-cn': '在售', en: 'On sale', color: 'success' } } },
    },
  },
} as RawResourceSchema);

const rows = [
  { id: 1, name: 'Lamp', state: 'draft' },
  { id: 2, name: 'Desk', state: 'on_sale' },
];

afterEach(cleanup);

describe('a schema in both languages', () => {
  it.each([
    ['zh-cn', ['ID', '名称', '状态'], ['草稿', '在售']],
    ['en', ['ID', 'Name', 'State'], ['Draft', 'On sale']],
  ])('lists its columns and enum labels in %s', async (locale, headers, labels) => {
    renderScreen(<GeneratedList definition={product} />, { resource: 'shop/product', dataProvider: fakeDataProvider({ 'shop/product': rows }), locale });
    expect(await screen.findByText('Lamp')).toBeTruthy();
    const shown = screen.getAllByRole('columnheader').map((cell) => cell.textContent?.trim()).filter(Boolean);
    // the schema's columns after the row's actions
    expect(shown.slice(1, 4)).toEqual(headers);
    const [draft, onSale] = labels.map((label) => screen.getByText(label).closest('.MuiChip-root') as HTMLElement);
    // the schema's colours: danger (MUI's error) and success
    expect(draft.className).toContain('MuiChip-colorError');
    expect(onSale.className).toContain('MuiChip-colorSuccess');
  });

  it('puts its help under the input, in the admin\'s language', async () => {
    renderScreen(<GeneratedCreate definition={product} />, { resource: 'shop/product', dataProvider: fakeDataProvider({ 'shop/product': [] }), locale: 'zh-cn' });
    const input = await screen.findByLabelText('名称', { exact: false, selector: 'input' });
    const wrapper = input.closest('.MuiFormControl-root') as HTMLElement;
    expect(within(wrapper).getByText('顾客看到的名称')).toBeTruthy();
    expect(screen.getByRole('radio', { name: '在售' })).toBeTruthy();
  });
});

/**
 * A schema written in English only (as an operator may write one) reads the same in the Chinese back
 * office: every title as written, with the project's glossary at hand ("Name" and "State" are in it).
 */
const englishOnly = (title: RawResourceSchema['title']) =>
  normaliseResource(
    'schemas/shop/item.json',
    {
      $id: 'shop/item',
      title,
      type: 'object',
      'x-table': 'shop_item',
      'x-controller': 'shop.Item',
      properties: {
        sku: { type: 'string', maxLength: 20, title: 'SKU', 'x-ui': { list: true } },
        name: { type: 'string', maxLength: 100, title: 'Name', 'x-ui': { list: true } },
        price: { type: 'string', format: 'money', title: 'Price', 'x-ui': { list: true } },
        stock: { type: 'integer', title: 'Stock', 'x-ui': { list: true } },
        state: { type: 'string', title: 'State', enum: ['draft', 'on_sale'], default: 'draft', 'x-ui': { render: 'tag', list: true, options: { draft: 'Draft', on_sale: 'On sale' } } },
        manager: { type: 'string', maxLength: 50, title: 'Manager', 'x-ui': { list: true } },
        id: { type: 'integer', title: 'ID', readOnly: true },
      },
    } as RawResourceSchema,
    { glossary: schemaGlossary() },
  );

describe('a schema in English only, in the Chinese back office', () => {
  const items = [{ id: 1, sku: 'LMP-1', name: 'Lamp', price: '12.50', stock: 3, state: 'draft', manager: 'Ann' }];
  /** the schema's column titles, after the row's actions */
  const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent?.trim()).filter(Boolean).slice(1);

  it('shows every title and label as written, none of them translated by the glossary', async () => {
    renderScreen(<GeneratedList definition={englishOnly('Item')} />, { resource: 'shop/item', dataProvider: fakeDataProvider({ 'shop/item': items }), locale: 'zh-cn' });
    expect(await screen.findByText('Lamp')).toBeTruthy();
    expect(headers().slice(0, 6)).toEqual(['SKU', 'Name', 'Price', 'Stock', 'State', 'Manager']);
    expect(screen.getByText('Draft').closest('.MuiChip-root')).toBeTruthy();
    expect(screen.queryByText('名称')).toBeNull();
    expect(screen.queryByText('状态')).toBeNull();
  });

  it('lets the glossary fill in the words it knows once the schema writes Chinese itself', async () => {
    renderScreen(<GeneratedList definition={englishOnly({ 'zh-cn': '商品', en: 'Item' })} />, { resource: 'shop/item', dataProvider: fakeDataProvider({ 'shop/item': items }), locale: 'zh-cn' });
    expect(await screen.findByText('Lamp')).toBeTruthy();
    expect(headers().slice(0, 6)).toEqual(['SKU', '名称', 'Price', 'Stock', '状态', 'Manager']);
  });
});
