/** Request headers of the wire contract (docs/wire-contract.md#request-headers). Tokens are never sent as `Authorization: Bearer`. */
export const Header = {
  lang: 'think-lang',
  adminToken: 'batoken',
  userToken: 'ba-user-token',
  server: 'server',
  /**
   * Sent by our own client on every call (value `CLIENT_MARKER`); BuildAdmin's client does not send it.
   * The member bootstrap offers BuildAdmin's client only the member pages it has a view for.
   */
  client: 'chidao-client',
} as const;

/** The value our client sends in `Header.client`. */
export const CLIENT_MARKER = 'chidao';

export const LANGUAGES = ['zh-cn', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-cn';

/**
 * Cookie copy of the language the browser chose (kept in its storage, which the server cannot read):
 * the server paints a page's first view in it. Without the cookie, the default language.
 */
export const LANGUAGE_COOKIE = 'think-lang';

/** The `lang` attribute of a page in a language. */
export function htmlLang(language: Language): string {
  return language === 'en' ? 'en' : 'zh-CN';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Admin API base for an entrance such as `/chidaoadminstator`: `/chidaoadminstator.php`. */
export function adminApiBase(entrance: string): string {
  return `${entrance}.php`;
}

export const DEFAULT_ADMIN_ENTRANCE = '/chidaoadminstator';
export const DEFAULT_AVATAR = '/static/images/avatar.png';
