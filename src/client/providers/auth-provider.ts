import type { AuthProvider, UserIdentity } from 'ra-core';
import type { HttpClient } from '../http/http-client.js';
import { readAdminInfo, readSession, writeAdminInfo, type AdminInfo } from '../http/session.js';
import { setSiteTimeZone } from '../format/datetime.js';
import { setDefinitions } from '../schemas.js';
import { ADMIN_BOOTSTRAP_PATH, type AdminBootstrap } from './admin-bootstrap.js';
import { canAccess, clearPermissions, currentPermissions, permissionsLoaded, setMenus, type Permissions } from './permissions.js';
import { sessionAuth } from './session-auth.js';

/**
 * The back office's react-admin auth provider (docs/wire-contract.md#back-office-bootstrap): login/logout on `/admin/Index/*`, the
 * session in localStorage `adminInfo`, and `canAccess` from the button nodes of the bootstrap menus.
 */

interface AdminLoginParams {
  username: string;
  password: string;
  /** "remember me": the server issues a refresh token */
  keep?: boolean;
  captchaId?: string;
  captchaInfo?: string;
}

type AdminAuthProvider = AuthProvider & {
  /** `GET /admin/Index/index`: stores adminInfo (with `super`) and the permissions; call on every load. */
  loadBootstrap(): Promise<AdminBootstrap>;
};

export const ADMIN_LOGIN_PATH = '/admin/Index/login';
const ADMIN_LOGOUT_PATH = '/admin/Index/logout';

/**
 * The bootstrap the last login answered with (it asks for it: one round trip less before the back
 * office opens), until the next bootstrap load takes it. Shared by every provider of the page: the
 * login page's and the back office's are two instances.
 */
let carriedByLogin: AdminBootstrap | undefined;

export function createAdminAuthProvider(client: HttpClient): AdminAuthProvider {
  let bootstrap: Promise<AdminBootstrap> | undefined;
  const session = sessionAuth(client, {
    area: 'admin',
    logoutPath: ADMIN_LOGOUT_PATH,
    onSignedOut: () => {
      clearPermissions();
      bootstrap = undefined;
      carriedByLogin = undefined;
    },
  });

  function loadBootstrap(): Promise<AdminBootstrap> {
    const carried = carriedByLogin;
    carriedByLogin = undefined;
    const answer = carried && readSession('admin').token ? Promise.resolve({ data: carried }) : client.request<AdminBootstrap>(ADMIN_BOOTSTRAP_PATH, { area: 'admin' });
    const pending = answer.then(({ data }) => {
      // Merged over what login stored, so the tokens stay.
      writeAdminInfo({ ...data.adminInfo, super: data.adminInfo.super === true });
      setDefinitions(data.definitions ?? [], data.schemaPages ?? []);
      setSiteTimeZone(data.siteConfig.timeZone);
      setMenus(data.menus, data.adminInfo.super === true);
      return data;
    });
    bootstrap = pending;
    pending.catch(() => {
      if (bootstrap === pending) bootstrap = undefined;
    });
    return pending;
  }

  return {
    loadBootstrap,

    /** Rejects with the HttpError of the server (not toasted: the login form shows `error.message`). */
    async login(params: AdminLoginParams) {
      const { data } = await client.request<{ userInfo: Omit<AdminInfo, 'super'>; bootstrap?: AdminBootstrap }>(ADMIN_LOGIN_PATH, {
        method: 'POST',
        area: 'admin',
        showErrorMessage: false,
        data: {
          username: params.username,
          password: params.password,
          keep: params.keep === true,
          captchaId: params.captchaId,
          captchaInfo: params.captchaInfo,
          bootstrap: true,
        },
      });
      // Whoever was stored before is gone; `super` and the menus come with the bootstrap.
      session.forget();
      writeAdminInfo({ ...data.userInfo, super: false });
      carriedByLogin = data.bootstrap;
    },

    logout: session.logout,
    checkAuth: session.checkAuth,
    checkError: session.checkError,

    async getIdentity(): Promise<UserIdentity> {
      const info = readAdminInfo();
      if (info?.id === undefined) throw new Error('Not signed in');
      return { id: info.id, fullName: info.nickname || info.username, avatar: info.avatar, username: info.username, super: info.super === true };
    },

    async getPermissions(): Promise<Permissions> {
      if (!permissionsLoaded() && readSession('admin').token) await (bootstrap ?? loadBootstrap()).catch(() => undefined);
      return currentPermissions();
    },

    async canAccess({ resource, action }: { resource: string; action: string }) {
      if (!permissionsLoaded()) {
        // A deep link reached before the loading route fetched the menus: fetch them now.
        if (!readSession('admin').token) return false;
        try {
          await (bootstrap ?? loadBootstrap());
        } catch {
          return false;
        }
      }
      return canAccess(currentPermissions(), { resource, action });
    },
  };
}
