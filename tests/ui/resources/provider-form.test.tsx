// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import zhSurvey from '../../../locales/zh-cn/admin/survey.json';
import zhReactAdmin from '../../../locales/zh-cn/common/react-admin.json';
import enSurvey from '../../../locales/en/admin/survey.json';
import enGenerated from '../../../locales/en/admin/generated.json';
import zhGenerated from '../../../locales/zh-cn/admin/generated.json';
import type { ProviderPreset } from '../../../src/contract/provider-tool.js';
import { resourceFor } from '../../../src/client/admin/resources/index.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * The provider's add and edit dialogs: choosing a preset fills the whole form from the provider's guide
 * (recipe, parameter names, exit codes, reversal, answer, wall settings) and shows the guide it follows;
 * the signature recipe and the reversal rule are edited field by field and saved as JSON; the edit dialog
 * shows the addresses to hand to the provider, each with a copy button.
 */

const RESOURCE = 'survey/provider';
/** The whole provider form, filled in field by field: 15 s on an idle machine, several times that on two busy cores. */
const FORM_TIMEOUT_MS = 150_000;

const BITLABS: ProviderPreset = {
  id: 'bitlabs',
  version: 1,
  kind: 'wall',
  title: 'BitLabs',
  source: { document: 'Securing callbacks through hashing', url: 'https://developer.bitlabs.ai/docs/securing-callbacks-through-hashing', date: '2026-12-02' },
  notes: 'Set our callback address with uid=[%UID%] and val=[%VAL%] in the BitLabs dashboard.',
  fields: {
    signature: { text: 'url', key: 'hmac', algorithm: 'sha1', encoding: 'hex', in: 'query', expiry: null },
    sig_param: 'hash', member_param: 'uid', amount_param: 'val', transaction_param: 'tx', status_param: 'type',
    exit_map: { COMPLETE: 'complete', SCREENOUT: 'terminate' },
    reversal: { by: 'status', param: 'type', value: 'RECONCILIATION' },
    answer_status: 200, credit_on: 'callback', wall_url: 'https://web.bitlabs.ai/?uid={member}&token=YOUR_APP_TOKEN', wall_credit: 'money', amount_in: 'major',
  },
};
/** BitLabs as the server lists it to a zh-cn reader: the document's own name kept, the words around it in Chinese. */
const BITLABS_ZH: ProviderPreset = { ...BITLABS, source: { ...BITLABS.source, document: 'Securing callbacks through hashing（BitLabs 开发者文档）' } };
const CUSTOM: ProviderPreset = { id: 'custom', version: 1, kind: 'project', title: 'Custom', source: { document: '', url: '', date: '' }, notes: '', fields: {} };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function zhProvider() {
  const messages = { ...englishMessages, ...zhReactAdmin, ...zhGenerated, ...zhSurvey } as unknown as TranslationMessages;
  return polyglotI18nProvider(() => messages, 'zh-cn', [{ locale: 'zh-cn', name: 'zh-cn' }], { allowMissing: true });
}

function enProvider() {
  return polyglotI18nProvider(() => ({ ...englishMessages, ...enGenerated, ...enSurvey }) as unknown as TranslationMessages, 'en', [{ locale: 'en', name: 'en' }], { allowMissing: true });
}

function renderForm(mode: 'create' | 'edit', { rows = [] as Record<string, unknown>[], zh = false } = {}) {
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows as never[] });
  dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({ data: name === 'presets' ? { list: [CUSTOM, zh ? BITLABS_ZH : BITLABS] } : null }));
  // The list draws the add and edit dialogs at their paths.
  const Screen = resourceFor(schema('survey/provider')).list;
  const path = mode === 'create' ? `/${RESOURCE}/create` : `/${RESOURCE}/${String(rows[0]?.id)}`;
  renderScreen(<Screen />, { resource: RESOURCE, dataProvider, path, resourceRoute: true, locale: zh ? 'zh-cn' : 'en', i18nProvider: zh ? zhProvider() : enProvider() });
  return dataProvider;
}

