// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { participationOverride } from '../../../src/client/admin/resources/survey/participation/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** The participation list's reconciliation: preview first, then apply; refusals shown per RID; the node is enforced. */

const RESOURCE = 'survey/participation';
const rows = [
  { id: 1, rid: 'a'.repeat(32), survey_id: 3, user_id: 7, status: 'complete', source: 'redirect', credit_state: 'credited', credited_money: '1.50', credited_score: 10, enter_time: 1717207200, finish_time: 1717207800 },
];

afterEach(cleanup);

function renderList(allow?: (node: string) => boolean, tables: Record<string, Record<string, unknown>[]> = {}) {
  const List = participationOverride(schema('survey/participation')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows, ...(tables as Record<string, typeof rows>) });
  dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: { dryRun: boolean } }) => ({
    data: {
      dryRun: params.data.dryRun,
      applied: 1,
      refused: 1,
      rows: [
        { rid: 'a'.repeat(32), from: 'complete', to: 'reversed', credit: 'reversed', ok: true, change: 'Complete → Reversed', message: '' },
        { rid: 'nope', from: '', to: '', credit: '', ok: false, change: '', message: 'This survey link is unknown' },
      ],
    },
  }));
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

describe('reconciliation', () => {
  it('previews the pasted RIDs, then applies them and reloads the list', async () => {
    const dataProvider = renderList();
    await screen.findByText('a'.repeat(32));
    fireEvent.click(await screen.findByRole('button', { name: 'Reconcile' }));
    const dialog = await screen.findByRole('dialog');
    const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('RIDs, one per line'), { target: { value: `${'a'.repeat(32)}\nnope` } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Client rejected' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('1 will change, 1 refused')).toBeTruthy();
    expect(within(dialog).getByText('Complete → Reversed')).toBeTruthy();
    expect(within(dialog).getByText('This survey link is unknown')).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { action: 'reverse', rids: `${'a'.repeat(32)}\nnope`, reason: 'Client rejected', dryRun: true } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { action: 'reverse', rids: `${'a'.repeat(32)}\nnope`, reason: 'Client rejected', dryRun: false } }));
    expect(await screen.findByText('1 of 2 records reconciled')).toBeTruthy();
    await waitFor(() => expect(dataProvider.getList.mock.calls.length).toBeGreaterThan(1));
  });

  it('changing the request after a preview asks for a new preview', async () => {
    renderList();
    await screen.findByText('a'.repeat(32));
    fireEvent.click(await screen.findByRole('button', { name: 'Reconcile' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('RIDs, one per line'), { target: { value: 'a'.repeat(32) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByText('1 will change, 1 refused');
    fireEvent.click(within(dialog).getByLabelText('Accept as complete (credit the reward)'));
    expect(within(dialog).queryByText('1 will change, 1 refused')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers to raise a full quota, shows each raise in a new preview, and applies with that confirmation', async () => {
    const dataProvider = renderList();
    const rid = 'b'.repeat(32);
    dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: { dryRun: boolean; raiseQuota?: boolean } }) => ({
      data: {
        dryRun: params.data.dryRun,
        applied: params.data.raiseQuota ? 1 : 0,
        refused: params.data.raiseQuota ? 0 : 1,
        rows: [params.data.raiseQuota
          ? { rid, ok: true, quota_full: false, change: 'Terminate → Complete', message: 'Raises the quota of survey #3 from 37 to 38' }
          : { rid, ok: false, quota_full: true, change: 'Terminate', message: 'Survey #3 has reached its quota (37 of 37 completes): confirm raising the quota to accept it as complete' }],
      },
    }));
    await screen.findByText('a'.repeat(32));
    fireEvent.click(await screen.findByRole('button', { name: 'Reconcile' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Accept as complete (credit the reward)'));
    fireEvent.change(within(dialog).getByLabelText('RIDs, one per line'), { target: { value: rid } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Client accepted' } });
    const confirmLabel = 'Where a survey’s quota is full, raise it by what these approvals need';
    expect(within(dialog).queryByLabelText(confirmLabel)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Survey #3 has reached its quota (37 of 37 completes): confirm raising the quota to accept it as complete')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(dialog).getByLabelText(confirmLabel));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Raises the quota of survey #3 from 37 to 38')).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { action: 'approve', rids: rid, reason: 'Client accepted', dryRun: true, raiseQuota: true } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { action: 'approve', rids: rid, reason: 'Client accepted', dryRun: false, raiseQuota: true } }));
  });

  it('is not offered without the reconcile node', async () => {
    // The button's code (its own chunk) is in before the list draws: its absence is the node's doing.
    await import('../../../src/client/admin/resources/survey/participation/ReconcileButton.js');
    renderList((node) => !node.endsWith('reconcile'));
    await screen.findByText('a'.repeat(32));
    expect(screen.queryByRole('button', { name: 'Reconcile' })).toBeNull();
  });
});

describe('participation details', () => {
  it('name the ledger entries a return wrote, with their amounts, as links to those entries', async () => {
    rows[0] = { ...rows[0], money_log_id: 12, score_log_id: 7 } as (typeof rows)[number];
    renderList(undefined, { 'user/moneyLog': [{ id: 12, money: '1.50' }], 'user/scoreLog': [{ id: 7, score: 10 }] });
    await screen.findByText('a'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    const balance = await within(dialog).findByRole('link', { name: 'Balance change #12 · 1.50' });
    expect(balance.getAttribute('href')).toBe(`/user/moneyLog?filter=${encodeURIComponent('{"id":12}')}`);
    expect(await within(dialog).findByRole('link', { name: 'Points change #7 · 10' })).toBeTruthy();
  });

  it('show the quota an approval raised in the history', async () => {
    rows[0] = {
      ...rows[0],
      events: [{ from_status: 'terminate', to_status: 'complete', source: 'reconcile', admin_id: 1, admin_name: 'Admin', ip: '', create_time: 1717207900, payload: { action: 'approve', reason: 'Client accepted', quota: { from: 37, to: 38 } } }],
    } as (typeof rows)[number];
    renderList();
    await screen.findByText('a'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/: 37 → 38$/)).toBeTruthy();
  });

  it('show in the history when a held credit becomes available, and that a reverse cancelled a pending one', async () => {
    rows[0] = {
      ...rows[0],
      events: [
        { from_status: 'terminate', to_status: 'complete', source: 'reconcile', admin_id: 1, admin_name: 'Admin', ip: '', create_time: 1717207900, payload: { action: 'approve', reason: 'Client accepted', available_at: 1717207900 + 2 * 86_400 } },
        { from_status: 'complete', to_status: 'reversed', source: 'reconcile', admin_id: 1, admin_name: 'Admin', ip: '', create_time: 1717208000, payload: { action: 'reverse', reason: 'Client rejected', pending_cancelled: true } },
      ],
    } as (typeof rows)[number];
    renderList();
    await screen.findByText('a'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    // A date for people, never the Unix time (the labels are the admin pack's, not loaded here).
    expect(await within(dialog).findByText(/: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, {}, { timeout: 5000 })).toBeTruthy();
    expect(within(dialog).getByText(/: Yes$/)).toBeTruthy();
    expect(dialog.textContent).not.toContain(String(1717207900 + 2 * 86_400));
  });

  it('name an entry without a link, and without its amount, for an admin who may not open the ledger', async () => {
    rows[0] = { ...rows[0], money_log_id: 12 } as (typeof rows)[number];
    renderList((node) => !node.startsWith('user/moneyLog'), { 'user/moneyLog': [{ id: 12, money: '1.50' }] });
    await screen.findByText('a'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Balance change #12')).toBeTruthy();
    expect(within(dialog).queryByRole('link', { name: /Balance change/ })).toBeNull();
  });
});
