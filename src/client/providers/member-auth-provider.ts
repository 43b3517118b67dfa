import type { AuthProvider, UserIdentity } from 'ra-core';
import { Code, LoginStateType } from '../../contract/codes.js';
import type { HttpClient } from '../http/http-client.js';
import { clearSession, isUserLoggedIn, readSession, readUserInfo, writeUserInfo } from '../http/session.js';
import { MEMBER_BOOTSTRAP_PATH, setMemberBootstrap, type MemberBootstrap } from '../member/shell/member-bootstrap.js';

/**
 * The member centre's react-admin auth provider (docs/wire-contract.md#member-api): the session in localStorage `userInfo`,
 * `ba-user-token` on every call, logout on `/api/user/logout`. Signing in happens on the standalone
 * `/user/login` page; the centre only reads and ends the session.
 */
type MemberAuthProvider = AuthProvider & {
  /** `GET /api/index/index?requiredLogin=1`: stores the member (keeping the local refresh token) and the menus. */
  loadBootstrap(): Promise<MemberBootstrap>;
};

const MEMBER_LOGOUT_PATH = '/api/user/logout';

interface ErrorBody {
  code?: unknown;
  msg?: unknown;
  data?: { type?: unknown } | null;
}

export function createMemberAuthProvider(client: HttpClient): MemberAuthProvider {
  return {
    async loadBootstrap() {
      const { data } = await client.request<MemberBootstrap>(MEMBER_BOOTSTRAP_PATH, { area: 'user', params: { requiredLogin: 1 } });
      // The answer's member is stored with the refresh token kept here (docs/wire-contract.md#member-bootstrap).
      const { refresh_token: _ignored, ...info } = data.userInfo;
      writeUserInfo(info);
      setMemberBootstrap(data);
      return data;
    },

    async login() {
      // The centre has no sign-in form of its own: react-admin sends visitors to `/user/login`.
      throw new Error('Sign in on /user/login');
    },

    async logout() {
      const { token, refreshToken } = readSession('user');
      if (token) {
        // The server drops both tokens; a failure must not keep anyone signed in here.
        await client.request(MEMBER_LOGOUT_PATH, { method: 'POST', area: 'user', data: { refreshToken }, showErrorMessage: false }).catch(() => undefined);
      }
      clearSession('user');
      setMemberBootstrap(undefined);
    },

    async checkAuth() {
      if (!isUserLoggedIn()) throw { message: false };
    },

    async checkError(error: unknown) {
      const body = (error as { body?: ErrorBody } | undefined)?.body;
      if (body?.code === Code.loginState && body.data?.type === LoginStateType.needLogin) {
        throw { message: typeof body.msg === 'string' && body.msg ? body.msg : undefined };
      }
      if (!readSession('user').token) throw { message: false };
    },

    async getIdentity(): Promise<UserIdentity> {
      const info = readUserInfo();
      if (!info?.id) throw new Error('Not signed in');
      return { id: info.id, fullName: info.nickname || info.username, avatar: info.avatar };
    },

    async getPermissions() {
      return [];
    },
  };
}
