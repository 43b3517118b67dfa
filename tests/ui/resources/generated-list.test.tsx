// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratedList } from '../../../src/client/admin/resources/GeneratedList.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

const admins = [
  {
    id: 1, username: 'admin', nickname: 'Admin', avatar: '/static/images/avatar.png', email: 'admin@buildadmin.com',
    mobile: '18888888888', group_arr: [1], group_name_arr: ['Super group', 'Auditors'], last_login_time: 1717207200,
    last_login_ip: '127.0.0.1', status: '1',
  },
  {
    id: 2, username: 'editor', nickname: 'Editor', avatar: '', email: '', mobile: '', group_arr: [2],
    group_name_arr: ['Editors'], last_login_time: null, last_login_ip: '', status: '0',
  },
];

afterEach(cleanup);

function renderAdmins(allow?: (node: string) => boolean) {
  const dataProvider = fakeDataProvider({ 'auth/admin': admins });
  renderScreen(<GeneratedList definition={schema('system/admin')} />, { resource: 'auth/admin', dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

describe('generated list of system/admin', () => {
  it('shows the list columns with tags, a switch and formatted times', async () => {
    renderAdmins();
    expect(await screen.findByText('editor')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent?.trim()).filter(Boolean);
    // the row's actions first, its status beside its name (the nickname), the other columns in schema order
    expect(headers).toEqual(['Actions', 'ID', 'Username', 'Nickname', 'Status', 'Avatar', 'Email', 'Mobile', 'Group name', 'Last login time', 'Last login IP']);
    // group_name_arr renders one tag per group
    expect(screen.getByText('Super group')).toBeTruthy();
    expect(screen.getByText('Auditors')).toBeTruthy();
    // status renders a switch per row, on for "1"
    const switches = screen.getAllByRole('switch', { name: 'Status' }) as HTMLInputElement[];
    expect(switches.map((item) => item.checked)).toEqual([true, false]);
    // last_login_time (Unix seconds) as YYYY-MM-DD HH:mm:ss in local time
    const expected = new Date(1717207200 * 1000);
    const pad = (value: number) => String(value).padStart(2, '0');
    const text = `${expected.getFullYear()}-${pad(expected.getMonth() + 1)}-${pad(expected.getDate())} ${pad(expected.getHours())}:${pad(expected.getMinutes())}:${pad(expected.getSeconds())}`;
    expect(screen.getByText(text)).toBeTruthy();
    // the avatar is an image
    expect(screen.getAllByRole('img', { name: 'Avatar' })[0].getAttribute('src')).toBe('/static/images/avatar.png');
  });

  it('toggling a switch updates that row with {id, status}', async () => {
    const dataProvider = renderAdmins();
    const [first] = (await screen.findAllByRole('switch', { name: 'Status' })) as HTMLInputElement[];
    await waitFor(() => expect(first.disabled).toBe(false));
    fireEvent.click(first);
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalled());
    const [resource, params] = dataProvider.update.mock.calls[0];
    expect(resource).toBe('auth/admin');
    expect(params.id).toBe(1);
    expect(params.data).toEqual({ id: 1, status: '0' });
  });

  it('quick search sends q; an operator filter sends field@OPERATOR', async () => {
    const dataProvider = renderAdmins();
    await screen.findByText('editor');
    fireEvent.change(screen.getByPlaceholderText('Quick search: Username / Nickname'), { target: { value: 'adm' } });
    await waitFor(() => expect(dataProvider.getList.mock.calls.at(-1)?.[1].filter).toEqual({ q: 'adm' }));

    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Email' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Email' }), { target: { value: 'buildadmin' } });
    await waitFor(() => expect(dataProvider.getList.mock.calls.at(-1)?.[1].filter).toEqual({ q: 'adm', 'email@LIKE': 'buildadmin' }));
  });

  it('quick search keeps the other filters, clears with its button, and shows a search removed elsewhere', async () => {
    const dataProvider = renderAdmins();
    await screen.findByText('editor');
    const lastFilter = () => dataProvider.getList.mock.calls.at(-1)?.[1].filter;
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Email' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Email' }), { target: { value: 'buildadmin' } });
    await waitFor(() => expect(lastFilter()).toEqual({ 'email@LIKE': 'buildadmin' }));

    const search = screen.getByPlaceholderText('Quick search: Username / Nickname') as HTMLInputElement;
    fireEvent.change(search, { target: { value: 'adm' } });
    await waitFor(() => expect(lastFilter()).toEqual({ 'email@LIKE': 'buildadmin', q: 'adm' }));
    // The Email filter is still shown beside the search.
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear value' }));
    expect(search.value).toBe('');
    await waitFor(() => expect(lastFilter()).toEqual({ 'email@LIKE': 'buildadmin' }));

    fireEvent.change(search, { target: { value: 'edi' } });
    await waitFor(() => expect(lastFilter()).toEqual({ 'email@LIKE': 'buildadmin', q: 'edi' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove all filters' }));
    await waitFor(() => expect(lastFilter()).toEqual({}));
    await waitFor(() => expect(search.value).toBe(''));
  });

  it('a datetime range filter sends [from, to] under field@RANGE', async () => {
    const dataProvider = renderAdmins();
    await screen.findByText('editor');
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Create time' }));
    fireEvent.change(await screen.findByLabelText('Create time ≥'), { target: { value: '2024-01-01T00:00' } });
    await waitFor(() => expect(dataProvider.getList.mock.calls.at(-1)?.[1].filter).toEqual({ 'create_time@RANGE': ['2024-01-01 00:00:00', ''] }));
  });

  it('sorts by a column through the server', async () => {
    const dataProvider = renderAdmins();
    await screen.findByText('editor');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Username/ })).getByRole('button'));
    await waitFor(() => expect(dataProvider.getList.mock.calls.at(-1)?.[1].sort).toEqual({ field: 'username', order: 'ASC' }));
  });

  it('shows create, edit, delete and selection only to admins allowed to use them', async () => {
    renderAdmins((node) => node === 'auth/admin/list');
    await screen.findByText('editor');
    await waitFor(() => expect(screen.queryAllByRole('switch', { name: 'Status' }).every((item) => (item as HTMLInputElement).disabled)).toBe(true));
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Select all' })).toBeNull();
  });

  it('shows them when allowed', async () => {
    renderAdmins();
    await screen.findByText('editor');
    const rows = screen.getAllByRole('row').slice(1);
    await waitFor(() => expect(rows.map((row) => within(row).queryByRole('button', { name: 'Delete' })).every(Boolean)).toBe(true));
    expect(rows.map((row) => within(row).queryByRole('link', { name: 'Edit' })).every(Boolean)).toBe(true);
    expect(screen.getByRole('link', { name: 'Create' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeTruthy();
  });
});

describe('details of a row the admin cannot edit', () => {
  const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 with a long tail that a list cell cuts';
  const logs = [
    {
      id: 7, admin_id: 1, username: 'admin', url: '/chidaoadminstator.php/auth.Admin/edit', title: 'Admins-Edit',
      data: '{"id":2,"nickname":"Chief","password":"***"}', ip: '127.0.0.1', useragent: USER_AGENT, create_time: 1717207200,
    },
  ];

  it('shows every field of a log row: long text whole, JSON indented', async () => {
    const dataProvider = fakeDataProvider({ 'auth/adminLog': logs });
    renderScreen(<GeneratedList definition={schema('system/admin_log')} />, { resource: 'auth/adminLog', dataProvider, authProvider: fakeAuthProvider((node) => node.endsWith('/list')) });
    fireEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Details' });
    const rows = within(dialog).getAllByRole('row').map((row) => within(row).getByRole('rowheader').textContent);
    expect(rows).toEqual(['ID', 'Admin ID', 'Username', 'URL', 'Title', 'Request data', 'IP', 'Request ID', 'User agent', 'Create time']);
    expect(within(dialog).getByText(USER_AGENT)).toBeTruthy();
    expect(within(dialog).getByText(/"nickname": "Chief"/).textContent).toBe(JSON.stringify({ id: 2, nickname: 'Chief', password: '***' }, null, 2));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('never shows write-only fields, and is not offered where the row can be edited', async () => {
    renderAdmins((node) => node === 'auth/admin/list');
    await screen.findByText('editor');
    fireEvent.click(screen.getAllByRole('button', { name: 'Details' })[1]);
    const dialog = await screen.findByRole('dialog', { name: 'Details' });
    const headers = within(dialog).getAllByRole('rowheader').map((cell) => cell.textContent);
    expect(headers).toContain('Username');
    expect(headers).not.toContain('Password');
    expect(headers).not.toContain('Salt');
    expect(within(dialog).getByText('editor')).toBeTruthy();
    cleanup();

    renderAdmins();
    await screen.findByText('editor');
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Edit' })).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull();
  });
});
