// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import enCrud from '../../../locales/en/admin/crud.json';
import zhCrud from '../../../locales/zh-cn/admin/crud.json';
import { TAG_COLORS } from '../../../src/contract/value-tags.js';
import { FieldEditor } from '../../../src/client/admin/pages/crud/FieldEditor.js';
import { StartPanel } from '../../../src/client/admin/pages/crud/StartPanel.js';
import { newField } from '../../../src/client/admin/pages/crud/design-model.js';
import { fakeDataProvider, renderScreen } from '../resources/support.js';

/**
 * The designer's screen offers only what the server accepts (issue 40, items 2 and 3): an enum option's
 * colour menu lists exactly the chip colours a schema takes, each by its name in the admin's language;
 * "start from an existing table" lists what the server says can be designed, and says so when nothing can.
 */

const CRUD = '/chidaoadminstator.php/crud.Crud';
const server = setupServer();
let designable: { table: string; comment: string }[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', token: 'admin-token', refresh_token: 'admin-refresh', super: true }));
  server.use(http.get(`${CRUD}/designableTables`, () => HttpResponse.json({ code: 1, msg: '', time: 0, data: { list: designable } })));
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());

function renderIn(locale: 'en' | 'zh-cn', element: React.ReactElement) {
  const messages = { ...englishMessages, ...(locale === 'en' ? enCrud : zhCrud) };
  const i18nProvider = polyglotI18nProvider(() => messages, locale, [{ locale, name: locale }], { allowMissing: true });
  renderScreen(element, { resource: 'crud/crud', dataProvider: fakeDataProvider({}), i18nProvider, locale });
}

describe('the designer’s choices', () => {
  for (const locale of ['zh-cn', 'en'] as const) {
    it(`offers as an option's colour exactly the colours a schema accepts, each named in ${locale}`, async () => {
      const colours = (locale === 'en' ? enCrud : zhCrud).crud.colors as Record<string, string>;
      renderIn(locale, <FieldEditor field={newField('select', 'kind')} onChange={() => undefined} />);
      const [menu] = await screen.findAllByRole('combobox', { name: locale === 'en' ? 'Colour' : '颜色' });
      fireEvent.mouseDown(menu);
      const offered = within(await screen.findByRole('listbox')).getAllByRole('option').map((option) => option.textContent);
      // one entry per colour a schema takes (`default` is the neutral chip, offered as no colour)
      expect(new Set(offered)).toEqual(new Set(TAG_COLORS.map((color) => colours[color])));
      expect(offered).toHaveLength(TAG_COLORS.length);
      for (const name of offered) expect(name).not.toMatch(/crud\.|^[a-z]+$/);
    });
  }

  it('lists only the tables the server offers to design, and says when there is none', async () => {
    designable = [{ table: 'legacy_notes', comment: '' }, { table: 'shop_goods', comment: 'Goods' }];
    renderIn('en', <StartPanel onStart={() => undefined} />);
    const picker = await screen.findByRole('combobox', { name: 'Table' });
    fireEvent.mouseDown(picker);
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['legacy_notes', 'shop_goods (Goods)']);
    expect(options.every((option) => option.getAttribute('aria-disabled') !== 'true')).toBe(true);
    cleanup();

    designable = [];
    renderIn('zh-cn', <StartPanel onStart={() => undefined} />);
    expect((await screen.findByTestId('crud-no-tables')).textContent).toBe(zhCrud.crud.start.noTables);
    expect(screen.queryByRole('combobox', { name: '数据表' })).toBeNull();
  });
});
