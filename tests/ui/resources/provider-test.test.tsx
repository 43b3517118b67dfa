// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { providerOverride } from '../../../src/client/admin/resources/survey/provider/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** "Test returns" on a provider row: builds through the server action, shows what a check found; behind its node. */

const RESOURCE = 'survey/provider';
const rows = [{ id: 4, code: 'acme', name: 'Acme Research', rid_param: 'rid', sig_algo: 'hmac_sha256', status: 'enable', create_time: 1717207200 }];

afterEach(cleanup);

function renderList(allow?: (node: string) => boolean, locale = 'en') {
  const List = providerOverride(schema('survey/provider')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows });
  dataProvider.action.mockImplementation(async (_resource: string, _name: string, params: { data: { mode: string } }) => ({
    data: params.data.mode === 'build'
      ? {
          rid: 'test-1',
          redirect: { url: 'http://site.test/overquota?rid=test-1&sig=ab', signedText: '/overquota?rid=test-1', signature: 'ab' },
          callback: { url: 'http://site.test/api/survey/callback/acme?rid=test-1&status=40&sig=cd', signedText: '/api/survey/callback/acme?rid=test-1&status=40', signature: 'cd', method: 'GET', status: '40' },
        }
      : {
          ok: false, signatureValid: false, kind: 'redirect', outcome: 'security', signedText: '/overquota?rid=test-2', expectedSignature: 'ef', receivedSignature: 'ab',
          parameters: [{ name: 'rid', value: 'test-2', role: 'rid' }, { name: 'sig', value: 'ab', role: 'signature' }],
          problems: ['The signature does not match. The signed text is /overquota?rid=test-2: check the secret, and that no parameter was changed or added after signing'],
          warnings: [],
        },
  }));
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow), locale });
  return dataProvider;
}

describe('provider test tool', () => {
  it('builds a signed return for the chosen outcome and explains why a pasted URL fails', async () => {
    const dataProvider = renderList();
    await screen.findByText('Acme Research');
    fireEvent.click(await screen.findByRole('button', { name: 'Test returns' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test returns of Acme Research' });
    fireEvent.click(within(dialog).getByLabelText('Over quota'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Build' }));
    expect(await within(dialog).findByDisplayValue('GET http://site.test/api/survey/callback/acme?rid=test-1&status=40&sig=cd')).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', { data: { id: 4, mode: 'build', outcome: 'overquota' } });

    // The built URL is ready to check; a tampered one is explained.
    const pasted = within(dialog).getByLabelText('Return URL or callback, as the provider sends it');
    expect((pasted as HTMLTextAreaElement).value).toBe('http://site.test/overquota?rid=test-1&sig=ab');
    fireEvent.change(pasted, { target: { value: 'http://site.test/overquota?rid=test-2&sig=ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    expect(await within(dialog).findByText(/The signature does not match/)).toBeTruthy();
    expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'testReturn', { data: { id: 4, mode: 'check', url: 'http://site.test/overquota?rid=test-2&sig=ab' } });
    const table = within(dialog).getByRole('table', { name: 'Parameters' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['ParameterValueRead as', 'ridtest-2RID', 'sigabSignature']);
  });

  it('names the outcomes as the schema labels them everywhere, in the admin’s language', async () => {
    renderList(undefined, 'zh-cn');
    await screen.findByText('Acme Research');
    fireEvent.click(await screen.findByRole('button', { name: 'Test returns' }));
    const dialog = await screen.findByRole('dialog');
    const outcomes = within(dialog).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent);
    expect(outcomes).toEqual(['完成', '甄别', '配额满', '安全终止']);
  });

  it('is not offered without the testReturn node', async () => {
    // The button's code (its own chunk) is in before the list draws: its absence is the node's doing.
    await import('../../../src/client/admin/resources/survey/provider/TestReturnButton.js');
    renderList((node) => !node.endsWith('testreturn'));
    await screen.findByText('Acme Research');
    expect(screen.queryByRole('button', { name: 'Test returns' })).toBeNull();
  });
});
