import type { SignInApi, SignInCredentials } from '../../components/SignInPage.js';
import { httpClient, type HttpClient } from '../../http/index.js';
import { clearSession, readSession, writeUserInfo, type UserInfo } from '../../http/session.js';

export type MemberCredentials = SignInCredentials;

/** Member sign-in and sign-out (contract §7.2, §7.4), used by the standalone member pages. */
export interface MemberApi extends SignInApi {
  logout(): Promise<void>;
}

export function createMemberApi(client: HttpClient = httpClient): MemberApi {
  return {
    client,
    async loginState() {
      const response = await client.request<{ userLoginCaptchaSwitch?: boolean }>('/api/user/checkIn', { showErrorMessage: false });
      return { captcha: response.data?.userLoginCaptchaSwitch !== false };
    },
    async login(credentials) {
      const response = await client.request<{ userInfo: UserInfo }>('/api/user/checkIn', {
        method: 'POST',
        data: { tab: 'login', ...credentials },
        showErrorMessage: false,
      });
      clearSession('user');
      writeUserInfo(response.data.userInfo);
    },
    async logout() {
      await client.request('/api/user/logout', { method: 'POST', data: { refreshToken: readSession('user').refreshToken }, area: 'user' });
      clearSession('user');
    },
  };
}

export const memberApi: MemberApi = createMemberApi();
