import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, Locale, TranslationMessages } from 'ra-core';
import enHttp from '../../../locales/en/common/http.json';
import zhHttp from '../../../locales/zh-cn/common/http.json';
import zhReactAdmin from '../../../locales/zh-cn/common/react-admin.json';
import { isRecord } from '../../contract/checks.js';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../contract/headers.js';
import { loadMessages as loadMessageFiles } from '../i18n/load-messages.js';
import { currentLanguage, LANGUAGE_NAMES, storeLanguage } from '../i18n/store-config.js';
import { mergePacks, type MessagePack } from '../i18n/translate.js';

/**
 * react-admin's i18n provider (polyglot): zh-cn by default and as the fallback, en (docs/client.md#languages). The
 * react-admin and http messages are bundled; the other files (`admin/<page>`, `common/<x>`) are
 * fetched when a route asks for them (`loadMessages`). The language lives in localStorage
 * `storeConfig_v2.lang.defaultLang`; changing it stores the choice and reloads the page (docs/client.md#languages).
 */

const FALLBACK_LANGUAGE: Language = DEFAULT_LANGUAGE;

export type AppI18nProvider = I18nProvider & {
  /**
   * Fetch message files by name (`admin/dashboard`, `common/pages`: the path below `locales/<lang>/`)
   * in the current and the fallback language. Resolves once their keys translate; load them before
   * rendering the route that needs them. Files already loaded are not fetched again.
   */
  loadMessages(names: readonly string[]): Promise<void>;
};

interface I18nProviderOptions {
  /** default `location.reload()` */
  reload?: () => void;
  /** default: the lazy `locales/<lang>/{admin,common}/*.json` chunks */
  loadFiles?: (language: Language, names: readonly string[]) => Promise<MessagePack>;
}

const LOCALES: Locale[] = LANGUAGES.map((language) => ({ locale: language, name: LANGUAGE_NAMES[language] }));

/** Checked by the compiler against react-admin's message type (a test also walks the English pack). */
const zhRaMessages: TranslationMessages = zhReactAdmin;

/** react-admin's messages as a pack: its type allows keys without a message, which a pack leaves out. */
function packOf(messages: Record<string, unknown>): MessagePack {
  const pack: MessagePack = {};
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') pack[key] = value;
    else if (isRecord(value)) pack[key] = packOf(value);
  }
  return pack;
}

/** The packs every language starts with. */
export function bundledMessages(): Record<Language, MessagePack> {
  return {
    'zh-cn': mergePacks(packOf(zhRaMessages), zhHttp),
    en: mergePacks(packOf(englishMessages), enHttp),
  };
}

/** What a language shows: its own messages over the fallback's, so a key it lacks falls back to zh-cn. */
export function messagesFor(language: Language, packs: Readonly<Record<Language, MessagePack>>): MessagePack {
  return language === FALLBACK_LANGUAGE ? packs[FALLBACK_LANGUAGE] : mergePacks(packs[FALLBACK_LANGUAGE], packs[language]);
}

export function createI18nProvider(options: I18nProviderOptions = {}): AppI18nProvider {
  const reload = options.reload ?? (() => location.reload());
  const loadFiles = options.loadFiles ?? loadMessageFiles;
  const packs = bundledMessages();
  const loaded = new Set<string>();

  const polyglot = polyglotI18nProvider(
    // Every pack holds the bundled `ra` messages, so it is a complete TranslationMessages.
    (locale) => messagesFor(isLanguage(locale) ? locale : FALLBACK_LANGUAGE, packs) as TranslationMessages,
    currentLanguage(),
    LOCALES,
    // A missing key shows its `_` default or the key itself, without a console warning per render.
    { allowMissing: true },
  );

  const language = (): Language => {
    const locale = polyglot.getLocale();
    return isLanguage(locale) ? locale : FALLBACK_LANGUAGE;
  };

  async function fetchInto(target: Language, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    const languages = target === FALLBACK_LANGUAGE ? [target] : [FALLBACK_LANGUAGE, target];
    const fetched = await Promise.all(languages.map((item) => loadFiles(item, names)));
    languages.forEach((item, index) => {
      packs[item] = mergePacks(packs[item], fetched[index]);
    });
  }

  return {
    translate: (key, translateOptions) => polyglot.translate(key, translateOptions),
    getLocale: () => polyglot.getLocale(),
    getLocales: () => LOCALES,

    async changeLocale(locale: string) {
      const next: Language = isLanguage(locale) ? locale : FALLBACK_LANGUAGE;
      const changed = next !== language();
      if (changed) storeLanguage(next);
      await fetchInto(next, [...loaded]);
      await polyglot.changeLocale(next);
      // Server messages, cached lists and every open screen follow the new language after a reload.
      if (changed) reload();
    },

    async loadMessages(names: readonly string[]) {
      const fresh = names.filter((name) => !loaded.has(name));
      if (fresh.length === 0) return;
      await fetchInto(language(), fresh);
      fresh.forEach((name) => loaded.add(name));
      // Rebuild polyglot's phrases with the new files.
      await polyglot.changeLocale(language());
    },
  };
}
