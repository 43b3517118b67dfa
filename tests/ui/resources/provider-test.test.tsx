// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { ComponentType } from 'react';
import type { TranslationMessages } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import zhSurvey from '../../../locales/zh-cn/admin/survey.json';
import zhReactAdmin from '../../../locales/zh-cn/common/react-admin.json';
import type { ToolBuilt, ToolCheck, ToolSent } from '../../../src/contract/provider-tool.js';
import { providerOverride } from '../../../src/client/admin/resources/survey/provider/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * "Test returns" on a provider row, the hash calculator: builds through the server action, checks a pasted
 * request (address, headers, body) and shows what was signed, what was expected and received, the verdict and
 * why a signature is wrong; sends a test callback and shows the answer; behind its node.
 */

const RESOURCE = 'survey/provider';
const PROJECT = { id: 4, code: 'acme', name: 'Acme Research', kind: 'project', rid_param: 'rid', reversal: { by: 'none' }, status: 'enable', create_time: 1717207200 };
const WALL = { id: 6, code: 'wall', name: 'Offer Wall', kind: 'wall', rid_param: 'rid', amount_in: 'major', reversal: { by: 'negative_amount' }, status: 'enable', create_time: 1717207200 };

const request = (url: string, signedText: string, signature: string, extra: Partial<ToolBuilt['callback']> = {}) => ({ method: 'GET' as const, url, headers: {}, body: '', signedText, signature, ...extra });

const BUILT: ToolBuilt = {
  providerKind: 'project',
  outcome: 'overquota',
  rid: 'test-1',
  redirect: request('http://site.test/overquota?rid=test-1&sig=ab', '/overquota?rid=test-1', 'ab'),
  callback: { ...request('http://site.test/api/survey/callback/acme?rid=test-1&status=40&sig=cd', '/api/survey/callback/acme?rid=test-1&status=40', 'cd'), status: '40' },
  notes: ['This provider credits on its server callback only: a return page shows the outcome and records nothing'],
};
const WALL_BUILT: ToolBuilt = {
  providerKind: 'wall',
  outcome: 'reversal',
  member: 'test-m1',
  transaction: 'test-t1',
  amount: '-1.25',
  callback: {
    ...request('http://site.test/api/survey/callback/wall?uid=test-m1&tx=test-t1&val=-1.25', '/api/survey/callback/wall?uid=test-m1&tx=test-t1&val=-1.25', '9f00', { headers: { 'X-Signature': '9f00' } }),
    status: '',
  },
  notes: [],
};
const CHECKED: ToolCheck = {
  ok: false, signatureValid: false, verdict: 'wrong', kind: 'redirect', outcome: 'security', signedText: '/overquota?rid=test-2', expectedSignature: 'ef', receivedSignature: 'ab',
  parameters: [{ name: 'rid', value: 'test-2', role: 'rid' }, { name: 'sig', value: 'ab', role: 'signature' }],
  problems: ['The signature was made over the full URL (https://site.test/overquota?rid=test-2), but this provider signs the path and query'],
  warnings: [],
};
const SENT: ToolSent = { request: WALL_BUILT.callback, response: { status: 200, contentType: 'text/plain', body: '1' } };

afterEach(cleanup);

function renderList({ allow, locale = 'en', rows = [PROJECT] }: { allow?: (node: string) => boolean; locale?: string; rows?: Record<string, unknown>[] } = {}) {
  const List = providerOverride(schema('survey/provider')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows as never[] });
  dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: { mode: string; id: number } }) => ({
    data: params.data.mode === 'build' ? (params.data.id === 6 ? WALL_BUILT : BUILT) : params.data.mode === 'send' ? SENT : CHECKED,
  }));
  const i18nProvider = locale === 'zh-cn'
    ? polyglotI18nProvider(() => ({ ...englishMessages, ...zhReactAdmin, ...zhSurvey }) as unknown as TranslationMessages, 'zh-cn', [{ locale: 'zh-cn', name: 'zh-cn' }], { allowMissing: true })
    : undefined;
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow), locale, i18nProvider });
  return dataProvider;
}

