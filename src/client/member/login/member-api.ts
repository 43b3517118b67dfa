import type { SignInApi } from '../../components/SignInPage.js';
import { httpClient, type HttpClient } from '../../http/index.js';
import type { VerificationType } from '../account-api.js';
import { clearSession, readSession, writeUserInfo, type UserInfo } from '../../http/session.js';

/** Member sign-in and sign-out (docs/wire-contract.md#member-endpoints, #login-and-registration), used by the standalone member pages. */
export interface MemberApi extends SignInApi {
  logout(): Promise<void>;
  /** which address types the site verifies at registration (`accountVerificationType`) */
  verificationTypes(): Promise<VerificationType[]>;
  /** keep a member who just registered signed in */
  remember(info: UserInfo): void;
}

function createMemberApi(client: HttpClient = httpClient): MemberApi {
  return {
    client,
    async loginState() {
      const response = await client.request<{ userLoginCaptchaSwitch?: boolean }>('/api/user/checkIn', { showErrorMessage: false });
      return { captcha: response.data?.userLoginCaptchaSwitch !== false };
    },
    async verificationTypes() {
      const response = await client.request<{ accountVerificationType?: VerificationType[] }>('/api/user/checkIn', { showErrorMessage: false });
      return response.data?.accountVerificationType ?? [];
    },
    remember(info) {
      clearSession('user');
      writeUserInfo(info);
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
