// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { GeneratedList } from '../../../src/client/admin/resources/GeneratedList.js';
import { createHttpClient } from '../../../src/client/http/http-client.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { createDataProvider } from '../../../src/client/providers/data-provider.js';
import { renderScreen, schema } from './support.js';

/**
 * A list whose request the API's GET throttle refuses (docs/wire-contract.md#get-throttle: a bare `{code: 0, msg}`
 * with Retry-After) says so where its rows go, with a retry, or keeps the rows it has; never "No data yet"
 * over a footer counting rows it does not have. Through the real data provider and http client.
 */

const API = '/chidaoadminstator.php';
const REFUSAL = 'Please do not request frequently. Try again in 37 seconds.';
const admins = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, username: `member${i + 1}`, nickname: `Nick ${i + 1}`, status: '1', group_arr: [], group_name_arr: [] }));

/** whether the throttle refuses the next list requests */
let throttled = false;
const listRequests: string[] = [];

const server = setupServer(
  http.get(`${API}/auth.Admin/index`, ({ request }) => {
    const url = new URL(request.url);
    listRequests.push(url.search);
    if (throttled) return HttpResponse.json({ code: 0, msg: REFUSAL }, { headers: { 'Retry-After': '37' } });
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    return HttpResponse.json({ code: 1, msg: '', time: 0, data: { list: admins.slice((page - 1) * limit, page * limit), total: admins.length, remark: '' } });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  throttled = false;
  listRequests.length = 0;
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, token: 'tok', refresh_token: '', super: true }));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

function renderAdmins() {
  const client = createHttpClient({ navigate: vi.fn(), notify: vi.fn(), translate: createTranslate(enHttp), currentPath: () => '/chidaoadminstator/auth/admin' });
  const dataProvider = createDataProvider(client, () => ({ url: '/admin/auth.Admin/', definition: schema('system/admin') }));
  renderScreen(<GeneratedList definition={schema('system/admin')} />, { resource: 'auth/admin', dataProvider });
}

const footer = () => document.querySelector('.MuiTablePagination-displayedRows')?.textContent ?? null;
const listCard = () => document.querySelector('.RaList-content') as HTMLElement;

describe('a list the GET throttle refuses', () => {
  it('opened while refused: shows the refusal and a retry where the rows go, no footer, then the rows once retried', async () => {
    throttled = true;
    renderAdmins();
    const alert = await waitFor(() => within(listCard()).getByRole('alert'));
    expect(alert.textContent).toContain(REFUSAL);
    expect(screen.queryByText('No data yet')).toBeNull();
    expect(footer()).toBeNull();

    throttled = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('member1')).toBeTruthy();
    expect(screen.queryByText('member11')).toBeNull();
    expect(within(listCard()).queryByRole('alert')).toBeNull();
    expect(footer()).toBe('1-10 of 12');
  });

  it('refused on its next page: keeps rows and a footer that agree, never "No data yet"', async () => {
    renderAdmins();
    expect(await screen.findByText('member10')).toBeTruthy();
    expect(footer()).toBe('1-10 of 12');

    throttled = true;
    const before = listRequests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(listRequests.length).toBeGreaterThan(before));
    // react-admin goes back to the page it has; its rows and its footer stay
    await waitFor(() => expect(footer()).toBe('1-10 of 12'));
    expect(screen.getByText('member10')).toBeTruthy();
    expect(screen.queryByText('No data yet')).toBeNull();
    expect(within(listCard()).queryByRole('alert')).toBeNull();

    // the refusal reached the admin (the toast), and the next page opens once the minute is over
    expect(await screen.findByText(REFUSAL)).toBeTruthy();
    throttled = false;
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    expect(await screen.findByText('member11')).toBeTruthy();
    expect(footer()).toBe('11-12 of 12');
  });
});
