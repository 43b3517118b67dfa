import type { AuthProvider, UserIdentity } from 'ra-core';
import { setSiteTimeZone } from '../format/datetime.js';
import type { HttpClient } from '../http/http-client.js';
import { isUserLoggedIn, readUserInfo, writeUserInfo } from '../http/session.js';
import { MEMBER_BOOTSTRAP_PATH, type MemberBootstrap } from './member-bootstrap.js';
import { sessionAuth } from './session-auth.js';

/**
 * The member centre's react-admin auth provider (docs/wire-contract.md#member-api): the session in localStorage `userInfo`,
 * `ba-user-token` on every call, logout on `/api/user/logout`. Signing in happens on the standalone
 * `/user/login` page; the centre only reads and ends the session.
 */
type MemberAuthProvider = AuthProvider & {
  /** `GET /api/index/index?requiredLogin=1`: stores the member (keeping the local refresh token). */
  loadBootstrap(): Promise<MemberBootstrap>;
};

const MEMBER_LOGOUT_PATH = '/api/user/logout';

export function createMemberAuthProvider(client: HttpClient, options: { onSignedOut?: () => void } = {}): MemberAuthProvider {
  const session = sessionAuth(client, { area: 'user', logoutPath: MEMBER_LOGOUT_PATH, onSignedOut: options.onSignedOut, isSignedIn: isUserLoggedIn });
  return {
    async loadBootstrap() {
      const { data } = await client.request<MemberBootstrap>(MEMBER_BOOTSTRAP_PATH, { area: 'user', params: { requiredLogin: 1 } });
      // The answer's member is stored with the refresh token kept here (docs/wire-contract.md#member-bootstrap).
      const { refresh_token: _ignored, ...info } = data.userInfo;
      writeUserInfo(info);
      setSiteTimeZone(data.site.timeZone);
      return data;
    },

    async login() {
      // The centre has no sign-in form of its own: react-admin sends visitors to `/user/login`.
      throw new Error('Sign in on /user/login');
    },

    logout: session.logout,
    checkAuth: session.checkAuth,
    checkError: session.checkError,

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
