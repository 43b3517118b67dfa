// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { HttpError, ResourceDefinitionContextProvider, type RaRecord, type TranslationMessages } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import enGenerated from '../../../locales/en/admin/generated.json';
import zhGenerated from '../../../locales/zh-cn/admin/generated.json';
import enPages from '../../../locales/en/common/pages.json';
import zhPages from '../../../locales/zh-cn/common/pages.json';
import zhReactAdmin from '../../../locales/zh-cn/common/react-admin.json';
import { resourceFor } from '../../../src/client/admin/resources/index.js';
import { mergePacks, type MessagePack } from '../../../src/client/i18n/translate.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * Add and edit in a dialog over the list: a title, Cancel, Esc, a close button; Save always
 * enabled, the schema's messages on the fields when pressed, the server's refusal on its field.
 */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const RESOURCE = 'routine/mailTemplate';
const row = { id: 4, event: 'user_register', subject: 'Welcome', content: 'Hello', status: '1', update_time: 1_700_000_000, create_time: 1_690_000_000 };

/** The add or edit dialog at `path`, or the list alone without one. */
function open(path: string | undefined, language?: 'en' | 'zh-cn', rows: RaRecord[] = [row]) {
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows });
  // The list draws the add and edit dialogs at their paths.
  const Screen = resourceFor(schema('system/mail_template')).list;
  // The app's own messages, and the menu's (plural) title as the resource's label, as in the back office.
  const messages = { en: mergePacks(englishMessages as unknown as MessagePack, enGenerated, enPages), 'zh-cn': mergePacks(zhReactAdmin as MessagePack, zhGenerated, zhPages) };
  const i18nProvider = language ? polyglotI18nProvider(() => messages[language] as unknown as TranslationMessages, language, [], { allowMissing: true }) : undefined;
  const label = language === 'zh-cn' ? '邮件模板管理' : 'Mail templates';
  const wrapper = (children: React.ReactNode) => (
    <ResourceDefinitionContextProvider definitions={{ [RESOURCE]: { name: RESOURCE, options: { label }, hasCreate: true, hasEdit: true } }}>{children}</ResourceDefinitionContextProvider>
  );
  renderScreen(<Screen />, { resource: RESOURCE, dataProvider, path, resourceRoute: true, i18nProvider, wrapper });
  return dataProvider;
}

