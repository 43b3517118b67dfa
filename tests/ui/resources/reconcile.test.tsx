// @vitest-environment jsdom
import { File as NodeFile } from 'node:buffer';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { participationOverride } from '../../../src/client/admin/resources/survey/participation/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * The participation list's reconciliation: mode, survey and ids (pasted or a CSV file), a dry run with its
 * counts and each member's money and points, then the apply of that plan; the node is enforced.
 */

const RESOURCE = 'survey/participation';
const rows = [
  { id: 1, rid: 'a'.repeat(32), survey_id: 3, user_id: 7, status: 'complete', source: 'redirect', credit_state: 'credited', credited_money: '1.50', credited_score: 10, enter_time: 1717207200, finish_time: 1717207800 },
];

afterEach(cleanup);

type Body = Record<string, unknown>;

/** A dry run's answer as the server gives it: the counts, the refusals by reason, each member's change, the rows. */
function answer(body: Body, overrides: Record<string, unknown> = {}) {
  return {
    dryRun: body.dryRun, mode: body.mode, survey_id: body.survey_id ?? null,
    listed: { ids: 3, column: body.file ? 'transaction_id' : '' },
    applied: 2, refused: 1,
    counts: { complete: 1, reversed: 1, unchanged: 0, refused: 1 },
    refusals: [{ message: 'No participation has this RID or provider transaction id', count: 1 }],
    members: [{ user_id: 7, username: 'amy', money_cents: -150, score: -10, pending_money_cents: 0, pending_score: 0 }, { user_id: 8, username: 'bo', money_cents: 140, score: 10, pending_money_cents: 0, pending_score: 0 }],
    totals: { money_cents: -10, score: 0, pending_money_cents: 0, pending_score: 0 },
    held: 0,
    rows: [
      { id: 'a'.repeat(32), matched: 'rid', rid: 'a'.repeat(32), participation_id: 1, user_id: 7, from: 'complete', to: 'reversed', credit: 'reversed', outcome: 'reversed', ok: true, quota_full: false, money_cents: -150, score: -10, change: 'Complete → Reversed', message: '' },
      { id: 'T-8', matched: 'provider_txid', rid: 'b'.repeat(32), participation_id: 2, user_id: 8, from: 'terminate', to: 'complete', credit: 'credited', outcome: 'complete', ok: true, quota_full: false, money_cents: 140, score: 10, change: 'Terminate → Complete', message: '' },
      { id: 'nope', matched: '', rid: 'nope', participation_id: null, user_id: null, from: '', to: '', credit: '', outcome: 'refused', ok: false, quota_full: false, money_cents: 0, score: 0, change: '', message: 'No participation has this RID or provider transaction id' },
    ],
    plan: 'v1.1.1.0.1.0123456789abcdef0123456789abcdef',
    ...overrides,
  };
}

function renderList(allow?: (node: string) => boolean, tables: Record<string, Record<string, unknown>[]> = {}) {
  const List = participationOverride(schema('survey/participation')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows, 'survey/survey': [{ id: 4, title: 'Tea habits' }, { id: 3, title: 'Coffee habits' }], ...(tables as Record<string, typeof rows>) });
  dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: Body }) => ({ data: answer(params.data) }));
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

async function openDialog() {
  await screen.findByText('a'.repeat(32));
  fireEvent.click(await screen.findByRole('button', { name: 'Reconcile' }));
  return screen.findByRole('dialog');
}

