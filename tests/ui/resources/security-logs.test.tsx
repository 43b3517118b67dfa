// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { dataRecycleLogOverride } from '../../../src/client/admin/resources/system/security_data_recycle_log/index.js';
import { sensitiveDataLogOverride } from '../../../src/client/admin/resources/system/security_sensitive_data_log/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** The recycle bin and sensitive-data log screens: restore / rollback per row and in bulk, the info dialog, permissions. */

const RECYCLE = 'security/dataRecycleLog';
const SENSITIVE = 'security/sensitiveDataLog';

const recycleRows = [
  { id: 7, admin_id: 1, recycle_id: 1, data: '{"id":12,"username":"gone1"}', data_table: 'admin', primary_key: 'id', ip: '10.0.0.7', create_time: 1717207200, recycle: { id: 1, name: 'Admins' }, admin: { id: 1, nickname: 'Boss' } },
  { id: 8, admin_id: 1, recycle_id: 1, data: '{"id":13,"username":"gone2"}', data_table: 'admin', primary_key: 'id', ip: '10.0.0.8', create_time: 1717207300, recycle: { id: 1, name: 'Admins' }, admin: { id: 1, nickname: 'Boss' } },
];

const sensitiveRows = [
  { id: 3, data_table: 'admin', primary_key: 'id', data_field: 'mobile', data_comment: 'Phone', id_value: 'id=5', before: '13800000001', after: '13800000002', ip: '10.0.0.9', create_time: 1717207200 },
];

afterEach(cleanup);

function renderRecycle(allow?: (node: string) => boolean) {
  const definition = schema('system/security_data_recycle_log');
  const List = dataRecycleLogOverride(definition).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RECYCLE]: recycleRows });
  dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({
    data: name === 'info' ? { row: { ...recycleRows[0], data: { id: 12, username: 'gone1', settings: { theme: 'dark' } } } } : null,
  }));
  renderScreen(<List />, { resource: RECYCLE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

/** The recycle bin whose `info` also answers the deleted row as the admins' list showed it (`record`). */
function renderRecycleWithRecord() {
  const definition = schema('system/security_data_recycle_log');
  const List = dataRecycleLogOverride(definition).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RECYCLE]: recycleRows });
  const data = { id: 12, username: 'gone1', email: '', status: '1', last_login_time: 1717207200 };
  dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({
    data: name === 'info' ? { row: { ...recycleRows[0], data, record: data } } : null,
  }));
  renderScreen(<List />, { resource: RECYCLE, dataProvider, authProvider: fakeAuthProvider() });
  return dataProvider;
}

