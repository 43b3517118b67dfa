import type { LedgerPage } from '../../contract/member-api.js';
import { httpClient, type HttpClient } from '../http/index.js';
import type { UserInfo } from '../http/session.js';

/**
 * The member's account calls (docs/wire-contract.md#member-endpoints): profile, password,
 * ledgers, codes by mail or SMS, binding a new address, registering and retrieving a password. Each
 * answers the server's message; a refusal rejects with the envelope (its `data.field` names the field).
 */

export type VerificationType = 'email' | 'mobile';
/** Code events of docs/wire-contract.md#sending-codes (`user_<type>_verify`, `user_change_<type>`, ...). */
export type CodeEvent = 'user_register' | 'user_retrieve_pwd' | 'user_email_verify' | 'user_mobile_verify' | 'user_change_email' | 'user_change_mobile';

export type { LedgerRow } from '../../contract/member-api.js';

export interface CodeRequest {
  type: VerificationType;
  address: string;
  event: CodeEvent;
  captchaId?: string;
  captchaInfo?: string;
  /** mail verification of the current address also proves the password */
  password?: string;
}

interface ProfileInput {
  id: number;
  avatar: string;
  username: string;
  nickname: string;
  gender: number;
  birthday: string;
  motto: string;
}

/** With an address and its code; or, where the site allows it, with the click captcha instead (`registerWithoutCode`). */
type RegisterInput =
  | { registerType: VerificationType; username: string; password: string; email?: string; mobile?: string; captcha: string }
  | { username: string; password: string; captchaId: string; captchaInfo: string };

/** `POST /api/ajax/upload` as the member (docs/wire-contract.md#uploads): answers the stored file's URL. */
export async function uploadMemberFile(client: HttpClient, file: File): Promise<string> {
  const data = new FormData();
  data.append('file', file, file.name);
  return (await client.request<{ file: { url: string } }>('/api/ajax/upload', { area: 'user', showErrorMessage: false, method: 'POST', data, upload: true })).data.file.url;
}

export interface AccountApi {
  uploadImage(file: File): Promise<string>;
  /** which address types the site verifies (`accountVerificationType`) */
  verificationTypes(): Promise<VerificationType[]>;
  saveProfile(input: ProfileInput): Promise<string>;
  changePassword(oldPassword: string, newPassword: string): Promise<string>;
  ledger(kind: 'balance' | 'integral', page: number, limit: number): Promise<LedgerPage>;
  sendCode(request: CodeRequest): Promise<string>;
  /** proves the current address with its code: a pass token for `changeBind` */
  verify(type: VerificationType, captcha: string): Promise<string>;
  changeBind(input: { type: VerificationType; address: string; captcha: string; accountVerificationToken?: string; password?: string }): Promise<string>;
  register(input: RegisterInput): Promise<UserInfo>;
  retrievePassword(input: { type: VerificationType; account: string; captcha: string; password: string }): Promise<string>;
}

function createAccountApi(client: HttpClient = httpClient): AccountApi {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  const post = async (path: string, data: unknown) => (await client.request(path, { ...quiet, method: 'POST', data })).msg;
  return {
    uploadImage: (file) => uploadMemberFile(client, file),
    async verificationTypes() {
      return (await client.request<{ accountVerificationType: VerificationType[] }>('/api/account/profile', quiet)).data.accountVerificationType ?? [];
    },
    saveProfile: (input) => post('/api/account/profile', input),
    changePassword: (oldPassword, newPassword) => post('/api/account/changePassword', { oldPassword, newPassword }),
    async ledger(kind, page, limit) {
      return (await client.request<LedgerPage>(`/api/account/${kind}`, { ...quiet, params: { page, limit } })).data;
    },
    sendCode({ type, address, event, ...rest }) {
      return type === 'email'
        ? post('/api/Ems/send', { email: address, event, ...rest })
        : post('/api/Sms/send', { mobile: address, template_code: event, event, ...rest });
    },
    async verify(type, captcha) {
      return (await client.request<{ accountVerificationToken: string }>('/api/account/verification', { ...quiet, method: 'POST', data: { type, captcha } })).data.accountVerificationToken;
    },
    changeBind: ({ type, address, ...rest }) => post('/api/account/changeBind', { type, [type]: address, ...rest }),
    async register(input) {
      const response = await client.request<{ userInfo: UserInfo }>('/api/user/checkIn', { ...quiet, method: 'POST', data: { tab: 'register', ...input } });
      return response.data.userInfo;
    },
    retrievePassword: (input) => post('/api/account/retrievePassword', input),
  };
}

export const accountApi: AccountApi = createAccountApi();
