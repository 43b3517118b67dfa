// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { Wallet } from '../../../src/client/member/pages/wallet/Wallet.js';
import { createWalletApi } from '../../../src/client/member/pages/wallet/wallet-api.js';
import { writeUserInfo } from '../../../src/client/http/session.js';
import home from '../../../locales/en/member/home.json';
import { fail, http, ok, testClient, useEnglish } from '../shell/support.js';

/** The member's payout section: payment details, a payout request, the log; refusals on their field. */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  writeUserInfo({ id: 7, username: 'amy', token: 'utok' });
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const FIELDS = { bank: ['bank', 'bank_name', 'bank_address', 'bank_num'], alipay: ['zhifubao_name', 'zhifubao'] };

describe('wallet', () => {
  it('shows credits still held apart from the balance a payout draws on', async () => {
    const details = { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai', bank_num: '************2222', zhifubao_name: '', zhifubao: '' };
    server.use(
      http.get('/api/paymentuser/payment', () => ok({ details, balance: '0.00', minimum: '10.00', pending: '20.00', fields: FIELDS })),
      http.get('/api/account/paymentlog', () => ok({ list: [], total: 0, tags: { status: {} } })),
    );
    const { client } = testClient('/user');
    render(<Wallet t={createTranslate(home)} api={createWalletApi(client)} />);
    const section = await screen.findByRole('region', { name: 'Payouts' });
    expect((await within(section).findByTestId('wallet-balance')).textContent).toBe('Balance¥0.00');
    expect(within(section).getByTestId('wallet-pending').textContent).toBe('Pending¥20.00Cannot be paid out until its hold period ends.');
  });

  it('shows the balance and the minimum, marks every empty field at once, saves, comes back filled in, and requests a payout', async () => {
    let details = { payment: '', bank: '', bank_name: '', bank_address: '', bank_num: '', zhifubao_name: '', zhifubao: '' };
    let log: unknown[] = [];
    const posted: unknown[] = [];
    let balance = '50.00';
    server.use(
      http.get('/api/paymentuser/payment', () => ok({ details, balance, minimum: '10.00', pending: '0.00', fields: FIELDS })),
      http.get('/api/account/paymentlog', () => ok({ list: log, total: log.length, tags: { status: { pending: { label: 'Pending review', color: 'warning' }, paid: { label: 'Paid', color: 'success' } } } })),
      http.post('/api/paymentuser/payment', async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        posted.push(body);
        details = { ...details, ...body, bank_num: '************2222' };
        return ok(null, 'Payment details saved');
      }),
      http.post('/api/paymentuser/payout', async ({ request }) => {
        const { amount } = (await request.json()) as { amount: string };
        if (amount === '500') return fail('The amount is more than your balance', 0, { field: 'amount' });
        log = [{ id: 1, amount: '20.00', method: 'bank', status: 'pending', reason: '', reference: '', account: '****2222', create_time: 1_700_000_000, paid_time: null }];
        balance = '30.00';
        return ok({ id: 1, balance }, 'Payout requested: the amount is frozen until it is paid');
      }),
    );
    const { client } = testClient('/user');
    render(<Wallet t={createTranslate(home)} api={createWalletApi(client)} />);
    const section = await screen.findByRole('region', { name: 'Payouts' });
    expect((await within(section).findByTestId('wallet-balance')).textContent).toBe('Balance¥50.00');
    expect(within(section).getByTestId('wallet-minimum').textContent).toBe('Minimum payout¥10.00');
    expect(within(section).queryByTestId('wallet-pending')).toBeNull();

    // Saving with only the holder typed marks the three other fields at once, and sends nothing.
    fireEvent.change(within(section).getByLabelText('Account holder'), { target: { value: 'Amy Li' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save payment details' }));
    for (const label of ['Bank', 'Bank branch', 'Account number']) expect(within(section).getByLabelText(label).getAttribute('aria-invalid'), label).toBe('true');
    expect(within(section).getByLabelText('Account holder').getAttribute('aria-invalid')).toBe('false');
    expect(posted).toEqual([]);

    fireEvent.change(within(section).getByLabelText('Bank'), { target: { value: 'ICBC' } });
    fireEvent.change(within(section).getByLabelText('Bank branch'), { target: { value: 'Shanghai' } });
    fireEvent.change(within(section).getByLabelText('Account number'), { target: { value: '6222000011112222' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save payment details' }));
    expect((await within(section).findByRole('status')).textContent).toBe('Payment details saved');
    expect(posted[0]).toEqual({ payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai', bank_num: '6222000011112222' });
    // The saved details come back filled in (the number masked), and a change now asks for the password.
    await waitFor(() => expect((within(section).getByLabelText('Account number') as HTMLInputElement).value).toBe('************2222'));
    expect((within(section).getByLabelText('Bank') as HTMLInputElement).value).toBe('ICBC');
    expect(within(section).getByLabelText('Login password (to change saved details)')).toBeTruthy();

    fireEvent.change(within(section).getByLabelText(/^Amount/), { target: { value: '500' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Request a payout' }));
    await waitFor(() => expect(within(section).getByLabelText(/^Amount/).getAttribute('aria-invalid')).toBe('true'));
    expect(within(section).getByText('The amount is more than your balance')).toBeTruthy();

    fireEvent.change(within(section).getByLabelText(/^Amount/), { target: { value: '20' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Request a payout' }));
    await waitFor(() => expect(within(section).getByRole('status').textContent).toBe('Payout requested: the amount is frozen until it is paid'));
    // Nothing is left to send a second time: the amount is empty, the balance the one left.
    expect((within(section).getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('');
    expect(within(section).getByTestId('wallet-balance').textContent).toBe('Balance¥30.00');
    const table = await within(section).findByRole('table', { name: 'Payout log' });
    // The status reads and colours as the payout schema declares it (the answer's tags), as in the back office.
    expect(within(table).getByText('Pending review').closest('.MuiChip-root')?.className).toContain('MuiChip-colorWarning');
    expect(within(table).getByText('¥20.00')).toBeTruthy();
  });
});
