// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import enProfile from '../../../locales/en/admin/profile.json';
import zhProfile from '../../../locales/zh-cn/admin/profile.json';
import enGenerated from '../../../locales/en/admin/generated.json';
import zhGenerated from '../../../locales/zh-cn/admin/generated.json';
import { ProfilePage } from '../../../src/client/admin/pages/profile/ProfilePage.js';
import { fakeDataProvider, renderScreen } from '../resources/support.js';

/** The admin's own profile: a new password asks for the current one, and a wrong one shows on its field. */

const API = '/chidaoadminstator.php/routine.AdminInfo';
const server = setupServer();
const posted: Record<string, unknown>[] = [];
let answer: { code: number; msg: string; data: unknown } = { code: 1, msg: 'Update successful!', data: null };
/** what `twoFactor` answers, and the posts to its actions */
let twoFactor = { enabled: false, required: false, recoveryCodesLeft: 0 };
const factorPosts: { action: string; body: Record<string, unknown> }[] = [];
const CODES = Array.from({ length: 10 }, (_, index) => `abcde-fgh${index}k`);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  posted.length = 0;
  factorPosts.length = 0;
  twoFactor = { enabled: false, required: false, recoveryCodesLeft: 0 };
  answer = { code: 1, msg: 'Update successful!', data: null };
  localStorage.setItem(
    'adminInfo',
    JSON.stringify({ id: 1, username: 'admin', token: 'admin-token', refresh_token: 'admin-refresh', super: true }),
  );
  server.use(
    http.get(`${API}/index`, () =>
      HttpResponse.json({
        code: 1,
        msg: '',
        time: 0,
        data: {
          info: {
            id: 1,
            username: 'admin',
            nickname: 'Admin',
            avatar: '',
            email: '',
            mobile: '',
            motto: '',
            last_login_time: '',
          },
        },
      }),
    ),
    http.get(`${API}/twoFactor`, () => HttpResponse.json({ code: 1, msg: '', time: 0, data: twoFactor })),
    http.post(`${API}/:action`, async ({ request, params }) => {
      const action = String(params.action);
      if (action === 'edit') return undefined;
      const body = (await request.json()) as Record<string, unknown>;
      factorPosts.push({ action, body });
      if (action === 'twoFactorSetup')
        return HttpResponse.json({
          code: 1,
          msg: '',
          time: 0,
          data: {
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            uri: 'otpauth://totp/Chidao:admin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Chidao',
          },
        });
      if (body.code !== '123456')
        return HttpResponse.json({ code: 0, msg: 'The code is not right or was already used', time: 0, data: null });
      twoFactor = {
        ...twoFactor,
        enabled: action !== 'twoFactorOff',
        recoveryCodesLeft: action === 'twoFactorOff' ? 0 : 10,
      };
      return HttpResponse.json({
        code: 1,
        msg: 'Two-factor sign-in is on',
        time: 0,
        data: action === 'twoFactorOff' ? null : { recoveryCodes: CODES },
      });
    }),
    http.post(`${API}/edit`, async ({ request }) => {
      posted.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ ...answer, time: 0 });
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());

function renderProfile(locale: 'en' | 'zh-cn' = 'en') {
  const messages = {
    ...englishMessages,
    ...(locale === 'en' ? { ...enProfile, ...enGenerated } : { ...zhProfile, ...zhGenerated }),
  };
  const i18nProvider = polyglotI18nProvider(() => messages, locale, [{ locale, name: locale }], { allowMissing: true });
  renderScreen(<ProfilePage />, {
    resource: 'routine/adminInfo',
    dataProvider: fakeDataProvider({}),
    i18nProvider,
    locale,
  });
}

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' }) as HTMLInputElement;

describe('admin profile', () => {
  it('asks for the current password only once a new one is typed, and sends it with the refresh token', async () => {
    renderProfile();
    await screen.findByLabelText('New password', { exact: false, selector: 'input' });
    expect(screen.queryByLabelText('Current password', { exact: false, selector: 'input' })).toBeNull();
    fireEvent.change(field('New password'), { target: { value: 'Changed_pass2' } });
    fireEvent.change(await screen.findByLabelText('Current password', { exact: false, selector: 'input' }), {
      target: { value: 'Admin_pass1' },
    });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      nickname: 'Admin',
      password: 'Changed_pass2',
      oldPassword: 'Admin_pass1',
      refresh_token: 'admin-refresh',
    });
  });

  it('does not send a password, a current one or the refresh token when no new password is typed', async () => {
    renderProfile();
    fireEvent.change(await screen.findByLabelText('Nickname', { exact: false, selector: 'input' }), {
      target: { value: 'Boss' },
    });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(Object.keys(posted[0]).sort()).toEqual(['email', 'id', 'mobile', 'motto', 'nickname']);
  });

  it('says why an avatar file is refused, in the reader’s language, and sends nothing', async () => {
    renderProfile();
    const picker = await screen.findByTestId('avatar-file');
    fireEvent.change(picker, {
      target: { files: [new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })] },
    });
    expect(await screen.findByText('The type of uploaded file is not allowed!')).toBeTruthy();
    cleanup();
    renderProfile('zh-cn');
    const big = new File(['x'], 'photo.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 20 * 1024 * 1024 });
    fireEvent.change(await screen.findByTestId('avatar-file'), { target: { files: [big] } });
    expect(await screen.findByText('上传的文件大小超出允许范围！')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('shows a wrong current password on its field, in Chinese too', async () => {
    answer = { code: 0, msg: '旧密码错误', data: { field: 'oldPassword' } };
    renderProfile('zh-cn');
    fireEvent.change(await screen.findByLabelText('新密码', { exact: false, selector: 'input' }), {
      target: { value: 'Changed_pass2' },
    });
    expect(await screen.findByLabelText('当前密码', { exact: false, selector: 'input' })).toBeTruthy();
    fireEvent.change(field('当前密码'), { target: { value: 'Guessed_pass9' } });
    fireEvent.click(screen.getByRole('button', { name: /save|保存/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect((await screen.findAllByText('旧密码错误')).length).toBeGreaterThan(0);
    // what was typed stays
    expect(field('新密码').value).toBe('Changed_pass2');
  });

  it('turns two-factor sign-in on: the QR code and key, a wrong code refused, the right one shows the ten recovery codes once', async () => {
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(
      await screen.findByRole('img', { name: 'QR code to add this account to an authenticator app' }),
    ).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    fireEvent.change(field('Current code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(factorPosts.map((post) => post.action)).toEqual(['twoFactorSetup', 'twoFactorConfirm']));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    fireEvent.change(field('Current code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText(/On: 10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('when a group requires it, offers new recovery codes but no way to turn it off (in Chinese too)', async () => {
    twoFactor = { enabled: true, required: true, recoveryCodesLeft: 1 };
    renderProfile();
    expect(await screen.findByText(/On: 1 recovery code left\. Your admin group requires it\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New recovery codes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    cleanup();
    twoFactor = { enabled: true, required: false, recoveryCodesLeft: 3 };
    renderProfile('zh-cn');
    expect(await screen.findByText('已开启：剩余 3 个恢复码。')).toBeTruthy();
    expect(screen.getByRole('button', { name: '关闭' })).toBeTruthy();
  });
});
