import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../../src/contract/headers.js';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';
import type { LocalText } from '../../../src/schema/local-text.js';
import { translationWarnings } from '../../../scripts/gen-types.js';

/**
 * A schema's texts in both languages: titles, help, enum labels and menu titles, from the
 * schema itself, its locale files (`locales/<lang>/schemas/<id>.json`) or, in a schema written in both
 * languages, the shared glossary. A text one language lacks borrows the other's and `npm run gen` lists
 * it; the project's schemas lack none.
 */

const CHINESE = /[\u3400-\u9fff]/;
/** Written the same in Chinese: codes and abbreviations (BuildAdmin writes "Iframe" in Chinese too). */
// Codes, and the survey suppliers' names, which Chinese texts write as the companies do.
const SUPPLIER_NAMES = ['PureSpectrum', 'Dynata REX', 'Toluna', 'InnovateMR', 'TapResearch', 'Pollfish', 'BitLabs', 'CPX Research', 'TheoremReach', 'ayeT Studios'];
const SAME_IN_CHINESE = new Set(['ID', 'IP', 'User-Agent', 'RID', 'URL', 'Token', 'SHA1', 'HMAC-SHA256', 'Iframe', 'JSON', ...SUPPLIER_NAMES]);

interface ShownText {
  where: string;
  text: LocalText;
}

/** Every text a generated screen shows from a definition. */
function textsOf(definition: ResourceDefinition): ShownText[] {
  const texts: ShownText[] = [{ where: `${definition.id} title`, text: definition.title }];
  if (definition.menu) {
    texts.push({ where: `${definition.id} menu`, text: definition.menu.title });
    if (definition.menu.parentDirectory) texts.push({ where: `${definition.id} menu directory`, text: definition.menu.parentDirectory.title });
  }
  for (const field of definition.fields) {
    texts.push({ where: `${definition.id}.${field.name} title`, text: field.title });
    if (field.help) texts.push({ where: `${definition.id}.${field.name} help`, text: field.help });
    for (const [value, label] of Object.entries(field.ui.options ?? {})) texts.push({ where: `${definition.id}.${field.name} option ${value}`, text: label });
  }
  return texts;
}

describe("the project's schemas", () => {
  const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));
  const all = definitions.flatMap(textsOf);

  it('give every text in both languages, borrowing none', () => {
    expect(all.length).toBeGreaterThan(400);
    expect(definitions.flatMap((definition) => definition.textGaps)).toEqual([]);
    expect(translationWarnings(definitions)).toEqual([]);
  });

  it('show no English in Chinese screens and no Chinese in English ones', () => {
    const english = all.filter(({ text }) => !CHINESE.test(text['zh-cn']) && !SAME_IN_CHINESE.has(text['zh-cn']) && /[A-Za-z]{2}/.test(text['zh-cn']));
    expect(english.map(({ where, text }) => `${where}: ${text['zh-cn']}`)).toEqual([]);
    const chinese = all.filter(({ text }) => CHINESE.test(text.en));
    expect(chinese.map(({ where, text }) => `${where}: ${text.en}`)).toEqual([]);
  });

  it('send their types the English titles', () => {
    const admin = definitions.find((definition) => definition.id === 'system/admin') as ResourceDefinition;
    expect((admin.rowSchema.properties as Record<string, { title: string }>).username.title).toBe('Username');
    expect(admin.rowSchema.title).toBe('Administrator');
  });
});