describe('provider test tool', () => {
  it('builds a signed return for the chosen outcome and explains why a pasted request fails', async () => {
    const dataProvider = renderList();
    await screen.findByText('Acme Research');
    fireEvent.click(await screen.findByRole('button', { name: 'Test returns' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test returns and signatures of Acme Research' });
    // A project provider that never reverses offers the four outcomes.
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Complete', 'Screened out', 'Over quota', 'Security terminated']);
    fireEvent.click(within(dialog).getByLabelText('Over quota'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Build' }));
    const callback = await within(dialog).findByRole('region', { name: "Callback (the provider's server calls this)" });
    expect((within(callback).getByRole('textbox', { name: 'Request' }) as HTMLTextAreaElement).value).toBe('GET http://site.test/api/survey/callback/acme?rid=test-1&status=40&sig=cd');
    expect((within(callback).getByRole('textbox', { name: 'Signed text' }) as HTMLTextAreaElement).value).toBe('/api/survey/callback/acme?rid=test-1&status=40');
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', { data: { id: 4, mode: 'build', outcome: 'overquota' } });
    expect(within(dialog).getByText('This provider credits on its server callback only: a return page shows the outcome and records nothing')).toBeTruthy();

    // The built return is ready to check; a tampered one is explained.
    const pasted = within(dialog).getByLabelText('URL, as the provider sends it');
    expect((pasted as HTMLTextAreaElement).value).toBe('http://site.test/overquota?rid=test-1&sig=ab');
    fireEvent.change(pasted, { target: { value: 'http://site.test/overquota?rid=test-2&sig=ab' } });
    fireEvent.change(within(dialog).getByLabelText('Headers, one per line'), { target: { value: 'X-Trace: 1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    expect(await within(dialog).findByText(/this provider signs the path and query$/)).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', {
      data: { id: 4, mode: 'check', url: 'http://site.test/overquota?rid=test-2&sig=ab', method: 'GET', headers: 'X-Trace: 1', body: '' },
    });
    expect(within(dialog).getByText('Signature wrong')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Expected signature' }) as HTMLTextAreaElement).value).toBe('ef');
    expect((within(dialog).getByRole('textbox', { name: 'Received signature' }) as HTMLTextAreaElement).value).toBe('ab');
    const table = within(dialog).getByRole('table', { name: 'Parameters' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['ParameterValueRead as', 'ridtest-2RID', 'sigabSignature']);

    // "Check this request" puts the callback into the check, ready to edit.
    fireEvent.click(within(callback).getByRole('button', { name: 'Check this request' }));
    expect((pasted as HTMLTextAreaElement).value).toBe('http://site.test/api/survey/callback/acme?rid=test-1&status=40&sig=cd');
    expect(document.activeElement).toBe(pasted);
  });

  it('builds a wall’s reversal with its member, amount and transaction, and sends it as a test callback', async () => {
    const dataProvider = renderList({ rows: [WALL] });
    await screen.findByText('Offer Wall');
    fireEvent.click(await screen.findByRole('button', { name: 'Test returns' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Reversal'));
    expect(within(dialog).getByText('As the provider writes it (Currency units (e.g. 1.25)), e.g. 1.25 or 125')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Amount' }), { target: { value: '1.25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Build' }));
    const callback = await within(dialog).findByRole('region', { name: "Callback (the provider's server calls this)" });
    expect(within(dialog).queryByRole('region', { name: /Return URL/ })).toBeNull();
    expect((within(callback).getByRole('textbox', { name: 'Headers' }) as HTMLTextAreaElement).value).toBe('X-Signature: 9f00');
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', { data: { id: 6, mode: 'build', outcome: 'reversal', amount: '1.25' } });
    // The check is filled with the callback, headers included.
    expect((within(dialog).getByLabelText('Headers, one per line') as HTMLTextAreaElement).value).toBe('X-Signature: 9f00');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test callback' }));
    expect(await within(dialog).findByText('Our callback address answered HTTP 200')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Answer' }) as HTMLTextAreaElement).value).toBe('1');
    // The very ids just built are sent.
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', {
      data: { id: 6, mode: 'send', outcome: 'reversal', amount: '1.25', member: 'test-m1', transaction: 'test-t1' },
    });
  });

  it('names the outcomes as the schema labels them everywhere, in the admin’s language', async () => {
    renderList({ locale: 'zh-cn', rows: [WALL] });
    await screen.findByText('Offer Wall');
    fireEvent.click(await screen.findByRole('button', { name: '测试回传' }));
    const dialog = await screen.findByRole('dialog', { name: '测试回传与签名：Offer Wall' });
    const outcomes = within(dialog).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent);
    expect(outcomes).toEqual(['完成', '被甄别', '配额已满', '安全终止', '撤销']);
    expect(within(dialog).getByRole('button', { name: '生成' })).toBeTruthy();
    expect(within(dialog).getByLabelText('请求头，每行一个')).toBeTruthy();
  });

  it('is not offered without the testReturn node', async () => {
    // The button's code (its own chunk) is in before the list draws: its absence is the node's doing.
    await import('../../../src/client/admin/resources/survey/provider/TestReturnButton.js');
    renderList({ allow: (node) => !node.endsWith('testreturn') });
    await screen.findByText('Acme Research');
    expect(screen.queryByRole('button', { name: 'Test returns' })).toBeNull();
  });
});
