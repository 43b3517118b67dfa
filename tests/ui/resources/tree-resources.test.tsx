// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resourceFor } from '../../../src/client/admin/resources/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** The admin rule tree as `auth.Rule/index` answers it. */
const ruleTree = [
  {
    id: 1, pid: 0, type: 'menu_dir', title: 'Permission', name: 'auth', icon: 'fa fa-group', weigh: 100, status: '1',
    children: [
      {
        id: 2, pid: 1, type: 'menu', title: 'Admins', name: 'auth/admin', icon: 'el-icon-UserFilled', weigh: 90, status: '1',
        children: [
          { id: 3, pid: 2, type: 'button', title: 'View', name: 'auth/admin/index', icon: '', weigh: 0, status: '1' },
          { id: 4, pid: 2, type: 'button', title: 'Add', name: 'auth/admin/add', icon: '', weigh: 0, status: '1' },
        ],
      },
      { id: 5, pid: 1, type: 'menu', title: 'Admin log', name: 'auth/adminLog', icon: 'fa fa-history', weigh: 80, status: '1' },
    ],
  },
  { id: 6, pid: 0, type: 'menu', title: 'Dashboard', name: 'dashboard', icon: 'fa fa-dashboard', weigh: 110, status: '1' },
];

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function rowOf(title: string): HTMLElement {
  return screen.getByText(title).closest('tr') as HTMLElement;
}

describe('admin rules: a tree list', () => {
  function renderRules(allow?: (node: string) => boolean) {
    const dataProvider = fakeDataProvider({ 'auth/rule': ruleTree });
    const { list: List } = resourceFor(schema('system/admin_rule'));
    renderScreen(<List />, { resource: 'auth/rule', dataProvider, authProvider: fakeAuthProvider(allow) });
    return dataProvider;
  }

  it('renders nested children under their parent, with type tags and icons, and collapses them', async () => {
    const dataProvider = renderRules();
    expect(await screen.findByText('View')).toBeTruthy();
    // unpaginated: the whole tree in one page, in the server's order
    expect(dataProvider.getList.mock.calls[0][1].pagination.perPage).toBeGreaterThanOrEqual(1000);
    const titles = screen.getAllByRole('row').slice(1).map((row) => row.getAttribute('data-depth'));
    expect(titles).toEqual(['0', '1', '2', '2', '1', '0']);
    expect(within(rowOf('Admins')).getByText('Menu item')).toBeTruthy();
    expect(within(rowOf('View')).getByText('Page button')).toBeTruthy();
    expect(rowOf('Admins').querySelector('[data-icon="el-icon-UserFilled"]')).toBeTruthy();

    fireEvent.click(within(rowOf('Admins')).getByRole('button', { name: 'Collapse' }));
    expect(screen.queryByText('View')).toBeNull();
    fireEvent.click(within(rowOf('Permission')).getByRole('button', { name: 'Collapse' }));
    expect(screen.queryByText('Admins')).toBeNull();
    expect(screen.getByText('Dashboard')).toBeTruthy();
  });

  it('drag-sorts within one parent through sortable, and refuses a drop under another parent', async () => {
    const dataProvider = renderRules();
    await screen.findByText('View');
    const handle = (title: string) => within(rowOf(title)).getByRole('button', { name: 'Drag to sort' });

    fireEvent.dragStart(handle('Add'));
    fireEvent.dragOver(rowOf('View'));
    fireEvent.drop(rowOf('View'));
    await waitFor(() => expect(dataProvider.sortable).toHaveBeenCalledWith('auth/rule', { id: 4, targetId: 3 }));

    fireEvent.dragStart(handle('Admin log'));
    fireEvent.dragOver(rowOf('Dashboard'));
    fireEvent.drop(rowOf('Dashboard'));
    expect(await screen.findByText('Rows can only be sorted within the same level')).toBeTruthy();
    expect(dataProvider.sortable).toHaveBeenCalledTimes(1);
  });

  it('shows no drag handle without the sortable node', async () => {
    renderRules((node) => !node.endsWith('/sortable'));
    await screen.findByText('View');
    await waitFor(() => expect(screen.queryAllByRole('button', { name: 'Drag to sort' })).toHaveLength(0));
    expect(within(rowOf('View')).getByRole('link', { name: 'Edit' })).toBeTruthy();
  });

  it('shows every row with its switch, edit and delete buttons at once, and asks the rights of each row only once', async () => {
    const dataProvider = fakeDataProvider({ 'auth/rule': ruleTree });
    const authProvider = fakeAuthProvider();
    const { list: List } = resourceFor(schema('system/admin_rule'));
    renderScreen(<List />, { resource: 'auth/rule', dataProvider, authProvider });
    await screen.findByText('Dashboard');
    // As soon as the rows are there, each has its buttons and a usable switch: none of them appears later.
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(within(row).getByRole('link', { name: 'Edit' })).toBeTruthy();
      expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();
      expect(within(row).getByRole('switch', { name: 'Status' })).toHaveProperty('disabled', false);
    }
    // Collapsing a branch and selecting a row ask nothing again.
    const asked = authProvider.canAccess.mock.calls.length;
    fireEvent.click(within(rowOf('Admins')).getByRole('button', { name: 'Collapse' }));
    fireEvent.click(within(rowOf('Dashboard')).getByRole('checkbox', { name: 'Select this row' }));
    expect(screen.queryByText('View')).toBeNull();
    expect(within(rowOf('Dashboard')).getByRole('checkbox', { name: 'Select this row' })).toHaveProperty('checked', true);
    expect(authProvider.canAccess.mock.calls.length).toBe(asked);
  });
});

