import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGES, preferredLanguage, type Language } from '../../contract/headers.js';

/**
 * localStorage `storeConfig_v2` (docs/client.md#local-storage): `{layout: {...}, lang: {defaultLang, fallbackLang,
 * langArray}}`. The layout part belongs to the back-office shell, the lang part to whoever switches
 * language; both write through `writeStoreConfig`, which merges, so neither loses the other's part.
 */
const STORE_CONFIG_KEY = 'storeConfig_v2';

interface LangConfig {
  defaultLang: Language;
  fallbackLang: Language;
  langArray: { name: Language; value: string }[];
}

export interface StoreConfig {
  layout: Record<string, unknown>;
  lang: LangConfig;
}

export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-cn': '中文简体', en: 'English' };

/** The language the browser prefers (`navigator.languages`), for a visitor who has chosen none yet. */
function browserLanguage(): Language {
  if (typeof navigator === 'undefined') return DEFAULT_LANGUAGE;
  return preferredLanguage(navigator.languages?.length ? navigator.languages : [navigator.language ?? '']);
}

function defaultLangConfig(): LangConfig {
  return {
    defaultLang: browserLanguage(),
    fallbackLang: DEFAULT_LANGUAGE,
    langArray: LANGUAGES.map((name) => ({ name, value: LANGUAGE_NAMES[name] })),
  };
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** What the storage holds, as it was written: a language only once the visitor chose one. */
function readStored(): { layout: Record<string, unknown>; lang: Partial<LangConfig> } {
  let raw: unknown;
  try {
    raw = JSON.parse(storage()?.getItem(STORE_CONFIG_KEY) ?? 'null');
  } catch {
    raw = null;
  }
  const stored = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<StoreConfig>;
  return {
    layout: typeof stored.layout === 'object' && stored.layout ? stored.layout : {},
    lang: typeof stored.lang === 'object' && stored.lang ? stored.lang : {},
  };
}

/** The stored preferences; with no language chosen (or none valid), the one the browser prefers. */
export function readStoreConfig(): StoreConfig {
  const stored = readStored();
  const lang = { ...defaultLangConfig(), ...stored.lang };
  if (!isLanguage(lang.defaultLang)) lang.defaultLang = browserLanguage();
  return { layout: stored.layout, lang };
}

/** Merges `patch` into what is stored; a language nobody chose stays unstored (it keeps following the browser). */
export function writeStoreConfig(patch: { layout?: Record<string, unknown>; lang?: Partial<LangConfig> }): StoreConfig {
  const stored = readStored();
  const next = {
    layout: { ...stored.layout, ...(patch.layout ?? {}) },
    lang: { ...stored.lang, ...(patch.lang ?? {}) },
  };
  storage()?.setItem(STORE_CONFIG_KEY, JSON.stringify(next));
  return readStoreConfig();
}

/** On the server, the language of the page being rendered (a render is synchronous: one at a time). */
let rendering: Language | undefined;

/** Runs a server render of a page in the given language (the server has no storage to read it from). */
export function renderingIn<T>(language: Language, render: () => T): T {
  rendering = language;
  try {
    return render();
  } finally {
    rendering = undefined;
  }
}

/** The language the UI speaks and sends as `think-lang`. */
export function currentLanguage(): Language {
  return rendering ?? readStoreConfig().lang.defaultLang;
}

/** Tells the server the language (a cookie), so the first view it paints of a page is in it. */
export function shareLanguage(language: Language = currentLanguage()): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** Stores the language; the caller reloads the page so every message pack and request follows. */
export function storeLanguage(language: Language): void {
  writeStoreConfig({ lang: { defaultLang: language } });
  shareLanguage(language);
}
