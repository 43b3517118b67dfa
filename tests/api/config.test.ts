import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigIndex, ConfigItem } from '../../src/contract/config-values.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * `routine.Config` (docs/wire-contract.md#site-configuration): the grouped items of the config screen, saving values by type with
 * the items' own rules, and adding and deleting items.
 */

describe.each(DATABASES)('routine.Config on %s', (kind) => {
  let server: TestServer;
  let token: string;

  const t = (key: string, params: (string | number)[] = []) => server.server.app.messages.translator('en')(key, params);
  const call = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });
  const stored = async (name: string) =>
    ((await server.server.app.db.selectFrom('config').select('value').where('name', '=', name).executeTakeFirst()) as { value: string | null } | undefined)?.value;
  const storedValues = async () =>
    Object.fromEntries(((await server.server.app.db.selectFrom('config').select(['name', 'value']).execute()) as { name: string; value: string }[]).map((row) => [row.name, row.value]));

  async function items(lang: 'en' | 'zh-cn' = 'en'): Promise<ConfigIndex> {
    const response = await call<ConfigIndex>('routine.Config/index', { lang });
    expect(response.code).toBe(1);
    return response.data;
  }

  function item(index: ConfigIndex, name: string): ConfigItem | undefined {
    return Object.values(index.list).flatMap((group) => group.list ?? []).find((row) => row.name === name);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the items by group, in the order of config_group, with values decoded by type', async () => {
    const index = await items();
    expect(Object.keys(index.list)).toEqual(['basics', 'mail', 'points', 'payout', 'upload', 'config_quick_entrance']);
    expect(index.configGroup).toEqual({ basics: 'Basics', mail: 'Mail', points: 'Points exchange', payout: 'Payouts', upload: 'Uploads', config_quick_entrance: 'Quick entrances' });
    expect(index.list.basics.list?.[0]).toMatchObject({ name: 'site_name', title: 'Site Name', type: 'string', rule: 'required' });
    expect(item(index, 'admin_login_captcha')?.value).toBe(true);
    expect(item(index, 'smtp_verification')).toMatchObject({ value: 'SSL', content: { SSL: 'SSL', TLS: 'TLS' } });
    expect(item(index, 'config_group')?.value).toEqual([
      { key: 'basics', value: 'Basics' },
      { key: 'mail', value: 'Mail' },
      { key: 'points', value: 'Points exchange' },
      { key: 'payout', value: 'Payouts' },
      { key: 'upload', value: 'Uploads' },
      { key: 'config_quick_entrance', value: 'Config Quick entrance' },
    ]);
    expect(index.quickEntrance).toEqual([]);

    const zh = await items('zh-cn');
    expect(zh.configGroup.basics).toBe('基础配置');
    expect(item(zh, 'site_name')?.title).toBe('站点名称');
  });

  it('saves any subset of items, stores each by its type, and applies at once', async () => {
    const response = await call('routine.Config/edit', { method: 'POST', body: { site_name: 'Panel One', admin_login_captcha: false, smtp_port: '587', smtp_verification: 'TLS' } });
    expect(response).toMatchObject({ code: 1, msg: t('The current page configuration item was updated successfully') });
    expect(await stored('site_name')).toBe('Panel One');
    expect(await stored('admin_login_captcha')).toBe('0');
    expect(await stored('smtp_verification')).toBe('TLS');
    const bootstrap = await call<{ siteConfig: { siteName: string } }>('Index/index');
    expect(bootstrap.data.siteConfig.siteName).toBe('Panel One');
    expect((await server.admin<{ captcha: boolean }>('Index/login')).data.captcha).toBe(false);

    const entrances = [{ key: 'Admins', value: 'auth/admin' }];
    await call('routine.Config/edit', { method: 'POST', body: { config_quick_entrance: entrances, admin_login_captcha: true } });
    expect((await items()).quickEntrance).toEqual(entrances);
    expect(await stored('admin_login_captcha')).toBe('1');
  });

  it('never sends a password back, and keeps it when left empty', async () => {
    await call('routine.Config/edit', { method: 'POST', body: { smtp_pass: 'mail-secret' } });
    expect(await stored('smtp_pass')).toBe('mail-secret');
    expect(item(await items(), 'smtp_pass')?.value).toBe('');
    expect(JSON.stringify(await items())).not.toContain('mail-secret');
    await call('routine.Config/edit', { method: 'POST', body: { smtp_pass: '', smtp_user: 'mailer' } });
    expect(await stored('smtp_pass')).toBe('mail-secret');
  });

  it.each([
    ['an empty required item', { site_name: '', smtp_port: '25' }, 'site_name', () => t('%s cannot be empty', ['Site Name'])],
    ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'time_zone', () => t('Unknown time zone: %s', ['Mars/Olympus'])],
    ['a choice outside the dictionary', { smtp_verification: 'STARTTLS' }, 'smtp_verification', () => t('%s has an invalid format', ['SMTP verification'])],
    ['a switch that is neither on nor off', { admin_login_captcha: 'maybe' }, 'admin_login_captcha', () => t('%s has an invalid format', ['Admin login captcha'])],
    ['a bad sender address', { smtp_sender_mail: 'not-mail' }, 'smtp_sender_mail', () => t('Please enter the correct email address')],
    ['an object for a text item', { site_name: { $gt: '' } }, 'site_name', () => t('%s has an invalid format', ['Site Name'])],
    ['a moved back-office entrance', { backend_entrance: '/elsewhere' }, 'backend_entrance', () => t('The back-office entrance is set when the server starts and cannot be changed here')],
    ['a group list that drops a group in use', { config_group: [{ key: 'basics', value: 'Basics' }, { key: 'points', value: 'Points exchange' }, { key: 'payout', value: 'Payouts' }, { key: 'upload', value: 'Uploads' }, { key: 'config_quick_entrance', value: 'Quick' }] }, 'config_group', () => t('The group %s still holds config items', ['mail'])],
  ])('refuses %s, naming the field, and changes nothing', async (_case, body, field, message) => {
    const before = await storedValues();
    const response = await call('routine.Config/edit', { method: 'POST', body });
    expect(response).toMatchObject({ code: 0, msg: message(), data: { field } });
    expect(await storedValues()).toEqual(before);
  });

  it('adds an item to a group, with its dictionary, and deletes only items added later', async () => {
    const added = await call('routine.Config/add', {
      method: 'POST',
      body: { name: 'survey_notice', group: 'basics', title: 'Survey notice', type: 'radio', content: 'on=On\noff=Off', value: 'on', rule: '', weigh: 0 },
    });
    expect(added.code).toBe(1);
    const notice = item(await items(), 'survey_notice');
    expect(notice).toMatchObject({ group: 'basics', type: 'radio', value: 'on', content: { on: 'On', off: 'Off' }, allow_del: 1 });

    expect((await call('routine.Config/edit', { method: 'POST', body: { survey_notice: 'off' } })).code).toBe(1);
    expect(await stored('survey_notice')).toBe('off');

    // BuildAdmin's form sends the rules as a list: stored comma-joined; an empty list is no rule.
    const contact = await call('routine.Config/add', { method: 'POST', body: { name: 'survey_contact', group: 'basics', title: 'Contact', type: 'string', value: 'desk@example.com', rule: ['required', 'email'] } });
    expect(contact.code).toBe(1);
    expect(item(await items(), 'survey_contact')).toMatchObject({ rule: 'required,email' });
    expect((await call('routine.Config/add', { method: 'POST', body: { name: 'survey_footer', group: 'basics', title: 'Footer', type: 'string', rule: [] } })).code).toBe(1);
    expect(item(await items(), 'survey_footer')).toMatchObject({ rule: '' });
    const objectRules = await call('routine.Config/add', { method: 'POST', body: { name: 'stray', group: 'basics', title: 'Stray', type: 'string', rule: [{ x: 1 }] } });
    expect(objectRules.code).toBe(0);

    const unknownGroup = await call('routine.Config/add', { method: 'POST', body: { name: 'stray', group: 'nowhere', title: 'Stray', type: 'string' } });
    expect(unknownGroup).toMatchObject({ code: 0, msg: t('Unknown config group: %s', ['nowhere']) });
    const badType = await call('routine.Config/add', { method: 'POST', body: { name: 'stray', group: 'basics', title: 'Stray', type: 'spreadsheet' } });
    expect(badType.code).toBe(0);
    expect(await stored('stray')).toBeUndefined();

    const siteName = item(await items(), 'site_name');
    const kept = await call('routine.Config/del', { method: 'DELETE', query: { ids: [siteName?.id] } });
    expect(kept).toMatchObject({ code: 0, msg: t('No rows were deleted') });
    expect(await stored('site_name')).toBeDefined();
    const removed = await call('routine.Config/del', { method: 'DELETE', query: { ids: [notice?.id] } });
    expect(removed.code).toBe(1);
    expect(await stored('survey_notice')).toBeUndefined();
  });

  it('checks the initial value of an added item against its type, dictionary and rules, and stores it as edit would', async () => {
    const add = (name: string, type: string, value: unknown, extra: Record<string, unknown> = {}) =>
      call('routine.Config/add', { method: 'POST', body: { name, group: 'basics', title: name, type, value, rule: '', weigh: 0, ...extra } });
    const refused: [string, string, unknown, Record<string, unknown>?][] = [
      ['bad_number', 'number', 'twelve'],
      ['bad_time', 'time', '8:30'],
      ['bad_array', 'array', 'not json'],
      ['bad_checkbox', 'checkbox', '{"a": 1}'],
      ['bad_radio', 'radio', 'maybe', { content: 'on=On\noff=Off' }],
      ['bad_mail', 'string', 'nobody', { rule: 'email' }],
    ];
    for (const [name, type, value, extra] of refused) {
      const response = await add(name, type, value, extra);
      expect({ code: response.code, data: response.data }, name).toEqual({ code: 0, data: { field: 'value', errorId: 'validation' } });
      expect(await stored(name), name).toBeUndefined();
    }
    const required = await add('needed', 'string', '', { rule: 'required' });
    expect({ code: required.code, msg: required.msg, data: required.data }).toEqual({ code: 0, msg: t('%s cannot be empty', ['Value']), data: { field: 'value', errorId: 'validation' } });

    expect((await add('opens_at', 'time', '08:30')).code).toBe(1);
    expect(await stored('opens_at')).toBe('08:30:00');
    expect((await add('reward_rate', 'number', ' 1.50')).code).toBe(1);
    expect(await stored('reward_rate')).toBe('1.5');
    expect((await add('pay_enabled', 'switch', '1')).code).toBe(1);
    expect(item(await items(), 'pay_enabled')?.value).toBe(true);
    expect((await add('regions', 'checkbox', '["north"]', { content: 'north=North\nsouth=South' })).code).toBe(1);
    expect(item(await items(), 'regions')?.value).toEqual(['north']);
    expect((await add('notes', 'textarea', null)).code).toBe(1);
    expect(await stored('notes')).toBe('');
  });

  it('needs the edit node to save', async () => {
    const rules = (await server.server.app.db.selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ['routine', 'routine/config', 'routine/config/index']).execute()) as { id: number }[];
    expect((await call('auth.Group/add', { method: 'POST', body: { pid: 1, name: 'Config readers', rules: rules.map((rule) => Number(rule.id)), status: '1' } })).code).toBe(1);
    const group = (await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Config readers').executeTakeFirstOrThrow()) as { id: number };
    const created = await call('auth.Admin/add', { method: 'POST', body: { username: 'reader1', nickname: 'Reader', password: 'Reader_pass1', group_arr: [Number(group.id)], status: '1' } });
    expect(created.code).toBe(1);
    const reader = await server.loginAdmin('reader1', 'Reader_pass1');
    expect((await server.admin('routine.Config/index', { token: reader.token })).code).toBe(1);
    const refused = await server.admin('routine.Config/edit', { token: reader.token, method: 'POST', body: { site_name: 'Hijacked' } });
    expect(refused.code).toBe(401);
    expect(await stored('site_name')).not.toBe('Hijacked');
  });
});