describe('admin groups: permissions picked on the rule tree', () => {
  const groups = [{ id: 1, pid: 0, name: 'Super group', rules: 'Super administrator', status: '1', children: [{ id: 2, pid: 1, name: 'Editors', rules: 'View', status: '1' }] }];

  it('checks a menu with all its buttons, half-checks its parents and posts checked plus half-checked ids', async () => {
    const dataProvider = fakeDataProvider({ 'auth/group': groups, 'auth/rule': ruleTree });
    const { create: Create } = resourceFor(schema('system/admin_group'));
    if (!Create) throw new Error('no create screen');
    // While the rules load (held back here until looked at), the spinner in their place says so to a screen reader.
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    const answer = dataProvider.getList.getMockImplementation()!;
    dataProvider.getList.mockImplementation(async (...args: Parameters<typeof answer>) => {
      if (args[0] === 'auth/rule') await held;
      return answer(...args);
    });
    renderScreen(<Create />, { resource: 'auth/group', dataProvider });
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    release();
    const tree = await screen.findByRole('tree', { name: 'Permissions' });
    expect(dataProvider.getList).toHaveBeenCalledWith('auth/rule', expect.anything());
    // In English a schema's menu is named by its schema (`x-menu.title.en`), not by the stored title.
    expect(within(tree).queryByRole('checkbox', { name: 'Admins' })).toBeNull();

    fireEvent.click(within(tree).getByRole('checkbox', { name: 'Administrators' }));
    expect((within(tree).getByRole('checkbox', { name: 'View' }) as HTMLInputElement).checked).toBe(true);
    expect((within(tree).getByRole('checkbox', { name: 'Add' }) as HTMLInputElement).checked).toBe(true);
    const parent = within(tree).getByRole('checkbox', { name: 'Permissions' }) as HTMLInputElement;
    expect(parent.checked).toBe(false);
    expect(parent.getAttribute('data-indeterminate')).toBe('true');

    fireEvent.change(screen.getByLabelText('Group name', { exact: false, selector: 'input' }), { target: { value: 'Auditors' } });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    const { data } = dataProvider.create.mock.calls[0][1];
    expect(data.name).toBe('Auditors');
    expect([...data.rules].sort()).toEqual(['1', '2', '3', '4']);
  });

  it('shows a stored rule set (leaf ids from edit) as checked and half-checked nodes', async () => {
    const dataProvider = fakeDataProvider({
      'auth/group': [{ id: 2, pid: 1, name: 'Editors', rules: ['3', '5'], status: '1' }],
      'auth/rule': ruleTree,
    });
    const { edit: Edit } = resourceFor(schema('system/admin_group'));
    if (!Edit) throw new Error('no edit screen');
    renderScreen(<Edit />, { resource: 'auth/group', dataProvider, path: '/auth/group/2' });
    const tree = await screen.findByRole('tree', { name: 'Permissions' });
    const box = (name: string) => within(tree).getByRole('checkbox', { name }) as HTMLInputElement;
    await waitFor(() => expect(box('View').checked).toBe(true));
    expect(box('Add').checked).toBe(false);
    expect(box('Admin logs').checked).toBe(true);
    expect(box('Administrators').getAttribute('data-indeterminate')).toBe('true');
    expect(box('Permissions').getAttribute('data-indeterminate')).toBe('true');
    expect(box('Dashboard').checked).toBe(false);

    // A save posts the checked and half-checked ids.
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('Group name', { exact: false, selector: 'input' }), { target: { value: 'Editors 2' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalled());
    expect([...dataProvider.update.mock.calls[0][1].data.rules].sort()).toEqual(['1', '2', '3', '5']);
  });

  it('says which read right a granted button needs: Add without View cannot be reached', async () => {
    const dataProvider = fakeDataProvider({
      'auth/group': [{ id: 2, pid: 1, name: 'Adders', rules: ['4'], status: '1' }],
      'auth/rule': ruleTree,
    });
    const { edit: Edit } = resourceFor(schema('system/admin_group'));
    if (!Edit) throw new Error('no edit screen');
    renderScreen(<Edit />, { resource: 'auth/group', dataProvider, path: '/auth/group/2' });
    const tree = await screen.findByRole('tree', { name: 'Permissions' });
    const box = (name: string) => within(tree).getByRole('checkbox', { name }) as HTMLInputElement;
    await waitFor(() => expect(box('Add').checked).toBe(true));
    const note = 'Needs “View” too: without it the page cannot be opened';
    expect(within(tree).getByText(note)).toBeTruthy();
    expect(box('Add').getAttribute('aria-describedby')).toBe(within(tree).getByText(note).id);
    // Granting the read right too: the note goes.
    fireEvent.click(box('View'));
    await waitFor(() => expect(within(tree).queryByText(note)).toBeNull());
  });
});

describe('admin rules: the form follows the rule type', () => {
  it('hides page fields for a button and shows them for a menu', async () => {
    const dataProvider = fakeDataProvider({ 'auth/rule': ruleTree });
    const { create: Create } = resourceFor(schema('system/admin_rule'));
    if (!Create) throw new Error('no create screen');
    renderScreen(<Create />, { resource: 'auth/rule', dataProvider });
    // a new rule is a menu by default: its route, component and icon picker are there
    expect(await screen.findByLabelText('Route path', { exact: false, selector: 'input' })).toBeTruthy();
    expect(screen.getByLabelText('Component', { exact: false, selector: 'input' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose icon' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Page button' }));
    await waitFor(() => expect(screen.queryByLabelText('Route path', { exact: false, selector: 'input' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Choose icon' })).toBeNull();
    expect(screen.getByLabelText('Rule name', { exact: false, selector: 'input' })).toBeTruthy();
  });
});

describe('member rules: the form follows the rule type', () => {
  it('shows a route its path and component but no icon, and a button none of them', async () => {
    const dataProvider = fakeDataProvider({ 'user/rule': [] });
    const { create: Create } = resourceFor(schema('system/user_rule'));
    if (!Create) throw new Error('no create screen');
    renderScreen(<Create />, { resource: 'user/rule', dataProvider });
    const routePath = () => screen.queryByLabelText('Route path', { exact: false, selector: 'input' });
    // a new member rule is a menu item: route path, component and icon picker, no link address
    expect(await screen.findByLabelText('Route path', { exact: false, selector: 'input' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose icon' })).toBeTruthy();
    expect(screen.queryByLabelText('Link address', { exact: false, selector: 'input' })).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Ordinary route' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Choose icon' })).toBeNull());
    expect(routePath()).toBeTruthy();
    expect(screen.getByLabelText('Component', { exact: false, selector: 'input' })).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Page button' }));
    await waitFor(() => expect(routePath()).toBeNull());
    expect(screen.queryByRole('switch', { name: 'Valid without login' })).toBeNull();
    expect(screen.getByLabelText('Rule name', { exact: false, selector: 'input' })).toBeTruthy();
  });
});
