// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { payoutOverride } from '../../../src/client/admin/resources/user/payout/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** The payout review screen: on each row the steps the server offers (approve, mark paid with a reference, reject). */

const RESOURCE = 'user/payout';
// `actions`: the steps the server offers the current administrator on each row (dee's payout is one they approved).
const rows = [
  { id: 4, user_id: 10, amount: '20.00', method: 'bank', account: {}, status: 'approved', reason: '', reference: '', create_time: 1717207300, user: { id: 10, username: 'dee' }, actions: ['reject'] },
  { id: 3, user_id: 7, amount: '30.00', method: 'bank', account: { bank_num: '****2222' }, status: 'pending', reason: '', reference: '', create_time: 1717207200, user: { id: 7, username: 'amy' }, actions: ['approve', 'reject'] },
  { id: 2, user_id: 8, amount: '15.00', method: 'alipay', account: { zhifubao: '****.com' }, status: 'approved', reason: '', reference: '', create_time: 1717207100, user: { id: 8, username: 'bo' }, actions: ['pay', 'reject'] },
  { id: 1, user_id: 9, amount: '10.00', method: 'bank', account: {}, status: 'paid', reason: '', reference: 'TX1', create_time: 1717207000, user: { id: 9, username: 'cy' }, actions: [] },
];

afterEach(cleanup);

function renderList(allow?: (node: string) => boolean) {
  const List = payoutOverride(schema('user/payout')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows });
  dataProvider.action.mockImplementation(async () => ({ data: null }));
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

function rowOf(username: string): HTMLElement {
  return screen.getByText(username).closest('tr') as HTMLElement;
}

describe('payout review', () => {
  it('offers on each row only the steps the server says this administrator may take', async () => {
    renderList();
    await screen.findByText('amy');
    // Approved by this administrator: another one marks it paid, so it is not offered here.
    expect(await within(rowOf('dee')).findByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(within(rowOf('dee')).queryByRole('button', { name: 'Mark paid' })).toBeNull();
    expect(await within(rowOf('amy')).findByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(rowOf('amy')).queryByRole('button', { name: 'Mark paid' })).toBeNull();
    expect(await within(rowOf('bo')).findByRole('button', { name: 'Mark paid' })).toBeTruthy();
    expect(within(rowOf('bo')).getByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(within(rowOf('cy')).queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('marks an approved payout paid with the reference typed', async () => {
    const dataProvider = renderList();
    await screen.findByText('bo');
    fireEvent.click(await within(rowOf('bo')).findByRole('button', { name: 'Mark paid' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Payment reference'), { target: { value: 'TX-778' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'pay', { data: { ids: [2], reference: 'TX-778' } }));
  });

  it('shows no step without its node', async () => {
    renderList((node) => !/\/(approve|pay|reject)$/.test(node));
    await screen.findByText('amy');
    await within(rowOf('amy')).findByRole('button', { name: 'Delete' });
    expect(within(rowOf('bo')).queryByRole('button', { name: 'Mark paid' })).toBeNull();
    expect(within(rowOf('amy')).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