async function pick(container: HTMLElement, label: string | RegExp, option: string) {
  fireEvent.mouseDown(within(container).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

const comboboxText = (container: HTMLElement, label: string | RegExp) => within(container).getByRole('combobox', { name: label }).textContent;

describe('provider form', () => {
  it('fills every field from the chosen preset and shows the guide it follows', async () => {
    const dataProvider = renderForm('create');
    const dialog = await screen.findByRole('dialog', { name: 'Add provider' });
    fireEvent.change(await within(dialog).findByRole('textbox', { name: /^Provider code/ }), { target: { value: 'bitlabs' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'BitLabs wall' } });
    // A field the preset leaves out goes back to its default.
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Test marker parameter/ }), { target: { value: 'debug' } });

    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'presets'));
    await pick(dialog, /^Preset/, 'BitLabs');
    expect(within(dialog).getByText(/^Filled from the preset BitLabs: add the secret/)).toBeTruthy();
    const source = within(dialog).getByRole('link', { name: 'Securing callbacks through hashing' });
    expect(source.getAttribute('href')).toBe('https://developer.bitlabs.ai/docs/securing-callbacks-through-hashing');
    expect(within(dialog).getByText(/read 2026-12-02/)).toBeTruthy();
    expect(within(dialog).getByText(/uid=\[%UID%\] and val=\[%VAL%\]/)).toBeTruthy();

    // The form shows what the preset filled in.
    expect((within(dialog).getByRole('radio', { name: 'Wall or router' }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByRole('textbox', { name: /^Signature parameter/ }) as HTMLInputElement).value).toBe('hash');
    expect((within(dialog).getByRole('textbox', { name: /^Member parameter/ }) as HTMLInputElement).value).toBe('uid');
    expect((within(dialog).getByRole('textbox', { name: /^Test marker parameter/ }) as HTMLInputElement).value).toBe('');
    const recipe = await within(dialog).findByRole('group', { name: 'Signature recipe' });
    expect(comboboxText(recipe, /^What is signed/)).toBe('The full URL (https://our-site/path?query)');
    expect(comboboxText(recipe, /^Algorithm/)).toBe('SHA-1');
    const reversal = within(dialog).getByRole('group', { name: 'Reversal rule' });
    expect(comboboxText(reversal, /^How the provider sends a reversal/)).toBe('A status code');
    expect((within(reversal).getByRole('textbox', { name: /^Status codes meaning a reversal/ }) as HTMLInputElement).value).toBe('RECONCILIATION');

    // The operator adds the secret and overrides what differs, then saves.
    fireEvent.change(within(dialog).getByLabelText(/^Secret/), { target: { value: 'app-secret-1' } });
    await pick(recipe, /^Encoding/, 'Base64');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    const saved = (dataProvider.create.mock.calls[0][1] as { data: Record<string, unknown> }).data;
    expect(saved).toMatchObject({
      code: 'bitlabs', name: 'BitLabs wall', secret: 'app-secret-1', preset: 'bitlabs', kind: 'wall', sig_param: 'hash', member_param: 'uid',
      amount_param: 'val', transaction_param: 'tx', status_param: 'type', exit_map: { COMPLETE: 'complete', SCREENOUT: 'terminate' },
      credit_on: 'callback', amount_in: 'major', wall_url: 'https://web.bitlabs.ai/?uid={member}&token=YOUR_APP_TOKEN', test_param: '', rid_param: 'rid',
      signature: { text: 'url', key: 'hmac', algorithm: 'sha1', encoding: 'base64', in: 'query', expiry: null },
      reversal: { by: 'status', param: 'type', value: 'RECONCILIATION' },
    });
  }, FORM_TIMEOUT_MS);

  it('edits the recipe field by field, showing only what applies, and saves it as JSON', async () => {
    const dataProvider = renderForm('create');
    const dialog = await screen.findByRole('dialog', { name: 'Add provider' });
    fireEvent.change(await within(dialog).findByRole('textbox', { name: /^Provider code/ }), { target: { value: 'acme' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Acme' } });
    fireEvent.change(within(dialog).getByLabelText(/^Secret/), { target: { value: 's3cret' } });
    const recipe = await within(dialog).findByRole('group', { name: 'Signature recipe' });
    // Defaults: HMAC-SHA256 in hex of the path and query, in the query.
    expect(comboboxText(recipe, /^What is signed/)).toBe('The path and query (/path?query)');
    expect(within(recipe).queryByRole('textbox', { name: /^Parameter names/ })).toBeNull();

    await pick(recipe, /^What is signed/, 'Named parameter values, joined');
    const names = within(recipe).getByRole('textbox', { name: /^Parameter names, in order/ });
    expect(within(recipe).getByText('Comma-separated; their decoded values are joined. Example: subId, transId, reward')).toBeTruthy();
    fireEvent.change(names, { target: { value: 'subId, transId,' } });
    // The trailing comma stays while typing.
    expect((names as HTMLInputElement).value).toBe('subId, transId,');
    fireEvent.change(names, { target: { value: 'subId, transId, reward' } });
    fireEvent.change(within(recipe).getByRole('textbox', { name: /^Separator between values/ }), { target: { value: ':' } });
    await pick(recipe, /^How the secret is used/, 'Text, then secret');
    fireEvent.change(within(recipe).getByRole('textbox', { name: /^Between text and secret/ }), { target: { value: '-' } });
    await pick(recipe, /^Algorithm/, 'MD5');
    await pick(recipe, /^Where the signature is/, 'A request header');
    fireEvent.click(within(recipe).getByRole('switch', { name: 'The request carries a timestamp that expires' }));
    fireEvent.change(within(recipe).getByRole('textbox', { name: /^Timestamp name/ }), { target: { value: 'X-Time' } });
    await pick(recipe, /^Timestamp is in/, 'A request header');
    await pick(recipe, /^Unit/, 'Milliseconds');
    fireEvent.change(within(recipe).getByRole('textbox', { name: /^Allowed difference/ }), { target: { value: '120' } });

    const reversal = within(dialog).getByRole('group', { name: 'Reversal rule' });
    await pick(reversal, /^How the provider sends a reversal/, 'A status code');
    fireEvent.change(within(reversal).getByRole('textbox', { name: /^Parameter/ }), { target: { value: 'status' } });
    const codes = within(reversal).getByRole('textbox', { name: /^Status codes/ });
    fireEvent.change(codes, { target: { value: '2,' } });
    expect((codes as HTMLInputElement).value).toBe('2,');
    fireEvent.change(codes, { target: { value: '2, 3' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    const saved = (dataProvider.create.mock.calls[0][1] as { data: Record<string, unknown> }).data;
    expect(saved.signature).toEqual({
      text: 'values', names: ['subId', 'transId', 'reward'], separator: ':', key: 'append', keySeparator: '-', algorithm: 'md5', encoding: 'hex', in: 'header',
      expiry: { in: 'header', name: 'X-Time', unit: 'ms', skewSeconds: 120 },
    });
    expect(saved.reversal).toEqual({ by: 'status', param: 'status', value: ['2', '3'] });
  }, FORM_TIMEOUT_MS);

  it('shows an HMAC chain, a text hashed first, other signature names and a deadline with their labels, and saves them as they were', async () => {
    const rex = {
      text: 'canonical_query', textHash: 'sha256', key: 'hmac_chain', chain: [{ in: 'query', name: 'expiration' }, { in: 'query', name: 'access_key' }, { in: 'secret' }],
      algorithm: 'sha256', encoding: 'hex', in: 'query', signatureAliases: ['sig2'], expiry: { in: 'query', name: 'expiration', unit: 'rfc3339', kind: 'deadline', skewSeconds: 86_400 },
    };
    const row = { id: 7, code: 'rex', name: 'REX', preset: 'dynata_rex', kind: 'project', rid_param: 'rid', status: 'enable', signature: rex, reversal: { by: 'none' }, exit_map: {} };
    const dataProvider = renderForm('edit', { rows: [row] });
    const dialog = await screen.findByRole('dialog');
    const recipe = await within(dialog).findByRole('group', { name: 'Signature recipe' });
    expect(comboboxText(recipe, /^What is signed/)).toBe('The query decoded, sorted and encoded again');
    expect(comboboxText(recipe, /^Hash the text first/)).toBe('SHA-256');
    expect(comboboxText(recipe, /^How the secret is used/)).toBe('A chain of HMACs, keyed in turn');
    expect(comboboxText(recipe, /^Keys in the chain/)).toBe('3');
    expect(within(recipe).getByText(/^Each HMAC is keyed by the next key in turn/)).toBeTruthy();
    expect(comboboxText(recipe, /^Key 1 is/)).toBe('A request parameter');
    expect((within(recipe).getByRole('textbox', { name: /^Key 1 name/ }) as HTMLInputElement).value).toBe('expiration');
    expect((within(recipe).getByRole('textbox', { name: /^Key 2 name/ }) as HTMLInputElement).value).toBe('access_key');
    expect(comboboxText(recipe, /^Key 3 is/)).toBe('The secret');
    expect(within(recipe).queryByRole('textbox', { name: /^Key 3 name/ })).toBeNull();
    expect((within(recipe).getByRole('textbox', { name: /^Other names of the signature/ }) as HTMLInputElement).value).toBe('sig2');
    expect(comboboxText(recipe, /^The time says/)).toBe('Until when it is good (a deadline)');
    expect(comboboxText(recipe, /^Unit/)).toBe('RFC 3339 date and time');
    expect((within(recipe).getByRole('textbox', { name: /^Furthest ahead a deadline may lie/ }) as HTMLInputElement).value).toBe('86400');

    // A fourth key goes before the secret; back to three, the secret stays last.
    await pick(recipe, /^Keys in the chain/, '4');
    expect(comboboxText(recipe, /^Key 4 is/)).toBe('The secret');
    expect(comboboxText(recipe, /^Key 3 is/)).toBe('A request parameter');
    await pick(recipe, /^Keys in the chain/, '3');
    expect(comboboxText(recipe, /^Key 3 is/)).toBe('The secret');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalled());
    const saved = (dataProvider.update.mock.calls[0][1] as { data: Record<string, unknown> }).data;
    expect(saved.signature).toEqual({ ...rex, chain: [{ in: 'query', name: 'expiration' }, { in: 'query', name: 'access_key' }, { in: 'secret' }] });
  }, FORM_TIMEOUT_MS);

  it('shows the addresses to hand to the provider on the edit dialog, with copy buttons', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { clipboard: { writeText } }));
    const row = {
      id: 5, code: 'acme', name: 'Acme', preset: 'custom', kind: 'project', rid_param: 'tid', status: 'enable',
      signature: { text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null }, reversal: { by: 'none' }, exit_map: {},
      callback_url: 'https://panel.example.com/api/survey/callback/acme',
      exit_urls: { complete: 'https://panel.example.com/success?tid=[%RID%]', terminate: 'https://panel.example.com/terminate?tid=[%RID%]' },
    };
    renderForm('edit', { rows: [row] });
    const dialog = await screen.findByRole('dialog');
    const addresses = await within(dialog).findByRole('region', { name: 'Addresses to give the provider' });
    expect((within(addresses).getByRole('textbox', { name: 'Callback URL' }) as HTMLTextAreaElement).value).toBe('https://panel.example.com/api/survey/callback/acme');
    expect((within(addresses).getByRole('textbox', { name: 'Exit URL: Complete' }) as HTMLTextAreaElement).value).toBe('https://panel.example.com/success?tid=[%RID%]');
    expect((within(addresses).getByRole('textbox', { name: 'Exit URL: Screened out' }) as HTMLTextAreaElement).value).toBe('https://panel.example.com/terminate?tid=[%RID%]');
    fireEvent.click(within(addresses).getByRole('button', { name: 'Copy Exit URL: Complete' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('https://panel.example.com/success?tid=[%RID%]'));
    expect(await within(addresses).findByText('Copied')).toBeTruthy();
  });

  it('speaks the admin’s language', async () => {
    renderForm('create', { zh: true });
    const dialog = await screen.findByRole('dialog');
    const recipe = await within(dialog).findByRole('group', { name: '签名方法' });
    expect(comboboxText(recipe, /^签名的内容/)).toBe('路径和参数（/路径?参数）');
    expect(within(recipe).getByText(/^例：HMAC-SHA256 即 HMAC 加 SHA-256/)).toBeTruthy();
    expect(within(recipe).getByRole('textbox', { name: /^签名的其他名称/ })).toBeTruthy();
    expect(comboboxText(recipe, /^先对内容取哈希/)).toBe('否');
    const reversal = within(dialog).getByRole('group', { name: '撤销规则' });
    expect(comboboxText(reversal, /^渠道如何发送撤销/)).toBe('从不撤销');
    expect(within(dialog).getByText('保存渠道后，这里会显示回调地址和退出地址。')).toBeTruthy();
  });

  it('names the preset’s source document in the admin’s language', async () => {
    const dataProvider = renderForm('create', { zh: true });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'presets'));
    await pick(dialog, /^预设/, 'BitLabs');
    const source = within(within(dialog).getByTestId('preset-source')).getByRole('link', { name: 'Securing callbacks through hashing（BitLabs 开发者文档）' });
    expect(source.getAttribute('href')).toBe('https://developer.bitlabs.ai/docs/securing-callbacks-through-hashing');
    expect(within(dialog).getByTestId('preset-source').textContent).toMatch(/^依据/);
  });
});
