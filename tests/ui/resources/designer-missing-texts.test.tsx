// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { AdminContext, memoryStore } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import type { TextGap } from '../../../src/client/admin/pages/crud/crud-api.js';
import { MissingTexts } from '../../../src/client/admin/pages/crud/MissingTexts.js';
import crud from '../../../locales/en/admin/crud.json';
import zhCrud from '../../../locales/zh-cn/admin/crud.json';

/** The CRUD designer's note of what a design has in one language only, as the preview answers it (`textGaps`). */

afterEach(cleanup);

const GAPS: TextGap[] = [
  { language: 'zh-cn', at: ['title'], shown: 'Item' },
  { language: 'zh-cn', at: ['fields', 'sku', 'title'], shown: 'SKU' },
  { language: 'zh-cn', at: ['fields', 'name', 'help'], shown: 'What customers see' },
  { language: 'zh-cn', at: ['fields', 'state', 'options', 'on_sale'], shown: 'On sale' },
  { language: 'zh-cn', at: ['menu', 'title'], shown: 'Items' },
  { language: 'en', at: ['fields', 'stock', 'title'], shown: '库存' },
];

function renderNote(messages: object, locale: string, gaps: TextGap[] = GAPS) {
  const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...messages }), locale, [{ locale, name: locale }], { allowMissing: true });
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <MissingTexts gaps={gaps} />
    </AdminContext>,
  );
}

const items = (note: HTMLElement) => within(note).getAllByRole('listitem').map((item) => item.textContent);

describe('the designer’s note of missing texts', () => {
  it('lists, in Chinese, each text with no Chinese and each with no English, where it sits and what shows instead', () => {
    renderNote(zhCrud, 'zh-cn');
    const chinese = screen.getByTestId('missing-texts-zh-cn');
    expect(chinese.getAttribute('role')).toBe('status');
    expect(within(chinese).getByText('还没有中文文本：5 处按另一种语言原样显示')).toBeTruthy();
    expect(items(chinese)).toEqual(['模块标题：“Item”', '字段 sku：名称：“SKU”', '字段 name：说明：“What customers see”', '字段 state：选项 on_sale：“On sale”', '菜单标题：“Items”']);
    const english = screen.getByTestId('missing-texts-en');
    expect(within(english).getByText('还没有英文文本：1 处按另一种语言原样显示')).toBeTruthy();
    expect(items(english)).toEqual(['字段 stock：名称：“库存”']);
  });

  it('says it in English, one text or several', () => {
    renderNote(crud, 'en');
    expect(within(screen.getByTestId('missing-texts-zh-cn')).getByText('No Chinese text yet: 5 texts show as written in the other language')).toBeTruthy();
    expect(within(screen.getByTestId('missing-texts-en')).getByText('No English text yet: 1 text shows as written in the other language')).toBeTruthy();
    expect(items(screen.getByTestId('missing-texts-zh-cn'))[1]).toBe('Field sku: label: “SKU”');
  });

  it('shows nothing when every text is written in both languages', () => {
    renderNote(crud, 'en', []);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
