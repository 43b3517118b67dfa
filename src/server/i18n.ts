import { acceptedLanguageTags, LANGUAGES, isLanguage, preferredLanguage, type Language } from '../contract/headers.js';
import { readMessagePack } from '../schema/load-files.js';
import type { MessageParam } from '../schema/local-text.js';

export type Translate = (key: string, params?: readonly MessageParam[]) => string;

/**
 * Server messages are keyed by their English text (as in BuildAdmin); `locales/<lang>/server/*.json`
 * hold the translations; the English pack only lists keys whose display text differs.
 */
export class Messages {
  private readonly packs = new Map<Language, Record<string, string>>();

  constructor(localesDir: string) {
    for (const lang of LANGUAGES) this.packs.set(lang, readMessagePack(localesDir, lang));
  }

  translator(lang: Language): Translate {
    const pack = this.packs.get(lang) ?? {};
    // Keys are English text, so a key missing from a pack is its own best fallback (only the pack's own
    // keys count: a text such as "constructor" is not the object's member of that name).
    const lookup = (key: string) => (Object.hasOwn(pack, key) ? pack[key] : key);
    return (key, params = []) => {
      let index = 0;
      // `%s` and `%d` take the params in order; string params are translated too, schema texts give
      // their text in this language.
      return lookup(key).replace(/%[sd]/g, (placeholder) => {
        const value = params[index++];
        if (value === undefined) return '';
        if (typeof value === 'object') return value[lang];
        return placeholder === '%s' && typeof value === 'string' ? lookup(value) : String(value);
      });
    };
  }

  /** The key whose text in `lang` is `text` (the first such key), if any. */
  keyOf(lang: Language, text: string): string | undefined {
    const pack = this.packs.get(lang) ?? {};
    return Object.keys(pack).find((key) => pack[key] === text);
  }

  /**
   * The keys whose text in some language holds `text` (ignoring case; a language's pack without the key
   * reads it as the key itself, and placeholders hold nothing): what a reader may have searched for when
   * they typed a part of a message as shown. At most `limit` keys.
   */
  keysShowing(text: string, limit: number): string[] {
    const needle = text.toLowerCase();
    const keys = new Set([...this.packs.values()].flatMap((pack) => Object.keys(pack)));
    const translators = LANGUAGES.map((lang) => this.translator(lang));
    const found: string[] = [];
    for (const key of keys) {
      if (found.length >= limit) break;
      const shown = translators.map((translate) => translate(key).toLowerCase());
      if (shown.some((words) => words.includes(needle))) found.push(key);
    }
    return found;
  }

  /** A key some pack translates (the default language's pack lists every key it translates). */
  known(key: string): boolean {
    return [...this.packs.values()].some((pack) => Object.hasOwn(pack, key));
  }

  has(lang: Language, key: string): boolean {
    return Object.hasOwn(this.packs.get(lang) ?? {}, key);
  }
}

/** think-lang header, then `?lang=`, then Accept-Language (`zh-hans-cn` → zh-cn, see `preferredLanguage`); zh-cn by default. */
export function detectLanguage(header: unknown, queryLang: unknown, acceptLanguage: unknown): Language {
  for (const candidate of [header, queryLang]) {
    const value = typeof candidate === 'string' ? candidate.toLowerCase() : undefined;
    if (isLanguage(value)) return value;
  }
  return preferredLanguage(acceptedLanguageTags(acceptLanguage));
}