describe('form dialogs', () => {
  it('opens add over the list with a title, and shows what is missing when Save is pressed at once', async () => {
    const dataProvider = open(`/${RESOURCE}/create`);
    const dialog = await screen.findByRole('dialog', { name: 'Add mail template' });
    // The list stays behind the dialog.
    expect(await screen.findByText('Welcome')).toBeTruthy();
    // the form's code arrives when the dialog opens
    const save = (await within(dialog).findByRole('button', { name: 'Save' })) as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await within(dialog).findByText('Subject cannot be empty')).toBeTruthy();
    expect(dataProvider.create).not.toHaveBeenCalled();
  });

  it('closes with Cancel, with Esc and with the close button', async () => {
    for (const close of ['Cancel', 'Escape', 'Close']) {
      open(`/${RESOURCE}/4`);
      const dialog = await screen.findByRole('dialog', { name: 'Edit mail template' });
      await within(dialog).findByDisplayValue('Welcome');
      if (close === 'Escape') fireEvent.keyDown(dialog, { key: 'Escape' });
      else fireEvent.click(within(dialog).getByRole('button', { name: close }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      cleanup();
    }
  });

  it.each([
    ['en', enPages.a11y.discard],
    ['zh-cn', zhPages.a11y.discard],
  ] as const)('asks before dropping typed input, on Esc, Cancel and the close button (%s)', async (language, words) => {
    const dataProvider = open(`/${RESOURCE}/4`, language);
    const dialog = await screen.findByRole('dialog', { name: language === 'en' ? 'Edit mail template' : '编辑邮件模板' });
    const subject = await within(dialog).findByDisplayValue('Welcome');
    fireEvent.change(subject, { target: { value: 'Welcome aboard' } });
    const closers = [
      () => fireEvent.keyDown(dialog, { key: 'Escape' }),
      () => fireEvent.click(within(dialog).getByRole('button', { name: language === 'en' ? 'Cancel' : '取消' })),
      () => fireEvent.click(within(dialog).getByRole('button', { name: language === 'en' ? 'Close' : '关闭' })),
    ];
    for (const close of closers) {
      close();
      const ask = await screen.findByRole('alertdialog', { name: words.title });
      fireEvent.click(within(ask).getByRole('button', { name: words.keep }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect((within(dialog).getByDisplayValue('Welcome aboard') as HTMLInputElement).value).toBe('Welcome aboard');
    }
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: words.title })).getByRole('button', { name: words.discard }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: language === 'en' ? 'Edit mail template' : '编辑邮件模板' })).toBeNull());
    expect(dataProvider.update).not.toHaveBeenCalled();
  });

  it.each([
    ['en', 'Add mail template', 'Mail template created', 'Edit mail template', 'Mail template saved'],
    ['zh-cn', '添加邮件模板', '邮件模板已创建', '编辑邮件模板', '邮件模板已保存'],
  ] as const)('names one row by the schema’s singular title, in its title and its save message (%s)', async (language, addTitle, created, editTitle, saved) => {
    const dataProvider = open(`/${RESOURCE}/create`, language);
    let dialog = await screen.findByRole('dialog', { name: addTitle });
    fireEvent.mouseDown(await within(dialog).findByRole('combobox'));
    fireEvent.click((await screen.findAllByRole('option')).filter((option) => option.textContent !== '')[0]);
    const [subject, content] = within(dialog).getAllByRole('textbox');
    fireEvent.change(subject, { target: { value: 'Hello' } });
    fireEvent.change(content, { target: { value: 'Body' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /Save|保存/ }));
    expect(await screen.findByText(created)).toBeTruthy();
    expect(dataProvider.create).toHaveBeenCalled();
    cleanup();

    open(`/${RESOURCE}/4`, language);
    dialog = await screen.findByRole('dialog', { name: editTitle });
    fireEvent.change(await within(dialog).findByDisplayValue('Welcome'), { target: { value: 'Hi' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /Save|保存/ }));
    expect(await screen.findByText(saved)).toBeTruthy();
  });

  it.each([
    ['en', 'Delete', 'Confirm', 'Mail template deleted'],
    ['zh-cn', '删除', '确认', '已删除 1 条邮件模板'],
  ] as const)('names the deleted row by the schema’s singular title (%s)', async (language, remove, confirm, deleted) => {
    const dataProvider = open(undefined, language);
    const row = (await screen.findByText('Welcome')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: remove }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: confirm }));
    expect(await screen.findByText(deleted)).toBeTruthy();
    expect(dataProvider.delete).toHaveBeenCalled();
  });

  it.each([
    ['en', 'Delete', 'Delete Mail template #4', 'Are you sure you want to delete this Mail template?'],
    ['zh-cn', '删除', '删除邮件模板 #4', '确定要删除这条邮件模板吗？'],
  ] as const)('asks before deleting a row in react-admin’s words, naming it by the schema’s title (%s)', async (language, remove, title, question) => {
    const dataProvider = open(undefined, language);
    const row = (await screen.findByText('Welcome')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: remove }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(within(dialog).getByText(question)).toBeTruthy();
    // Cancel closes it and deletes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: /Cancel|取消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dataProvider.delete).not.toHaveBeenCalled();
  });

  it.each([
    ['en', 'Delete', 'Confirm', '2 mail template rows deleted', 'Delete 2 mail template rows', 'Are you sure you want to delete these 2 mail template rows?'],
    ['zh-cn', '删除', '确认', '已删除 2 条邮件模板', '删除 2 条邮件模板', '确定要删除这 2 条邮件模板吗？'],
  ] as const)('asks before a bulk delete naming the rows by the schema’s title, and says how many were removed (%s)', async (language, remove, confirm, deleted, question, content) => {
    const dataProvider = open(undefined, language, [row, { ...row, id: 5, subject: 'Goodbye' }]);
    for (const subject of ['Welcome', 'Goodbye']) {
      fireEvent.click(within((await screen.findByText(subject)).closest('tr') as HTMLElement).getByRole('checkbox'));
    }
    const toolbar = (await screen.findAllByRole('button', { name: remove })).find((button) => !button.closest('tbody')) as HTMLElement;
    fireEvent.click(toolbar);
    const dialog = await screen.findByRole('dialog', { name: question });
    expect(within(dialog).getByText(content)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: confirm }));
    expect(await screen.findByText(deleted)).toBeTruthy();
    expect(dataProvider.deleteMany).toHaveBeenCalled();
  });

  it('shows the server’s refusal on its field and stays open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dataProvider = open(`/${RESOURCE}/4`);
    dataProvider.update.mockRejectedValueOnce(new HttpError('Subject already exists', 200, { code: 0, msg: 'Subject already exists', time: 0, data: { field: 'subject' } }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit mail template' });
    fireEvent.change(await within(dialog).findByDisplayValue('Welcome'), { target: { value: 'Hi' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const message = await within(dialog).findByText('Subject already exists');
    expect(message.closest('.MuiFormControl-root')?.querySelector('input')?.getAttribute('name')).toBe('subject');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
