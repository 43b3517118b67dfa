import { isOneOf } from './checks.js';

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

/**
 * Sent with every answer to a signed-in administrator: the revision of the schemas the process serves,
 * so the open back office learns of a schema change from the calls it makes anyway
 * (docs/wire-contract.md#schema-revision).
 */
export const SCHEMA_REVISION_HEADER = 'chidao-schema-revision';

/** The value our client sends in `Header.client`. */
export const CLIENT_MARKER = 'chidao';

export const LANGUAGES = ['zh-cn', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-cn';

/**
 * Cookie copy of the language the browser chose (kept in its storage, which the server cannot read):
 * the server paints a page's first view in it. Without the cookie, the language the browser prefers
 * (`Accept-Language`, see `preferredLanguage`).
 */
export const LANGUAGE_COOKIE = 'think-lang';

/** The `lang` attribute of a page in a language. */
export function htmlLang(language: Language): string {
  return language === 'en' ? 'en' : 'zh-CN';
}

export function isLanguage(value: unknown): value is Language {
  return isOneOf(LANGUAGES, value);
}

/**
 * The language a browser prefers, from its language tags best first (`navigator.languages`, or an
 * `Accept-Language` header's entries): the first tag of a language we speak (`zh-*` → zh-cn, `en-*` → en);
 * the default when none is. The client and the server's first paint choose alike, so the page the server
 * paints is the one the code then draws.
 */
export function preferredLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const value = tag.trim().toLowerCase();
    if (value.startsWith('zh')) return 'zh-cn';
    if (value === 'en' || value.startsWith('en-')) return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** An `Accept-Language` header's language tags, best first (by `q`, then as written; `q=0` left out). */
export function acceptedLanguageTags(header: unknown): string[] {
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
      const q = params.find((param) => param.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** Admin API base for an entrance such as `/chidaoadminstator`: `/chidaoadminstator.php`. */
export function adminApiBase(entrance: string): string {
  return `${entrance}.php`;
}

export const DEFAULT_ADMIN_ENTRANCE = '/chidaoadminstator';
export const DEFAULT_AVATAR = '/static/images/avatar.png';