function renderSensitive(allow?: (node: string) => boolean) {
  const definition = schema('system/security_sensitive_data_log');
  const List = sensitiveDataLogOverride(definition).list as ComponentType;
  const dataProvider = fakeDataProvider({ [SENSITIVE]: sensitiveRows });
  dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({
    data: name === 'info' ? { row: { ...sensitiveRows[0], id_value: 5, sensitive: { id: 1, name: 'Admin data' }, admin: { id: 1, nickname: 'Boss' } } } : null,
  }));
  renderScreen(<List />, { resource: SENSITIVE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

/** react-admin's toolbar of the selection (marked `data-test`, not `data-testid`). */
async function bulkToolbar(): Promise<HTMLElement> {
  return waitFor(() => {
    const toolbar = document.querySelector<HTMLElement>('[data-test="bulk-actions-toolbar"]');
    if (!toolbar) throw new Error('no bulk actions toolbar');
    return toolbar;
  });
}

async function confirm() {
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
}

describe('recycle bin screen', () => {
  it('restores one row after confirmation, toasts and reloads the list', async () => {
    const dataProvider = renderRecycle();
    await screen.findByText('10.0.0.7');
    const row = screen.getByText('10.0.0.7').closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByRole('button', { name: 'Restore' }));
    await confirm();
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RECYCLE, 'restore', { data: { ids: [7] } }));
    expect(await screen.findByText('Restored')).toBeTruthy();
    await waitFor(() => expect(dataProvider.getList.mock.calls.length).toBeGreaterThan(1));
  });

  it('restores the selected rows in bulk', async () => {
    const dataProvider = renderRecycle();
    await screen.findByText('10.0.0.8');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all' }));
    const toolbar = await bulkToolbar();
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Restore' }));
    await confirm();
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RECYCLE, 'restore', { data: { ids: [7, 8] } }));
  });

  it('hides restore without the permission node, keeps info and delete', async () => {
    const dataProvider = renderRecycle((node) => !node.endsWith('/restore'));
    await screen.findByText('10.0.0.7');
    const row = screen.getByText('10.0.0.7').closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Delete' })).toBeTruthy());
    expect(within(row).getByRole('button', { name: 'Details' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restore' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    const toolbar = await bulkToolbar();
    expect(within(toolbar).queryByRole('button', { name: 'Restore' })).toBeNull();
    // Only the delete confirmation's question of what becomes of the rows (`GET del`) was asked.
    expect(dataProvider.action.mock.calls.filter(([, name]) => name !== 'del')).toEqual([]);
  });

  it('hides info without its node', async () => {
    renderRecycle((node) => !node.endsWith('/info'));
    await screen.findByText('10.0.0.7');
    const row = screen.getByText('10.0.0.7').closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Restore' })).toBeTruthy());
    expect(within(row).queryByRole('button', { name: 'Details' })).toBeNull();
  });

  it('the info dialog shows the decoded snapshot field by field', async () => {
    const dataProvider = renderRecycle();
    await screen.findByText('10.0.0.7');
    const row = screen.getByText('10.0.0.7').closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('gone1')).toBeTruthy());
    expect(dataProvider.action).toHaveBeenCalledWith(RECYCLE, 'info', { params: { id: 7 } });
    expect(within(dialog).getByText('Username (username)')).toBeTruthy();
    expect(within(dialog).getByText(/"theme": "dark"/)).toBeTruthy();
    expect(within(dialog).getByText('Admins')).toBeTruthy();
    expect(within(dialog).getByText('Boss')).toBeTruthy();
  });
});

describe('recycle bin details', () => {
  it('show the deleted row as its list did: a switch by its label, a time as a date, an empty value as "Not set"', async () => {
    renderRecycleWithRecord();
    await screen.findByText('10.0.0.7');
    const row = screen.getByText('10.0.0.7').closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('gone1')).toBeTruthy());
    const cellOf = (label: string) => within(dialog).getByRole('rowheader', { name: label }).closest('tr')?.querySelector('td') as HTMLElement;
    expect(within(cellOf('Status')).getByText('Enabled')).toBeTruthy();
    expect(within(cellOf('Status')).queryByRole('checkbox')).toBeNull();
    expect(cellOf('Last login time').textContent).toMatch(/^2024-06-01 \d{2}:00:00$/);
    expect(cellOf('Email').textContent).toBe('Not set');
    expect(dialog.textContent).not.toContain('1717207200');
  });
});

describe('sensitive data log screen', () => {
  it('rolls one row back after confirmation', async () => {
    const dataProvider = renderSensitive();
    await screen.findByText('id=5');
    const row = screen.getByText('id=5').closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByRole('button', { name: 'Rollback' }));
    await confirm();
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(SENSITIVE, 'rollback', { data: { ids: [3] } }));
    expect(await screen.findByText('Rolled back')).toBeTruthy();
  });

  it('hides rollback without the permission node', async () => {
    renderSensitive((node) => !node.endsWith('/rollback'));
    await screen.findByText('id=5');
    const row = screen.getByText('id=5').closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Details' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Rollback' })).toBeNull();
  });

  it('the info dialog shows the field, before and after', async () => {
    renderSensitive();
    await screen.findByText('id=5');
    const row = screen.getByText('id=5').closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('Phone (mobile)')).toBeTruthy());
    const cellAfter = (label: string) => within(dialog).getByText(label).closest('tr')?.querySelectorAll('td')[0]?.textContent;
    expect(cellAfter('Before')).toBe('13800000001');
    expect(cellAfter('After')).toBe('13800000002');
    expect(cellAfter('Row ID')).toBe('id=5');
  });
});
