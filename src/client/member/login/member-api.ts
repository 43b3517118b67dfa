import type { SignInApi } from '../../components/SignInPage.js';
import { httpClient, type HttpClient } from '../../http/index.js';
import type { VerificationType } from '../account-api.js';
import { clearSession, readSession, writeUserInfo, type UserInfo } from '../../http/session.js';

export interface CodeOptions {
  types: VerificationType[];
  registerWithoutCode: boolean;
}

/** Member sign-in and sign-out (docs/wire-contract.md#member-endpoints, #login-and-registration), used by the standalone member pages. */
export interface MemberApi extends SignInApi {
  logout(): Promise<void>;
  /**
   * What a code can be sent by (`accountVerificationType`: the channels that have delivered) and whether a
   * member may register without one (`registerWithoutCode`, our addition)
   */
  codeOptions(): Promise<CodeOptions>;
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
    async codeOptions() {
      const response = await client.request<{ accountVerificationType?: VerificationType[]; registerWithoutCode?: boolean }>('/api/user/checkIn', { showErrorMessage: false });
      return { types: response.data?.accountVerificationType ?? [], registerWithoutCode: response.data?.registerWithoutCode === true };
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
