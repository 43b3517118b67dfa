import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigIndex, ConfigItem } from '../../src/contract/config-values.js';
import { documentedConfigItems } from '../support/documented-config.js';
import { adminHolding } from '../support/limited-admin.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Every config item the README and docs/ document has a labelled field with help text, in Chinese and
 * English, in the group the documentation names (the list is read from the documentation's "config
 * item" tables, not copied here; docs/configuration.md holds the full one); items an environment variable decides say so, to administrators who
 * may open the config screen only; the payout and upload items apply where they are used.
 */

const CJK = /[\u4e00-\u9fff]/;
const documented = documentedConfigItems();
/** The page whose "config item" table lists every item the config screen shows, each with its group. */
const FULL_LIST = 'docs/configuration.md';

function itemsOf(index: ConfigIndex): ConfigItem[] {
  return Object.values(index.list).flatMap((group) => group.list ?? []);
}

describe.each(DATABASES)('documented config items on %s', (kind) => {
  let server: TestServer;
  let token: string;

  const index = async (lang: 'en' | 'zh-cn', as = token): Promise<ConfigIndex> => {
    const response = await server.admin<ConfigIndex>('routine.Config/index', { token: as, lang });
    expect(response.code, response.msg).toBe(1);
    return response.data;
  };
  const save = (body: Record<string, unknown>, lang: 'en' | 'zh-cn' = 'en') =>
    server.admin('routine.Config/edit', { token, lang, body });

  beforeAll(async () => {
    // the test servers turn both captchas off by their variables; the upload size is set by one too
    server = await startTestServer(kind, { env: { UPLOAD_MAX_SIZE: '2mb' } });
    ({ token } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reads the documented items from the README and docs/, docs/configuration.md listing every one with its group', () => {
    expect(documented.filter((item) => item.file === FULL_LIST).length).toBeGreaterThan(25);
    expect(documented.map((item) => item.name)).toEqual(
      expect.arrayContaining([
        'payout_min',
        'payout_two_admins',
        'upload_max_size',
        'upload_allowed_suffixes',
        'admin_token_keep_time',
      ]),
    );
    expect(documented.filter((item) => item.file === FULL_LIST).every((item) => item.group)).toBe(true);
  });

  it('gives each documented item a field with a title and help in both languages, in its group', async () => {
    const [en, zh] = [await index('en'), await index('zh-cn')];
    const problems: string[] = [];
    for (const { name, group, file } of documented) {
      const english = itemsOf(en).find((item) => item.name === name);
      const chinese = itemsOf(zh).find((item) => item.name === name);
      if (!english || !chinese) {
        problems.push(`${name} (${file}) has no field on the config screen`);
        continue;
      }
      if (group !== undefined && en.configGroup[english.group] !== group)
        problems.push(`${name} is in ${en.configGroup[english.group]}, ${file} says ${group}`);
      if (english.title === '' || english.title === name || english.tip === '')
        problems.push(`${name} lacks an English title or help`);
      if (!CJK.test(chinese.title) || !CJK.test(chinese.tip) || !CJK.test(zh.configGroup[chinese.group]))
        problems.push(`${name} lacks a Chinese title, help or group title`);
    }
    expect(problems).toEqual([]);
  });

  it('documents every item the config screen shows', async () => {
    const names = new Set(documented.filter((item) => item.file === FULL_LIST).map((item) => item.name));
    expect(
      itemsOf(await index('en'))
        .map((item) => item.name)
        .filter((name) => !names.has(name)),
    ).toEqual([]);
  });

  it('says which items an environment variable decides, with the value that applies, and only those', async () => {
    const items = itemsOf(await index('en'));
    const item = (name: string) => items.find((row) => row.name === name);
    // stored on, turned off by the variable: the screen gets both
    expect(item('admin_login_captcha')).toMatchObject({
      value: true,
      override: { variable: 'ADMIN_LOGIN_CAPTCHA', value: false },
    });
    expect(item('user_login_captcha')).toMatchObject({
      value: true,
      override: { variable: 'USER_LOGIN_CAPTCHA', value: false },
    });
    expect(item('upload_max_size')).toMatchObject({
      value: '10mb',
      override: { variable: 'UPLOAD_MAX_SIZE', value: '2mb' },
    });
    expect(
      items
        .filter((row) => row.override)
        .map((row) => row.name)
        .sort(),
    ).toEqual(['admin_login_captcha', 'upload_max_size', 'user_login_captcha']);
    // what applies is what the screen says: no captcha at the login, the variable's size for uploads
    expect((await server.admin<{ captcha: boolean }>('Index/login')).data.captcha).toBe(false);
    const site = await server.admin<{ siteConfig: { upload: { maxSize: number } } }>('Index/index', { token });
    expect(site.data.siteConfig.upload.maxSize).toBe(2 * 1024 ** 2);
  });

  it('shows no override without the variable', async () => {
    const plain = await startTestServer(kind, { env: { USER_LOGIN_CAPTCHA: '' } });
    try {
      const response = await plain.admin<ConfigIndex>('routine.Config/index', {
        token: (await plain.loginAdmin()).token,
      });
      const items = itemsOf(response.data);
      expect(items.find((row) => row.name === 'user_login_captcha')?.override).toBeUndefined();
      expect(items.find((row) => row.name === 'upload_max_size')?.override).toBeUndefined();
      expect(items.find((row) => row.name === 'admin_login_captcha')?.override).toEqual({
        variable: 'ADMIN_LOGIN_CAPTCHA',
        value: false,
      });
      // without the variable the stored size applies
      const site = await plain.admin<{ siteConfig: { upload: { maxSize: number } } }>('Index/index', {
        token: (await plain.loginAdmin()).token,
      });
      expect(site.data.siteConfig.upload.maxSize).toBe(10 * 1024 ** 2);
    } finally {
      await plain.close();
    }
    // a second server starts here: as long as a start in a hook may take
  }, 120_000);

  it('tells which items are overridden only to administrators who may open the config screen', async () => {
    const other = await adminHolding(server, token, ['auth', 'auth/admin', 'auth/admin/index']);
    const refused = await server.admin('routine.Config/index', { token: other });
    expect(refused.code).toBe(401);
    expect(JSON.stringify(refused)).not.toContain('ADMIN_LOGIN_CAPTCHA');
    const bootstrap = await server.admin('Index/index', { token: other });
    expect(bootstrap.code).toBe(1);
    expect(JSON.stringify(bootstrap.data)).not.toContain('ADMIN_LOGIN_CAPTCHA');
    const reader = await adminHolding(server, token, ['routine', 'routine/config', 'routine/config/index']);
    expect(
      itemsOf(await index('en', reader)).find((row) => row.name === 'admin_login_captcha')?.override?.variable,
    ).toBe('ADMIN_LOGIN_CAPTCHA');
  });

  it("applies the payout and upload items, and refuses values they cannot take in the reader's language", async () => {
    for (const [body, field] of [
      [{ payout_min: '0' }, 'payout_min'],
      [{ payout_min: '1.234' }, 'payout_min'],
      [{ upload_max_size: '2gb' }, 'upload_max_size'],
      [{ upload_max_size: 'big' }, 'upload_max_size'],
      [{ upload_allowed_suffixes: ['jpg', 'html'] }, 'upload_allowed_suffixes'],
      [{ upload_allowed_suffixes: [] }, 'upload_allowed_suffixes'],
    ] as const) {
      const response = await save(body);
      expect(response.code, JSON.stringify(body)).toBe(0);
      expect(JSON.stringify(response.data ?? response.msg)).toContain(field);
    }
    const chinese = await save({ payout_min: 'abc' }, 'zh-cn');
    expect(chinese.msg).toMatch(CJK);
    expect(chinese.msg).toContain('最低提现金额');

    expect((await save({ payout_min: '25.50', upload_allowed_suffixes: ['png', 'pdf'] })).code).toBe(1);
    const site = await server.admin<{ siteConfig: { upload: { allowedSuffixes: string } } }>('Index/index', { token });
    expect(site.data.siteConfig.upload.allowedSuffixes).toBe('png,pdf');
    expect(
      (
        await server.admin('user.User/add', {
          token,
          body: { username: `cfg${kind.slice(0, 2)}`, nickname: 'Cfg', group_id: 1, password: 'Member_pass1' },
        })
      ).code,
    ).toBe(1);
    const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', {
      body: { tab: 'login', username: `cfg${kind.slice(0, 2)}`, password: 'Member_pass1' },
    });
    const page = await server.api<{ minimum: string }>('paymentuser/payment', { userToken: login.data.userInfo.token });
    expect(page.data.minimum).toBe('25.50');
  });
});
