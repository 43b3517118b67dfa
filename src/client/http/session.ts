/**
 * The two signed-in identities kept in localStorage (docs/client.md#local-storage): the administrator in
 * `adminInfo`, the member in `userInfo`. Each holds its own access token (sent as `batoken` /
 * `ba-user-token`) and refresh token (`""` unless "remember me" was ticked at login).
 */
export type Area = 'admin' | 'user';

export interface Session {
  token: string;
  refreshToken: string;
}

/** localStorage `adminInfo`. */
export interface AdminInfo {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  /** formatted `YYYY-MM-DD HH:mm:ss`, `""` when never */
  last_login_time: string;
  token: string;
  refresh_token: string;
  super: boolean;
}

/** localStorage `userInfo`: the member's fields (docs/client.md#local-storage). */
export interface UserInfo {
  id: number;
  username: string;
  nickname: string;
  email: string;
  mobile: string;
  avatar: string;
  /** 0 unknown, 1 male, 2 female */
  gender: number;
  birthday: string | null;
  money: string | number;
  score: number;
  teamid: number | string;
  tissue: string;
  payment: string;
  bank: string;
  bank_address: string;
  bank_name: string;
  bank_num: string;
  zhifubao_name: string;
  zhifubao: string;
  last_login_time: string | number;
  last_login_ip: string;
  countrycode: string;
  join_time: string | number;
  motto: string;
  token: string;
  refresh_token: string;
}

const SESSION_KEYS: Readonly<Record<Area, string>> = { admin: 'adminInfo', user: 'userInfo' };

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage can throw when cookies are blocked; the app then simply has no session.
    return undefined;
  }
}

function readInfo(area: Area): Record<string, unknown> | undefined {
  const text = storage()?.getItem(SESSION_KEYS[area]);
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The tokens of an area; empty strings when nobody is signed in there. */
export function readSession(area: Area): Session {
  const info = readInfo(area);
  return { token: text(info?.token), refreshToken: text(info?.refresh_token) };
}

/** Replace the tokens of an area, keeping the rest of its stored info. */
export function writeSession(area: Area, patch: Partial<Session>): void {
  const info = { ...(readInfo(area) ?? {}) };
  if (patch.token !== undefined) info.token = patch.token;
  if (patch.refreshToken !== undefined) info.refresh_token = patch.refreshToken;
  storage()?.setItem(SESSION_KEYS[area], JSON.stringify(info));
}

/** Forget the area's identity altogether (logout, failed refresh, "need login"). */
export function clearSession(area: Area): void {
  storage()?.removeItem(SESSION_KEYS[area]);
}

/** The stored `adminInfo`, or undefined when absent. */
export function readAdminInfo(): Partial<AdminInfo> | undefined {
  return readInfo('admin');
}

/** Merge fields into `adminInfo` (login fills it, the bootstrap adds `super`; tokens are kept unless given). */
export function writeAdminInfo(patch: Partial<AdminInfo>): void {
  storage()?.setItem(SESSION_KEYS.admin, JSON.stringify({ ...(readInfo('admin') ?? {}), ...patch }));
}

export function readUserInfo(): Partial<UserInfo> | undefined {
  return readInfo('user');
}

export function writeUserInfo(patch: Partial<UserInfo>): void {
  storage()?.setItem(SESSION_KEYS.user, JSON.stringify({ ...(readInfo('user') ?? {}), ...patch }));
}

/** A member counts as logged in when id and token are both set (docs/client.md#local-storage). */
export function isUserLoggedIn(): boolean {
  const info = readUserInfo();
  return Boolean(info?.id) && Boolean(info?.token);
}
