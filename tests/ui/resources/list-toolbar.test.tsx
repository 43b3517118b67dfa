// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ResourceDefinitionContextProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratedList } from '../../../src/client/admin/resources/GeneratedList.js';
import { canAccess } from '../../../src/client/providers/permissions.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * The table toolbar: refresh, the column chooser, CSV export by permission, an empty list
 * that keeps its search bar and offers to add; expand and collapse all in trees.
 */

afterEach(cleanup);

const mails = [
  { id: 1, event: 'user_register', subject: 'Welcome', content: '', status: '1', update_time: 1_700_000_000, create_time: 1_700_000_000 },
  { id: 2, event: 'user_retrieve_pwd', subject: 'Reset', content: '', status: '1', update_time: 1_700_000_000, create_time: 1_700_000_000 },
];

function renderMails(rows = mails, allow?: (node: string) => boolean) {
  const dataProvider = fakeDataProvider({ 'routine/mailTemplate': rows });
  renderScreen(<GeneratedList definition={schema('system/mail_template')} />, {
    resource: 'routine/mailTemplate',
    dataProvider,
    authProvider: fakeAuthProvider(allow),
    wrapper: (children) => (
      <ResourceDefinitionContextProvider definitions={{ 'routine/mailTemplate': { name: 'routine/mailTemplate', hasCreate: true, hasEdit: true, hasList: true } }}>{children}</ResourceDefinitionContextProvider>
    ),
  });
  return dataProvider;
}

describe('list toolbar', () => {
  it('refreshes the list', async () => {
    const dataProvider = renderMails();
    await screen.findByText('Welcome');
    const calls = dataProvider.getList.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(dataProvider.getList.mock.calls.length).toBeGreaterThan(calls));
  });

  it('hides a column chosen in the column chooser', async () => {
    renderMails();
    await screen.findByText('Welcome');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent?.trim())).toContain('Subject');
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('presentation');
    fireEvent.click(within(chooser).getByLabelText('Subject'));
    // (the chooser is modal: the table behind it is hidden from the accessibility tree while it is open)
    await waitFor(() => expect(screen.getAllByRole('columnheader', { hidden: true }).map((cell) => cell.textContent?.trim())).not.toContain('Subject'));
    expect(screen.getAllByRole('columnheader', { hidden: true }).map((cell) => cell.textContent?.trim())).toContain('Event');
  });

  it('offers CSV export only to an admin holding the export node', async () => {
    // the back office's own check, over the button nodes an admin holds
    const holding = (...actions: string[]) => (node: string) => {
      const slash = node.lastIndexOf('/');
      return canAccess({ super: false, nodes: new Set(actions.map((action) => `routine/mailtemplate/${action}`)) }, { resource: node.slice(0, slash), action: node.slice(slash + 1) });
    };
    renderMails(mails, holding('index', 'export'));
    expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
    cleanup();
    renderMails(mails, holding('index'));
    await screen.findByText('Welcome');
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });

  it('keeps the search bar on an empty list, and offers to add', async () => {
    renderMails([]);
    expect(await screen.findByText('No data yet')).toBeTruthy();
    expect(screen.getByPlaceholderText(/Quick search/)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Create' }).length).toBeGreaterThanOrEqual(2);
    cleanup();
    renderMails([], (node) => !node.endsWith('/create'));
    expect(await screen.findByText('No data yet')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
  });
});

describe('tree toolbar', () => {
  const rules = [
    {
      id: 1, pid: 0, type: 'menu_dir', title: 'Permission', name: 'auth', icon: '', weigh: 100, status: '1',
      children: [
        { id: 2, pid: 1, type: 'menu', title: 'Admins', name: 'auth/admin', icon: '', weigh: 90, status: '1', children: [{ id: 3, pid: 2, type: 'button', title: 'View', name: 'auth/admin/index', icon: '', weigh: 0, status: '1' }] },
      ],
    },
  ];

  it('collapses and expands every branch at once', async () => {
    renderScreen(<GeneratedList definition={schema('system/admin_rule')} />, { resource: 'auth/rule', dataProvider: fakeDataProvider({ 'auth/rule': rules }) });
    expect(await screen.findByText('View')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    await waitFor(() => expect(screen.queryByText('Admins')).toBeNull());
    expect(screen.getByText('Permission')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(await screen.findByText('View')).toBeTruthy();
    expect(screen.getByText('Admins')).toBeTruthy();
  });
});

describe('bulk edit', () => {
  it('sets one chosen field to one value on the selected rows', async () => {
    const dataProvider = renderMails();
    await screen.findByText('Welcome');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 rows' });
    // Unique and secret fields are not offered; the field's own widget appears once chosen.
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Field' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toContain('Subject');
    expect(options).not.toContain('Event');
    fireEvent.click(screen.getByRole('option', { name: 'Subject' }));
    fireEvent.change(await within(dialog).findByRole('textbox', { name: /Subject/ }), { target: { value: 'Same for all' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(dataProvider.updateMany).toHaveBeenCalled());
    expect(dataProvider.updateMany.mock.calls[0][1]).toMatchObject({ ids: [1, 2], data: { subject: 'Same for all' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // It ends with a message naming what was saved.
    expect(await screen.findByText('2 mail template rows saved')).toBeTruthy();
  });

  it('is not offered without the edit node', async () => {
    renderMails(mails, (node) => !node.endsWith('/edit'));
    await screen.findByText('Welcome');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    // The bulk bar is up (bulk delete is there); bulk edit is not.
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Delete' }).length).toBe(3));
    expect(screen.queryByRole('button', { name: 'Edit selected' })).toBeNull();
  });
});
