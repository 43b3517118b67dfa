// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import moduleEn from '../../../locales/en/admin/module.json';
import moduleZh from '../../../locales/zh-cn/admin/module.json';
import generatedEn from '../../../locales/en/admin/generated.json';
import { resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { ModuleStorePage } from '../../../src/client/admin/pages/module-store/ModuleStorePage.js';
import { conflictLines, moduleText } from '../../../src/client/admin/pages/module-store/module-model.js';
import { fakeDataProvider, renderScreen } from '../resources/support.js';
import { ADMIN_API, fail, http, ok, sampleBootstrap, useEnglish } from '../shell/support.js';

/**
 * The module store screen against a fake server in BuildAdmin's shapes: the list with its state chips
 * and texts in the page language, the confirmations (uninstall's "drop the data"), refusals and the
 * conflict list inside the dialog, enable as BuildAdmin's two calls, and focus back on the module.
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  setBootstrap(sampleBootstrap());
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetBootstrap();
});
afterAll(() => server.close());

const MODULES = [
  { uid: 'notice', title: { 'zh-cn': '公告', en: 'Announcements' }, description: { 'zh-cn': '给会员的公告', en: 'News shown to members' }, version: '1.0.0', author: 'Chidao', state: 0 },
  { uid: 'faq', title: { 'zh-cn': '帮助中心', en: 'Help centre' }, description: { 'zh-cn': '常见问题', en: 'Questions and answers' }, version: '1.2.0', author: 'Chidao', state: 6 },
  { uid: 'ticket', title: { 'zh-cn': '工单' }, description: '', version: '0.9.0', state: 1 },
];

function i18n(locale: 'en' | 'zh-cn') {
  const pack = { ...englishMessages, ...(locale === 'en' ? moduleEn : moduleZh), ...generatedEn };
  return polyglotI18nProvider(() => pack, locale, [{ locale, name: locale }], { allowMissing: true });
}

function renderStore(locale: 'en' | 'zh-cn' = 'en') {
  const load = vi.fn(async () => sampleBootstrap());
  renderScreen(<ModuleStorePage load={load} />, { resource: 'moduleStore', dataProvider: fakeDataProvider({}), i18nProvider: i18n(locale), locale });
  return { load };
}

const card = (name: string) => screen.getByRole('article', { name });

describe('the module store screen', () => {
  it('lists every module with its state and its texts in the page language, and only the actions its state allows', async () => {
    server.use(http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: MODULES })));
    renderStore();
    const notice = await screen.findByRole('article', { name: 'Announcements' });
    expect(within(notice).getByText('Not installed')).toBeTruthy();
    expect(within(notice).getByText('News shown to members')).toBeTruthy();
    expect(within(notice).getByText('Version 1.0.0 · by Chidao')).toBeTruthy();
    expect(within(notice).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Install: Announcements']);
    const faq = card('Help centre');
    expect(within(faq).getByText('Disabled')).toBeTruthy();
    expect(within(faq).getAllByRole('button').map((button) => button.textContent)).toEqual(['Enable', 'Uninstall']);
    // A module that wrote only Chinese shows that rather than nothing.
    const ticket = card('工单');
    expect(within(ticket).getByText('Installed')).toBeTruthy();
    expect(within(ticket).getAllByRole('button').map((button) => button.textContent)).toEqual(['Disable']);
  });

  it('speaks Chinese on a Chinese page', async () => {
    server.use(http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: MODULES })));
    renderStore('zh-cn');
    const notice = await screen.findByRole('article', { name: '公告' });
    expect(within(notice).getByText('未安装')).toBeTruthy();
    expect(within(notice).getByText('给会员的公告')).toBeTruthy();
    expect(within(notice).getByRole('button', { name: '安装: 公告' })).toBeTruthy();
  });

  it('uninstalls with "drop the data" only after saying the rows are gone for good; a refusal stays in the dialog; cancel returns focus', async () => {
    const asked: string[] = [];
    let refuse = true;
    let modules = MODULES;
    server.use(
      http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: modules })),
      http.post(`${ADMIN_API}/module/uninstall`, ({ request }) => {
        asked.push(new URL(request.url).search);
        if (refuse) return fail('Please disable the module first');
        modules = MODULES.filter((module) => module.uid !== 'faq');
        return ok(null);
      }),
    );
    renderStore();
    const uninstall = await screen.findByRole('button', { name: 'Uninstall: Help centre' });
    uninstall.focus();
    fireEvent.click(uninstall);
    let dialog = await screen.findByRole('dialog', { name: 'Uninstall "Help centre"?' });
    expect(within(dialog).queryByText(/gone for good/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Also drop the data' }));
    expect(within(dialog).getByText(/gone for good: this cannot be undone/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    expect((await within(dialog).findByText('Please disable the module first')).closest('[role="alert"]')).toBeTruthy();
    expect(asked).toEqual(['?uid=faq&dropData=1']);
    // Cancel: the dialog goes, focus is back on the button that opened it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Uninstall: Help centre' })));

    // Keeping the data sends no dropData; the module leaves the list.
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Uninstall: Help centre' }));
    dialog = await screen.findByRole('dialog', { name: 'Uninstall "Help centre"?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    expect((await screen.findByRole('status')).textContent).toContain('"Help centre" is uninstalled.');
    expect(asked[1]).toBe('?uid=faq');
    expect(screen.queryByRole('article', { name: 'Help centre' })).toBeNull();
  });

  it('shows what an install changes before it, and the conflict list of a refused install inside the dialog', async () => {
    server.use(
      http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: MODULES })),
      http.get(`${ADMIN_API}/module/preview`, () => ok({ info: MODULES[0], migration: { steps: ['create table notice (id, title)'], destructive: [] }, conflicts: [], missing: [], problem: '' })),
      // The clash as our server answers it: its own list (kinds, names and words in the page language), and BuildAdmin's fileConflict repeating it.
      http.post(`${ADMIN_API}/module/install`, () =>
        fail('The module clashes with what is installed: table notice (a table of the database)', -1, {
          uid: 'notice', state: 2,
          conflicts: [{ kind: 'table', item: 'notice', ownerKind: 'databaseTable', ownerRef: '', name: 'table notice', owner: 'a table of the database', message: 'table notice (a table of the database)' }],
          fileConflict: [{ newFile: 'table notice', oldFile: 'a table of the database', solution: 'cover' }], dependConflict: [],
        }),
      ),
    );
    renderStore();
    fireEvent.click(await screen.findByRole('button', { name: 'Install: Announcements' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install "Announcements"?' });
    // The description in the page language and the database changes, before the admin confirms.
    expect(within(dialog).getByText('News shown to members')).toBeTruthy();
    const steps = await within(dialog).findByRole('list', { name: 'Changes to the database' });
    expect(within(steps).getByText('create table notice (id, title)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Install now' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The module clashes with what is installed: table notice (a table of the database)');
    const conflicts = within(dialog).getByRole('list', { name: 'In the way of this module:' });
    expect(within(conflicts).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['table notice (a table of the database)']);
    expect((within(dialog).getByRole('button', { name: 'Install now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('holds an install back while a required module is missing', async () => {
    server.use(
      http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: [{ ...MODULES[0], requires: ['faq'] }] })),
      http.get(`${ADMIN_API}/module/preview`, () => ok({ info: MODULES[0], migration: { steps: [], destructive: [] }, conflicts: [], missing: ['faq'], problem: '' })),
    );
    renderStore();
    expect(await screen.findByText('Needs: faq')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Install: Announcements' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install "Announcements"?' });
    expect(await within(dialog).findByText('Install and enable these modules first: faq')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Install now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('upgrades to an uploaded version only once the admin confirms the steps that lose data', async () => {
    const sent: unknown[] = [];
    const upgrade = { ...MODULES[1], state: 2, version: '1.2.0', newVersion: '2.0.0' };
    server.use(
      http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: [upgrade] })),
      http.get(`${ADMIN_API}/module/preview`, () => ok({ info: upgrade, migration: { steps: ['drop column faq.hits'], destructive: ['column "faq.hits" would be dropped'] }, conflicts: [], missing: [], problem: '' })),
      http.post(`${ADMIN_API}/module/install`, async ({ request }) => {
        sent.push(await request.json());
        return ok({ data: { ...upgrade, state: 1, version: '2.0.0', newVersion: '' } });
      }),
    );
    renderStore();
    expect(await screen.findByText('Version 2.0.0 uploaded: install it to upgrade.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Install: Help centre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade "Help centre" to version 2.0.0?' });
    const losing = await within(dialog).findByRole('list', { name: 'This upgrade loses data:' });
    expect(within(losing).getByText('column "faq.hits" would be dropped')).toBeTruthy();
    const apply = within(dialog).getByRole('button', { name: 'Upgrade now' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand; upgrade anyway' }));
    fireEvent.click(apply);
    expect((await screen.findByRole('status')).textContent).toContain('"Help centre" is upgraded to version 2.0.0.');
    expect(sent).toEqual([{ extend: { confirm: 1 } }]);
  });

  it('enables as BuildAdmin does (state back on, then install), reloads the menus, and puts focus on the module again', async () => {
    const calls: string[] = [];
    let modules = MODULES;
    server.use(
      http.get(`${ADMIN_API}/module/index`, () => ok({ sysVersion: 'v1.0.0', installed: modules })),
      http.post(`${ADMIN_API}/module/changeState`, async ({ request }) => {
        calls.push(`changeState ${JSON.stringify(await request.json())}`);
        return ok({ info: {} });
      }),
      http.post(`${ADMIN_API}/module/install`, async ({ request }) => {
        calls.push(`install ${new URL(request.url).search} ${JSON.stringify(await request.json())}`);
        modules = MODULES.map((module) => (module.uid === 'faq' ? { ...module, state: 1 } : module));
        return ok({ data: {} });
      }),
    );
    const { load } = renderStore();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable: Help centre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable "Help centre"?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enable' }));
    expect((await screen.findByRole('status')).textContent).toContain('"Help centre" is enabled again.');
    expect(calls).toEqual(['changeState {"uid":"faq","state":1}', 'install ?uid=faq {"extend":{}}']);
    expect(load).toHaveBeenCalledOnce();
    expect(within(card('Help centre')).getByText('Installed')).toBeTruthy();
    // The Enable button has gone; focus is on the module's action now offered.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Disable: Help centre' })));
  });

  it('tells an administrator who is not a super admin that the store is not for them, and asks the server nothing', async () => {
    let asked = 0;
    server.use(http.get(`${ADMIN_API}/module/index`, () => {
      asked += 1;
      return ok({ sysVersion: 'v1.0.0', installed: MODULES });
    }));
    setBootstrap({ ...sampleBootstrap(), adminInfo: { ...sampleBootstrap().adminInfo, super: false } });
    renderStore();
    expect(await screen.findByText('Only super administrators can use the module store.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upload module' })).toBeNull();
    expect(asked).toBe(0);
  });
});

describe('module texts and conflicts', () => {
  it('picks the page language, else the other, else nothing', () => {
    expect(moduleText({ 'zh-cn': '公告', en: 'News' }, 'en')).toBe('News');
    expect(moduleText({ 'zh-cn': '公告' }, 'en')).toBe('公告');
    expect(moduleText('Plain', 'zh-cn')).toBe('Plain');
    expect(moduleText(undefined, 'en')).toBe('');
  });

  it('reads conflict rows of every shape, our list first, once each', () => {
    expect(conflictLines({ conflicts: [{ name: 'menu news', owner: 'an existing menu' }, 'table a'], fileConflict: [{ newFile: 'menu news', oldFile: 'an existing menu' }] })).toEqual(['menu news (an existing menu)', 'table a']);
    // our server's rows carry their line in the reader's language, punctuation and all
    const chinese = { kind: 'table', item: 'notice', ownerKind: 'databaseTable', ownerRef: '', name: '数据表 notice', owner: '数据库中已有的数据表', message: '数据表 notice（数据库中已有的数据表）' };
    expect(conflictLines({ conflicts: [chinese], fileConflict: [{ newFile: '数据表 notice', oldFile: '数据库中已有的数据表' }] })).toEqual(['数据表 notice（数据库中已有的数据表）']);
    // BuildAdmin's own rows: the file once when both sides name the same one, and the dependencies.
    expect(conflictLines({ fileConflict: [{ newFile: 'a.json', oldFile: 'a.json' }], dependConflict: [{ newDepend: 'x 2', oldDepend: 'x 1' }] })).toEqual(['a.json', 'x 2 (x 1)']);
    expect(conflictLines(undefined)).toEqual([]);
  });
});
