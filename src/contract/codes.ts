/**
 * Business codes of the BuildAdmin envelope. Handled outcomes are always HTTP 200; the outcome is `code`.
 */
export const Code = {
  success: 1,
  error: 0,
  /** Not emitted by the core; the client navigates to `data.routePath` / `data.routeName`. */
  redirect: 302,
  /** Login state redirect: `data.type` is "need login" or "logged in". */
  loginState: 303,
  noPermission: 401,
  /** An access token that exists but has expired, on an action that needs login. */
  tokenExpired: 409,
} as const;

export type BusinessCode = (typeof Code)[keyof typeof Code] | number;

export const LoginStateType = { needLogin: 'need login', loggedIn: 'logged in' } as const;
