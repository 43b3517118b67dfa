// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigIndex } from '../../../src/contract/config-values.js';
import { configOverride } from '../../../src/client/admin/resources/system/config/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** The system configuration screen: a tab per group, widgets by item type, saving, permissions. */

const RESOURCE = 'routine/config';

const item = (id: number, name: string, title: string, type: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  id, name, group: id < 10 ? 'basics' : 'mail', title, tip: '', type, value, content: '' as const, rule: '', extend: '', allow_del: 0, weigh: 0, ...extra,
});

const INDEX: ConfigIndex = {
  list: {
    basics: {
      name: 'basics',
      title: 'Basics',
      list: [
        item(1, 'site_name', 'Site Name', 'string', 'Chidao', { rule: 'required' }),
        item(2, 'admin_login_captcha', 'Admin login captcha', 'switch', true),
        item(3, 'survey_notice', 'Survey notice', 'radio', 'on', { content: { on: 'On', off: 'Off' }, allow_del: 1 }),
      ],
    },
    mail: {
      name: 'mail',
      title: 'Mail',
      list: [item(11, 'smtp_server', 'SMTP server', 'string', 'smtp.example.com'), item(12, 'smtp_pass', 'SMTP password', 'password', '')],
    },
  },
  remark: '',
  configGroup: { basics: 'Basics', mail: 'Mail' },
  quickEntrance: [{ key: 'Member groups', value: 'user/group' }],
};

afterEach(cleanup);

function renderConfig(allow?: (node: string) => boolean, index: ConfigIndex = INDEX) {
  const List = configOverride(schema('system/config')).list as ComponentType;
  const dataProvider = fakeDataProvider({});
  dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({ data: name === 'index' ? index : null }));
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