describe('a new schema', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function project(files: Record<string, unknown>): string {
    root = mkdtempSync(join(tmpdir(), 'schema-texts-'));
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content));
    }
    return join(root, 'schemas');
  }

  const product = {
    $id: 'shop/product',
    title: { 'zh-cn': '商品', en: 'Product' },
    type: 'object',
    'x-table': 'shop_product',
    'x-controller': 'shop.Product',
    'x-menu': { title: { 'zh-cn': '商品管理', en: 'Products' }, icon: 'fa fa-cube' },
    properties: {
      id: { type: 'integer', title: 'ID', readOnly: true },
      name: { type: 'string', title: 'Name', description: { 'zh-cn': '顾客看到的名称', en: 'What customers see' } },
      price: { type: 'string', format: 'money', title: 'Price' },
      stock: { type: 'integer', title: '库存' },
      state: {
        type: 'string', title: { en: 'State', 'zh-cn': '状态' }, enum: ['draft', 'on_sale'], default: 'draft',
        'x-ui': { render: 'tag', options: { draft: { 'zh-cn': '草稿', en: 'Draft', color: 'info' }, on_sale: 'On sale' } },
      },
    },
  };

  const productOf = (dir: string) => loadResourceDefinitions(dir).find((definition) => definition.id === 'shop/product') as ResourceDefinition;
  const field = (definition: ResourceDefinition, name: string) => definition.fields.find((item) => item.name === name);

  it('takes texts written in both languages, English ones the glossary knows, and enum colours', () => {
    const definition = productOf(project({ 'schemas/shop/product.json': product }));
    expect(definition.title).toEqual({ 'zh-cn': '商品', en: 'Product' });
    expect(definition.menu?.title).toEqual({ 'zh-cn': '商品管理', en: 'Products' });
    expect(field(definition, 'name')?.title).toEqual({ 'zh-cn': '名称', en: 'Name' });
    expect(field(definition, 'name')?.help).toEqual({ 'zh-cn': '顾客看到的名称', en: 'What customers see' });
    expect(field(definition, 'state')?.ui.options?.draft).toEqual({ 'zh-cn': '草稿', en: 'Draft' });
    expect(field(definition, 'state')?.ui.colors).toEqual({ draft: 'info' });
  });

  it('borrows what a language lacks and says where, for npm run gen', () => {
    const definition = productOf(project({ 'schemas/shop/product.json': product }));
    // "Price" and "On sale" are in no glossary; "库存" is Chinese only
    expect(field(definition, 'price')?.title).toEqual({ 'zh-cn': 'Price', en: 'Price' });
    expect(field(definition, 'stock')?.title).toEqual({ 'zh-cn': '库存', en: '库存' });
    const gaps = definition.textGaps.map((gap) => `${gap.path} ${gap.missing}`);
    expect(gaps).toEqual(['/properties/price/title zh-cn', '/properties/stock/title en', '/properties/state/x-ui/options/on_sale zh-cn']);
    expect(translationWarnings([definition])).toEqual([
      'warning: schemas/shop/product.json: no zh-cn text for 2 texts, shown as written in the other language (add them in the schema or in locales/zh-cn/schemas/shop/product.json):',
      '  /properties/price/title: "Price"',
      '  /properties/state/x-ui/options/on_sale: "On sale"',
      'warning: schemas/shop/product.json: no en text for 1 text, shown as written in the other language (add it in the schema or in locales/en/schemas/shop/product.json):',
      '  /properties/stock/title: "库存"',
    ]);
  });

  /** A schema written in English only, with words the glossary knows ("Name", "State") beside words it does not. */
  const englishOnly = {
    $id: 'shop/product',
    title: 'Product',
    type: 'object',
    'x-table': 'shop_product',
    'x-controller': 'shop.Product',
    'x-menu': { title: 'Products', icon: 'fa fa-cube' },
    properties: {
      id: { type: 'integer', title: 'ID', readOnly: true },
      sku: { type: 'string', title: 'SKU' },
      name: { type: 'string', title: 'Name', description: 'What customers see' },
      price: { type: 'string', format: 'money', title: 'Price' },
      state: { type: 'string', title: 'State', enum: ['draft', 'on_sale'], default: 'draft', 'x-ui': { options: { draft: 'Draft', on_sale: 'On sale' } } },
    },
  };

  it('shows every text of a schema with no Chinese text as written, the glossary translating none of its words', () => {
    const definition = productOf(project({ 'schemas/shop/product.json': englishOnly }));
    const zh = (name: string) => field(definition, name)?.title['zh-cn'];
    // "Name", "State" and "Draft" are in the glossary (名称, 状态, 草稿): not used here
    expect(['sku', 'name', 'price', 'state'].map(zh)).toEqual(['SKU', 'Name', 'Price', 'State']);
    expect(definition.title).toEqual({ 'zh-cn': 'Product', en: 'Product' });
    expect(field(definition, 'state')?.ui.options).toEqual({ draft: { 'zh-cn': 'Draft', en: 'Draft' }, on_sale: { 'zh-cn': 'On sale', en: 'On sale' } });
    expect(field(definition, 'name')?.help).toEqual({ 'zh-cn': 'What customers see', en: 'What customers see' });
    // every text is listed, none is missing English
    expect(definition.textGaps.every((gap) => gap.missing === 'zh-cn')).toBe(true);
    expect(definition.textGaps.map((gap) => gap.at.join('.'))).toEqual([
      'title', 'fields.id.title', 'fields.sku.title', 'fields.name.help', 'fields.name.title', 'fields.price.title', 'fields.state.title', 'fields.state.options.draft', 'fields.state.options.on_sale', 'menu.title',
    ]);
  });

  it('lists, for npm run gen, every text of a schema with no Chinese text, under one warning naming the file to add them to', () => {
    const lines = translationWarnings([productOf(project({ 'schemas/shop/product.json': englishOnly }))]);
    expect(lines).toEqual([
      'warning: schemas/shop/product.json: no zh-cn text for 10 texts, shown as written in the other language (add them in the schema or in locales/zh-cn/schemas/shop/product.json):',
      '  /title: "Product"',
      '  /properties/id/title: "ID"',
      '  /properties/sku/title: "SKU"',
      '  /properties/name/description: "What customers see"',
      '  /properties/name/title: "Name"',
      '  /properties/price/title: "Price"',
      '  /properties/state/title: "State"',
      '  /properties/state/x-ui/options/draft: "Draft"',
      '  /properties/state/x-ui/options/on_sale: "On sale"',
      '  /x-menu/title: "Products"',
    ]);
  });

  it('lets the glossary fill in once the schema writes Chinese itself, in the file or in its locale file', () => {
    const withLocale = productOf(project({ 'schemas/shop/product.json': englishOnly, 'locales/zh-cn/schemas/shop/product.json': { title: '商品' } }));
    expect(withLocale.title).toEqual({ 'zh-cn': '商品', en: 'Product' });
    expect(field(withLocale, 'name')?.title).toEqual({ 'zh-cn': '名称', en: 'Name' });
    // a word the glossary does not know still borrows, and is listed
    expect(field(withLocale, 'sku')?.title).toEqual({ 'zh-cn': 'SKU', en: 'SKU' });
    expect(withLocale.textGaps.map((gap) => gap.path)).toContain('/properties/sku/title');
  });

  it('takes the locale files beside the schemas over the schema', () => {
    const dir = project({
      'schemas/shop/product.json': product,
      'locales/zh-cn/schemas/shop/product.json': { menu: { title: '商品' }, fields: { price: '价格', stock: { help: '仓库里的件数' }, state: { options: { on_sale: '在售' } } } },
      'locales/en/schemas/shop/product.json': { fields: { stock: { title: 'Stock', help: 'Units in the warehouse' } } },
    });
    const definition = productOf(dir);
    expect(definition.menu?.title).toEqual({ 'zh-cn': '商品', en: 'Products' });
    expect(field(definition, 'price')?.title).toEqual({ 'zh-cn': '价格', en: 'Price' });
    expect(field(definition, 'stock')?.title).toEqual({ 'zh-cn': '库存', en: 'Stock' });
    expect(field(definition, 'stock')?.help).toEqual({ 'zh-cn': '仓库里的件数', en: 'Units in the warehouse' });
    expect(field(definition, 'state')?.ui.options?.on_sale).toEqual({ 'zh-cn': '在售', en: 'On sale' });
    expect(definition.textGaps).toEqual([]);
  });

  it('refuses a locale file naming a field or option the schema does not have, with its path', () => {
    const unknownField = project({ 'schemas/shop/product.json': product, 'locales/en/schemas/shop/product.json': { fields: { colour: 'Colour' } } });
    expect(() => loadResourceDefinitions(unknownField)).toThrow('locales/en/schemas/shop/product.json: /fields/colour: "shop/product" has no field "colour"');
    const badKey = project({ 'schemas/shop/product.json': product, 'locales/zh-cn/schemas/shop/product.json': { feilds: {} } });
    expect(() => loadResourceDefinitions(badKey)).toThrow('locales/zh-cn/schemas/shop/product.json: /feilds: unknown key');
  });

  it('refuses a text object in an unknown language', () => {
    const dir = project({ 'schemas/shop/product.json': { ...product, title: { fr: 'Produit' } } });
    expect(() => loadResourceDefinitions(dir)).toThrow(/schemas\/shop\/product\.json: \/title/);
  });

  it('gives every language some text', () => {
    const definition = productOf(project({ 'schemas/shop/product.json': product }));
    for (const lang of LANGUAGES as readonly Language[]) expect(textsOf(definition).every(({ text }) => text[lang] !== '')).toBe(true);
  });
});
