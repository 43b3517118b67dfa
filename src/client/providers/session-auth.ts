import type { AuthProvider } from 'ra-core';
import { Code, LoginStateType } from '../../contract/codes.js';
import type { HttpClient } from '../http/http-client.js';
import { clearSession, readSession, type Area } from '../http/session.js';
import { propertyOf } from '../../contract/checks.js';

/**
 * What the back office's and the member centre's auth providers share: the session of one area in
 * localStorage, logout on the server, and how a failed call ends the session.
 */
interface SessionAuthOptions {
  area: Area;
  /** `POST` here revokes the access and the refresh token */
  logoutPath: string;
  /** run once the session is gone (forget the menus, the permissions) */
  onSignedOut?: () => void;
  /** whether a visit may open the area's pages (default: an access token is stored) */
  isSignedIn?: () => boolean;
}

export function sessionAuth(client: HttpClient, { area, logoutPath, onSignedOut, isSignedIn = () => Boolean(readSession(area).token) }: SessionAuthOptions): Required<Pick<AuthProvider, 'logout' | 'checkAuth' | 'checkError'>> & { forget(): void } {
  function forget(): void {
    clearSession(area);
    onSignedOut?.();
  }
  return {
    forget,

    async logout() {
      const { token, refreshToken } = readSession(area);
      if (token) {
        // The server drops both tokens; a failure must not keep anyone signed in here.
        await client.request(logoutPath, { method: 'POST', area, data: { refreshToken }, showErrorMessage: false }).catch(() => undefined);
      }
      forget();
    },

    async checkAuth() {
      // `message: false`: go to the login page without a "please login" toast, as the original does.
      if (!isSignedIn()) throw { message: false };
    },

    async checkError(error: unknown) {
      const body = propertyOf(error, 'body');
      if (propertyOf(body, 'code') === Code.loginState && propertyOf(propertyOf(body, 'data'), 'type') === LoginStateType.needLogin) {
        const msg = propertyOf(body, 'msg');
        // react-admin logs out and shows this message (or its own when the server sent none).
        throw { message: typeof msg === 'string' && msg ? msg : undefined };
      }
      // The http client already cleared the session (failed refresh) and said so.
      if (!readSession(area).token) throw { message: false };
      // Anything else, business 401 ("no permission") included, leaves the person signed in.
    },
  };
}