describe('reconciliation', () => {
  it('dry-runs the pasted ids, shows the counts and each member’s money as currency, then applies that plan and reloads the list', async () => {
    const dataProvider = renderList();
    const dialog = await openDialog();
    const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('RIDs or provider transaction ids, one per line'), { target: { value: `${'a'.repeat(32)}\nT-8\nnope` } });
    fireEvent.change(within(dialog).getByLabelText(/Reason \(shown to the members\)/), { target: { value: 'Client rejected' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect(await within(dialog).findByText('To complete: 1; to reverse: 1; unchanged: 0; refused: 1')).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { mode: 'reverse', rids: `${'a'.repeat(32)}\nT-8\nnope`, reason: 'Client rejected', dryRun: true } });
    expect(within(dialog).getByText('1 × No participation has this RID or provider transaction id')).toBeTruthy();
    // Each member's change, money as currency (not cents), with the total.
    const members = within(dialog).getByRole('table', { name: 'Members’ balances and points' });
    const memberRows = within(members).getAllByRole('row').map((row) => within(row).getAllByRole(row.closest('thead') ? 'columnheader' : 'cell').map((cell) => cell.textContent));
    expect(memberRows).toEqual([['Member', 'Balance', 'Points'], ['amy (#7)', '-¥1.50', '-10'], ['bo (#8)', '+¥1.40', '+10'], ['Total (2 members)', '-¥0.10', '0']]);
    const records = within(dialog).getByRole('table', { name: 'Records' });
    expect(within(records).getByText('Complete → Reversed')).toBeTruthy();
    expect(within(records).getByText(`provider transaction id of ${'b'.repeat(32)}`)).toBeTruthy();
    expect(within(records).getAllByText('No participation has this RID or provider transaction id')).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply 2 changes' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', {
      data: { mode: 'reverse', rids: `${'a'.repeat(32)}\nT-8\nnope`, reason: 'Client rejected', dryRun: false, plan: 'v1.1.1.0.1.0123456789abcdef0123456789abcdef' },
      timeout: 120_000,
    }));
    expect(await screen.findByText('2 of 3 records reconciled')).toBeTruthy();
    await waitFor(() => expect(dataProvider.getList.mock.calls.filter(([resource]) => resource === RESOURCE).length).toBeGreaterThan(1));
  });

  it('shows what a hold period makes pending rather than available, by member and in all', async () => {
    const dataProvider = renderList();
    dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: Body }) => ({ data: answer(params.data, {
      held: 1,
      members: [{ user_id: 8, username: 'bo', money_cents: 0, score: 0, pending_money_cents: 1900, pending_score: 10 }],
      totals: { money_cents: 0, score: 0, pending_money_cents: 1900, pending_score: 10 },
    }) }));
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('RIDs or provider transaction ids, one per line'), { target: { value: 'T-8' } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Client accepted' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect(await within(dialog).findByText('1 reward credited as pending for the hold period, not available yet')).toBeTruthy();
    expect(within(dialog).getByText('Pending credits change: balance +¥19.00, points +10')).toBeTruthy();
    const members = within(dialog).getByRole('table', { name: 'Members’ balances and points' });
    const memberRows = within(members).getAllByRole('row').map((row) => within(row).getAllByRole(row.closest('thead') ? 'columnheader' : 'cell').map((cell) => cell.textContent));
    expect(memberRows).toEqual([
      ['Member', 'Balance', 'Points', 'Pending balance', 'Pending points'], ['bo (#8)', '¥0.00', '0', '+¥19.00', '+10'], ['Total (1 member)', '¥0.00', '0', '+¥19.00', '+10'],
    ]);
  });

  it('changing the request after a dry run asks for a new one', async () => {
    renderList();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('RIDs or provider transaction ids, one per line'), { target: { value: 'a'.repeat(32) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    await within(dialog).findByText('To complete: 1; to reverse: 1; unchanged: 0; refused: 1');
    fireEvent.click(within(dialog).getByLabelText('Accept the listed as complete (credit the reward)'));
    expect(within(dialog).queryByText('To complete: 1; to reverse: 1; unchanged: 0; refused: 1')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('“only the listed are completes” needs a survey, chosen from the list; a provider’s CSV file is sent as its text', async () => {
    const dataProvider = renderList();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByLabelText('The listed are the survey’s completes: accept them, reverse every other complete'));
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'June file' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Choose the survey whose completes the list names');
    expect(dataProvider.action).not.toHaveBeenCalled();

    const survey = within(dialog).getByRole('combobox', { name: /Survey/ });
    fireEvent.keyDown(survey, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: '#3 Coffee habits' }));
    expect((survey as HTMLInputElement).value).toBe('#3 Coffee habits');

    const text = '\uFEFFtransaction_id,status\r\nT-8,complete\r\n';
    // The file button is a button (reached with Tab, pressed with Enter or Space) that opens the file chooser.
    const chooser = within(dialog).getByLabelText('Load a CSV file', { selector: 'input' }) as HTMLInputElement;
    const opened = vi.spyOn(chooser, 'click').mockImplementation(() => undefined);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load a CSV file' }));
    expect(opened).toHaveBeenCalledTimes(1);
    // A browser's File reads its text (`file.text()`); jsdom's cannot, Node's can.
    fireEvent.change(chooser, { target: { files: [new NodeFile([text], 'june.csv', { type: 'text/csv' })] } });
    expect(await within(dialog).findByText('File “june.csv”')).toBeTruthy();
    expect(within(dialog).queryByLabelText('RIDs or provider transaction ids, one per line')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect(await within(dialog).findByText('3 ids read from the column “transaction_id”')).toBeTruthy();
    // Decoding the file as UTF-8 drops its byte-order mark (the server would drop it too).
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { mode: 'complete_only', survey_id: 3, file: 'transaction_id,status\r\nT-8,complete\r\n', reason: 'June file', dryRun: true } });
  });

  it('refuses a file too large to send before reading it', async () => {
    const dataProvider = renderList();
    const dialog = await openDialog();
    const chooser = within(dialog).getByLabelText('Load a CSV file', { selector: 'input' });
    const large = new File(['x'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(large, 'size', { value: 2 * 1024 * 1024 });
    fireEvent.change(chooser, { target: { files: [large] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('“huge.csv” is 2048 KB, more than the 900 KB that can be sent: keep only the id column');
    expect(dataProvider.action).not.toHaveBeenCalled();
  });

  it('offers to raise a full quota, shows each raise in a new dry run, and applies with that confirmation', async () => {
    const dataProvider = renderList();
    const rid = 'b'.repeat(32);
    dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: Body }) => {
      const raise = params.data.raiseQuota === true;
      const row = raise
        ? { id: rid, matched: 'rid', rid, ok: true, outcome: 'complete', quota_full: false, change: 'Terminate → Complete', message: 'Raises the quota of survey #3 from 37 to 38', money_cents: 150, score: 10, pending_money_cents: 0, pending_score: 0 }
        : { id: rid, matched: 'rid', rid, ok: false, outcome: 'refused', quota_full: true, change: 'Terminate', message: 'Survey #3 has reached its quota (37 of 37 completes): confirm raising the quota to accept it as complete', money_cents: 0, score: 0, pending_money_cents: 0, pending_score: 0 };
      return { data: answer(params.data, {
        applied: raise ? 1 : 0, refused: raise ? 0 : 1, rows: [row], refusals: raise ? [] : [{ message: row.message, count: 1 }],
        counts: { complete: raise ? 1 : 0, reversed: 0, unchanged: 0, refused: raise ? 0 : 1 },
        members: raise ? [{ user_id: 8, username: 'bo', money_cents: 150, score: 10, pending_money_cents: 0, pending_score: 0 }] : [], totals: raise ? { money_cents: 150, score: 10, pending_money_cents: 0, pending_score: 0 } : { money_cents: 0, score: 0, pending_money_cents: 0, pending_score: 0 },
      }) };
    });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByLabelText('Accept the listed as complete (credit the reward)'));
    fireEvent.change(within(dialog).getByLabelText('RIDs or provider transaction ids, one per line'), { target: { value: rid } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Client accepted' } });
    const confirmLabel = 'Where a survey’s quota is full, raise it by what these approvals need';
    expect(within(dialog).queryByLabelText(confirmLabel)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect(await within(dialog).findByText('Survey #3 has reached its quota (37 of 37 completes): confirm raising the quota to accept it as complete')).toBeTruthy();
    expect(within(dialog).getByText('No balance or points change')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(dialog).getByLabelText(confirmLabel));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    expect(await within(dialog).findByText('Raises the quota of survey #3 from 37 to 38')).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', { data: { mode: 'approve', rids: rid, reason: 'Client accepted', dryRun: true, raiseQuota: true } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply 1 change' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reconcile', {
      data: { mode: 'approve', rids: rid, reason: 'Client accepted', dryRun: false, raiseQuota: true, plan: 'v1.1.1.0.1.0123456789abcdef0123456789abcdef' },
      timeout: 120_000,
    }));
  });

  it('shows a long dry run a page at a time', async () => {
    const dataProvider = renderList();
    const many = Array.from({ length: 25 }, (_, index) => ({ id: `r${index}`, matched: 'rid', rid: `r${index}`, ok: true, outcome: 'reversed', quota_full: false, change: 'Complete → Reversed', message: '', money_cents: -150, score: -10, pending_money_cents: 0, pending_score: 0 }));
    dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: Body }) => ({ data: answer(params.data, { rows: many }) }));
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('RIDs or provider transaction ids, one per line'), { target: { value: 'r0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dry run' }));
    const records = await within(dialog).findByRole('table', { name: 'Records' });
    expect(within(records).getByText('r9')).toBeTruthy();
    expect(within(records).queryByText('r10')).toBeNull();
    expect(within(dialog).getByText('1–10 of 25')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go to next page' }));
    expect(await within(records).findByText('r10')).toBeTruthy();
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
    const balance = await within(dialog).findByRole('link', { name: 'Balance change #12 · ¥1.50' });
    expect(balance.getAttribute('href')).toBe(`/user/moneyLog?filter=${encodeURIComponent('{"id":12}')}`);
    expect(await within(dialog).findByRole('link', { name: 'Points change #7 · 10' })).toBeTruthy();
  });

  it('show the provider’s transaction id, read-only', async () => {
    rows[0] = { ...rows[0], provider_txid: 'T-0042' } as (typeof rows)[number];
    renderList();
    await screen.findByText('a'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Provider transaction ID')).toBeTruthy();
    expect(within(dialog).getByText('T-0042')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
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