describe('system configuration screen', () => {
  it('shows a tab per group and each item with the widget of its type', async () => {
    renderConfig();
    expect(await screen.findByRole('tab', { name: 'Basics' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Mail' })).toBeTruthy();
    expect((screen.getByLabelText(/Site Name/) as HTMLInputElement).value).toBe('Chidao');
    expect((screen.getByRole('switch', { name: 'Admin login captcha' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'On' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Mail' }));
    expect(await screen.findByText('Leave blank to keep it unchanged')).toBeTruthy();
    // the quick entrances of config_quick_entrance open their pages
    expect(screen.getByRole('link', { name: 'Member groups' }).getAttribute('href')).toBe('/user/group');
  });

  it('heads the quick entrances\' columns with what they hold, and another key/value item with "Key" and "Value"', async () => {
    const entrances = [{ key: 'Member groups', value: 'user/group' }];
    const withEntrances: ConfigIndex = {
      ...INDEX,
      list: {
        ...INDEX.list,
        config_quick_entrance: {
          name: 'config_quick_entrance',
          title: 'Quick entrances',
          list: [
            item(21, 'config_quick_entrance', 'Quick entrances', 'array', entrances, { group: 'config_quick_entrance' }),
            item(22, 'partner_links', 'Partner links', 'array', [{ key: 'Help', value: 'https://example.com' }], { group: 'config_quick_entrance', allow_del: 1 }),
          ],
        },
      },
      configGroup: { ...INDEX.configGroup, config_quick_entrance: 'Quick entrances' },
      quickEntrance: entrances,
    };
    renderConfig(undefined, withEntrances);
    fireEvent.click(await screen.findByRole('tab', { name: 'Quick entrances' }));
    const quick = await waitFor(() => {
      const found = document.querySelector('[data-config-item="config_quick_entrance"]');
      if (!(found instanceof HTMLElement)) throw new Error('no quick entrances');
      return found;
    });
    expect((within(quick).getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Member groups');
    expect((within(quick).getByRole('textbox', { name: 'Address' }) as HTMLInputElement).value).toBe('user/group');
    expect(within(quick).queryByRole('textbox', { name: 'Key' })).toBeNull();
    const other = document.querySelector('[data-config-item="partner_links"]') as HTMLElement;
    expect((within(other).getByRole('textbox', { name: 'Key' }) as HTMLInputElement).value).toBe('Help');
    expect((within(other).getByRole('textbox', { name: 'Value' }) as HTMLInputElement).value).toBe('https://example.com');
  });

  it('offers a new item\'s group by its title in the reader\'s language, and posts its key', async () => {
    const Create = configOverride(schema('system/config')).create as ComponentType;
    const dataProvider = fakeDataProvider({});
    dataProvider.action.mockImplementation(async (_resource: string, name: string) => ({ data: name === 'index' ? { ...INDEX, configGroup: { basics: '基础配置', mail: '邮件配置' } } : null }));
    renderScreen(<Create />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider() });
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'index'));
    const group = await screen.findByRole('combobox', { name: 'Group' });
    fireEvent.mouseDown(group);
    await waitFor(() => expect(screen.getAllByRole('option').map((option) => option.textContent?.trim()).filter(Boolean)).toEqual(['基础配置', '邮件配置']));
    fireEvent.click(screen.getByRole('option', { name: '邮件配置' }));
    expect(group.textContent).toBe('邮件配置');
    fireEvent.change(screen.getByRole('textbox', { name: /Variable name/ }), { target: { value: 'smtp_note' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Title/ }), { target: { value: 'SMTP note' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    expect(dataProvider.create.mock.calls[0][1].data).toMatchObject({ name: 'smtp_note', title: 'SMTP note', group: 'mail' });
  });

  it('saves the group as {name: value}', async () => {
    const dataProvider = renderConfig();
    fireEvent.change(await screen.findByLabelText(/Site Name/), { target: { value: 'Panel' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Admin login captcha' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'edit', expect.anything()));
    const [, , params] = dataProvider.action.mock.calls.find((call) => call[1] === 'edit') ?? [];
    expect(params.data).toEqual({ site_name: 'Panel', admin_login_captcha: false, survey_notice: 'on' });
  });

  it('clears a stored password only when its box is ticked; left empty, the password is kept', async () => {
    const withStored: ConfigIndex = {
      ...INDEX,
      list: { ...INDEX.list, mail: { ...INDEX.list.mail, list: [item(11, 'smtp_server', 'SMTP server', 'string', 'smtp.example.com'), item(12, 'smtp_pass', 'SMTP password', 'password', '', { isSet: true })] } },
    };
    const dataProvider = renderConfig(undefined, withStored);
    fireEvent.click(await screen.findByRole('tab', { name: 'Mail' }));
    expect(await screen.findByText('A password is stored. Leave the field empty to keep it.')).toBeTruthy();
    const edits = () => dataProvider.action.mock.calls.filter((call) => call[1] === 'edit').map((call) => call[2].data);

    fireEvent.change(screen.getByLabelText(/SMTP server/), { target: { value: 'mail.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edits()).toHaveLength(1));
    expect(edits()[0]).toEqual({ smtp_server: 'mail.example.com', smtp_pass: '' });

    // ticking the box alone is a change worth saving
    fireEvent.click(screen.getByRole('checkbox', { name: 'Clear the stored password when saving' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edits()).toHaveLength(2));
    expect(edits()[1]).toMatchObject({ smtp_pass: '', clearSecrets: ['smtp_pass'] });
  });

  it('offers no clearing for a password that is not stored', async () => {
    renderConfig();
    fireEvent.click(await screen.findByRole('tab', { name: 'Mail' }));
    await screen.findByLabelText(/SMTP server/);
    expect(screen.queryByRole('checkbox', { name: 'Clear the stored password when saving' })).toBeNull();
  });

  it('shows a value the server refuses on its field', async () => {
    const dataProvider = renderConfig();
    dataProvider.action.mockImplementation(async (_resource: string, name: string) => {
      if (name === 'index') return { data: INDEX };
      throw new HttpError('Site Name cannot be empty', 200, { code: 0, msg: 'Site Name cannot be empty', time: 0, data: { field: 'site_name' } });
    });
    fireEvent.change(await screen.findByLabelText(/Site Name/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Site Name cannot be empty')).toBeTruthy();
  });

  it('offers save, add and delete only with their nodes, and delete only on items added later', async () => {
    renderConfig();
    await screen.findByRole('tab', { name: 'Basics' });
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add config item' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Delete .+/ })).toHaveLength(1);
    cleanup();

    renderConfig((node) => node.endsWith('/list'));
    await screen.findByRole('tab', { name: 'Basics' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add config item' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete .+/ })).toBeNull();
  });

  it('sends a test mail from the mail tab with the settings in the form, unsaved; a refused setting shows on its field', async () => {
    const dataProvider = renderConfig();
    fireEvent.click(await screen.findByRole('tab', { name: 'Mail' }));
    fireEvent.change(await screen.findByLabelText(/SMTP server/), { target: { value: 'mail.example.com' } });
    const sendTo = async (address: string) => {
      fireEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.change(within(dialog).getByLabelText(/Recipient address/), { target: { value: address } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
      return dialog;
    };
    await sendTo('owner@example.org');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'sendTestMail', { data: { smtp_server: 'mail.example.com', smtp_pass: '', testMail: 'owner@example.org' } });
    expect(dataProvider.action).not.toHaveBeenCalledWith(RESOURCE, 'edit', expect.anything());

    const refuse = (field: string, msg: string) =>
      dataProvider.action.mockImplementation(async (_resource: string, name: string) => {
        if (name === 'index') return { data: INDEX };
        throw new HttpError(msg, 200, { code: 0, msg, time: 0, data: { field } });
      });
    // a refused recipient stays in the dialog, on its field
    refuse('testMail', 'Please enter the correct email address');
    const dialog = await sendTo('owner');
    expect(await within(dialog).findByText('Please enter the correct email address')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // a refused setting closes it and shows on the setting
    refuse('smtp_server', 'SMTP server has an invalid format');
    await sendTo('owner@example.org');
    expect(await screen.findByText('SMTP server has an invalid format')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers the test mail only with its node, and only on the mail tab', async () => {
    renderConfig();
    await screen.findByRole('tab', { name: 'Basics' });
    expect(screen.queryByRole('button', { name: 'Send test mail' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Mail' }));
    expect(await screen.findByRole('button', { name: 'Send test mail' })).toBeTruthy();
    cleanup();

    renderConfig((node) => !node.endsWith('/sendTestMail'));
    fireEvent.click(await screen.findByRole('tab', { name: 'Mail' }));
    await screen.findByLabelText(/SMTP server/);
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send test mail' })).toBeNull();
  });

  it('shows each code channel with its state and last check, and a test SMS reloads them without touching the form', async () => {
    let smsWorks = false;
    const withChannels = (): ConfigIndex => ({
      ...INDEX,
      channels: [
        { channel: 'email', state: 'failing', checkedTime: 1_764_750_000, checkedBy: 'test', detail: 'connect ECONNREFUSED 127.0.0.1:465' },
        smsWorks
          ? { channel: 'mobile', state: 'working', checkedTime: 1_764_750_600, checkedBy: 'test', detail: '' }
          : { channel: 'mobile', state: 'unchecked', checkedTime: null, checkedBy: '', detail: '' },
      ],
    });
    const dataProvider = fakeDataProvider({});
    dataProvider.action.mockImplementation(async (_resource: string, name: string) => {
      if (name === 'sendTestSms') smsWorks = true;
      return { data: name === 'index' ? withChannels() : null };
    });
    const List = configOverride(schema('system/config')).list as ComponentType;
    renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider() });

    const region = await screen.findByRole('region', { name: 'Verification code channels' });
    const rows = within(region).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-labelledby'))).toEqual(['code-channel-email', 'code-channel-mobile']);
    expect(within(rows[0]).getByText('Not working')).toBeTruthy();
    expect(within(rows[0]).getByText(/^Last checked .+ by a test message$/)).toBeTruthy();
    expect(rows[0].textContent).toContain('The last mail did not go out, so mail codes are not offered. Correct the Mail settings and send a test mail.');
    expect(within(rows[1]).getByText('Not checked yet')).toBeTruthy();
    expect(within(rows[1]).getByText('Never checked')).toBeTruthy();

    // a typed but unsaved value survives the reload of the channels
    fireEvent.change(await screen.findByLabelText(/Site Name/), { target: { value: 'Typed, not saved' } });
    fireEvent.click(within(rows[1]).getByRole('button', { name: 'Send test SMS' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Mobile number/), { target: { value: '13900139000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'sendTestSms', { data: { mobile: '13900139000' } });
    expect(await within(region).findByText('Working')).toBeTruthy();
    expect((screen.getByLabelText(/Site Name/) as HTMLInputElement).value).toBe('Typed, not saved');
  });

  it('offers the test SMS only with its node', async () => {
    renderConfig((node) => !node.endsWith('/sendTestSms'), { ...INDEX, channels: [{ channel: 'mobile', state: 'unchecked', checkedTime: null, checkedBy: '', detail: '' }] });
    const region = await screen.findByRole('region', { name: 'Verification code channels' });
    expect(within(region).getByText('Not checked yet')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Send test SMS' })).toBeNull();
  });
});
