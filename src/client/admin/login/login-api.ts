import type { SignInApi } from '../../components/SignInPage.js';
import { httpClient } from '../../http/index.js';
import { ADMIN_LOGIN_PATH, createAdminAuthProvider, type TwoFactorStep } from '../../providers/auth-provider.js';

/**
 * What the admin login page needs from the server (docs/wire-contract.md#back-office-bootstrap): whether the click captcha is
 * required (a 303 "logged in" answer is handled by the http client, which goes to the back office),
 * and the login itself, through the auth provider so `adminInfo` is stored in one place. The provider
 * module is small and free of react-admin's UI, so the page stays light.
 */
export interface AdminLoginApi extends Omit<SignInApi, 'login'> {
  /** the second step when the account signs in with a one-time code (docs/two-factor.md) */
  login(credentials: Parameters<SignInApi['login']>[0]): Promise<TwoFactorStep | undefined>;
  completeTwoFactor(step: TwoFactorStep, code: string): Promise<string[] | undefined>;
}

export function createAdminLoginApi(client = httpClient): AdminLoginApi {
  const auth = createAdminAuthProvider(client);
  return {
    client,
    async loginState() {
      const response = await client.request<{ captcha?: boolean }>(ADMIN_LOGIN_PATH, { area: 'admin', showErrorMessage: false });
      return { captcha: response.data?.captcha !== false };
    },
    login: (credentials) => auth.login(credentials),
    completeTwoFactor: (step, code) => auth.completeTwoFactor(step, code),
  };
}

export const adminLoginApi: AdminLoginApi = createAdminLoginApi();
