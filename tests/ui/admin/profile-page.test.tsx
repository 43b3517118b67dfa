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

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  posted.length = 0;
  answer = { code: 1, msg: 'Update successful!', data: null };
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', token: 'admin-token', refresh_token: 'admin-refresh', super: true }));
  server.use(
    http.get(`${API}/index`, () =>
      HttpResponse.json({ code: 1, msg: '', time: 0, data: { info: { id: 1, username: 'admin', nickname: 'Admin', avatar: '', email: '', mobile: '', motto: '', last_login_time: '' } } }),
    ),
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
  const messages = { ...englishMessages, ...(locale === 'en' ? { ...enProfile, ...enGenerated } : { ...zhProfile, ...zhGenerated }) };
  const i18nProvider = polyglotI18nProvider(() => messages, locale, [{ locale, name: locale }], { allowMissing: true });
  renderScreen(<ProfilePage />, { resource: 'routine/adminInfo', dataProvider: fakeDataProvider({}), i18nProvider, locale });
}

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' }) as HTMLInputElement;

describe('admin profile', () => {
  it('asks for the current password only once a new one is typed, and sends it with the refresh token', async () => {
    renderProfile();
    await screen.findByLabelText('New password', { exact: false, selector: 'input' });
    expect(screen.queryByLabelText('Current password', { exact: false, selector: 'input' })).toBeNull();
    fireEvent.change(field('New password'), { target: { value: 'Changed_pass2' } });
    fireEvent.change(await screen.findByLabelText('Current password', { exact: false, selector: 'input' }), { target: { value: 'Admin_pass1' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ nickname: 'Admin', password: 'Changed_pass2', oldPassword: 'Admin_pass1', refresh_token: 'admin-refresh' });
  });

  it('does not send a password, a current one or the refresh token when no new password is typed', async () => {
    renderProfile();
    fireEvent.change(await screen.findByLabelText('Nickname', { exact: false, selector: 'input' }), { target: { value: 'Boss' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(Object.keys(posted[0]).sort()).toEqual(['email', 'id', 'mobile', 'motto', 'nickname']);
  });

  it('says why an avatar file is refused, in the reader’s language, and sends nothing', async () => {
    renderProfile();
    const picker = await screen.findByTestId('avatar-file');
    fireEvent.change(picker, { target: { files: [new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })] } });
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
    fireEvent.change(await screen.findByLabelText('新密码', { exact: false, selector: 'input' }), { target: { value: 'Changed_pass2' } });
    expect(await screen.findByLabelText('当前密码', { exact: false, selector: 'input' })).toBeTruthy();
    fireEvent.change(field('当前密码'), { target: { value: 'Guessed_pass9' } });
    fireEvent.click(screen.getByRole('button', { name: /save|保存/i }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect((await screen.findAllByText('旧密码错误')).length).toBeGreaterThan(0);
    // what was typed stays
    expect(field('新密码').value).toBe('Changed_pass2');
  });
});
