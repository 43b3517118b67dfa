import type { AuthProvider, UserIdentity } from 'ra-core';
import type { HttpClient } from '../http/http-client.js';
import { readAdminInfo, readSession, writeAdminInfo, type AdminInfo } from '../http/session.js';
import { setSiteTimeZone } from '../format/datetime.js';
import { setDefinitions } from '../schemas.js';
import { ADMIN_BOOTSTRAP_PATH, type AdminBootstrap } from './admin-bootstrap.js';
import {
  canAccess,
  clearPermissions,
  currentPermissions,
  permissionsLoaded,
  setMenus,
  type Permissions,
} from './permissions.js';
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

/** A sign-in waiting for its one-time code: the server's challenge, the set-up when there is none yet, and "remember me". */
export interface TwoFactorStep {
  challenge: string;
  setup?: { secret: string; uri: string };
  keep: boolean;
}

interface SignInAnswer {
  userInfo?: Omit<AdminInfo, 'super'>;
  bootstrap?: AdminBootstrap;
  twoFactor?: Omit<TwoFactorStep, 'keep'>;
  recoveryCodes?: string[];
}

type AdminAuthProvider = AuthProvider & {
  /** `GET /admin/Index/index`: stores adminInfo (with `super`) and the permissions; call on every load. */
  loadBootstrap(): Promise<AdminBootstrap>;
  login(params: AdminLoginParams): Promise<TwoFactorStep | undefined>;
  completeTwoFactor(step: TwoFactorStep, code: string): Promise<string[] | undefined>;
};

export const ADMIN_LOGIN_PATH = '/admin/Index/login';
const ADMIN_TWO_FACTOR_PATH = '/admin/Index/twoFactor';
const ADMIN_LOGOUT_PATH = '/admin/Index/logout';

/**
 * The bootstrap the last login answered with (it asks for it: one round trip less before the back
 * office opens), until the next bootstrap load takes it. Shared by every provider of the page: the
 * login page's and the back office's are two instances.
 */
let carriedByLogin: AdminBootstrap | undefined;

export function createAdminAuthProvider(client: HttpClient): AdminAuthProvider {
  let bootstrap: Promise<AdminBootstrap> | undefined;

  function signedIn(data: SignInAnswer) {
    if (!data.userInfo) throw new Error('The sign-in answered no account');
    // Whoever was stored before is gone; `super` and the menus come with the bootstrap.
    session.forget();
    writeAdminInfo({ ...data.userInfo, super: false });
    carriedByLogin = data.bootstrap;
  }
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
    const answer =
      carried && readSession('admin').token
        ? Promise.resolve({ data: carried })
        : client.request<AdminBootstrap>(ADMIN_BOOTSTRAP_PATH, { area: 'admin' });
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

    /**
     * Rejects with the HttpError of the server (not toasted: the login form shows `error.message`).
     * Answers the second step when the account signs in with a one-time code (docs/two-factor.md):
     * nothing is stored until `completeTwoFactor` accepts the code.
     */
    async login(params: AdminLoginParams): Promise<TwoFactorStep | undefined> {
      const { data } = await client.request<SignInAnswer>(ADMIN_LOGIN_PATH, {
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
          twoFactor: 1,
        },
      });
      if (data.twoFactor) return { ...data.twoFactor, keep: params.keep === true };
      signedIn(data);
      return undefined;
    },

    /** The second step of a sign-in: the code (or a recovery code). Answers the recovery codes when this step turned it on. */
    async completeTwoFactor(step: TwoFactorStep, code: string): Promise<string[] | undefined> {
      const { data } = await client.request<SignInAnswer>(ADMIN_TWO_FACTOR_PATH, {
        method: 'POST',
        area: 'admin',
        showErrorMessage: false,
        data: { challenge: step.challenge, code, keep: step.keep, bootstrap: true },
      });
      signedIn(data);
      return data.recoveryCodes;
    },

    logout: session.logout,
    checkAuth: session.checkAuth,
    checkError: session.checkError,

    async getIdentity(): Promise<UserIdentity> {
      const info = readAdminInfo();
      if (info?.id === undefined) throw new Error('Not signed in');
      return {
        id: info.id,
        fullName: info.nickname || info.username,
        avatar: info.avatar,
        username: info.username,
        super: info.super === true,
      };
    },

    async getPermissions(): Promise<Permissions> {
      if (!permissionsLoaded() && readSession('admin').token)
        await (bootstrap ?? loadBootstrap()).catch(() => undefined);
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
