import { useEffect, useSyncExternalStore } from 'react';
import { isLanguage, type Language } from '../../contract/headers.js';
import type { MessageParam } from '../../schema/local-text.js';

type ServerPack = Readonly<Record<string, string>>;

/**
 * Validation messages are English keys shared with the server (validator, `locales/<lang>/server/*.json`):
 * screens that check input before sending it read the same packs rather than copies that would drift.
 * Each language's pack is a chunk of its own, fetched the first time a screen asks for it (a form, or a
 * lookup of a key): a list, whose texts come with the schemas, never downloads one.
 */
const PACK_LOADERS: Readonly<Record<Language, () => Promise<ServerPack>>> = {
  'zh-cn': async () => (await import('./server-packs/zh-cn.js')).pack,
  en: async () => (await import('./server-packs/en.js')).pack,
};

const packs = new Map<Language, ServerPack>();
const loading = new Map<Language, Promise<void>>();
const arrivals = new Set<() => void>();

/** Fetches a language's server pack (once); resolves when it is in, or when it could not be had. */
export function loadServerPack(language: string): Promise<void> {
  if (!isLanguage(language) || packs.has(language)) return Promise.resolve();
  let load = loading.get(language);
  if (!load) {
    load = PACK_LOADERS[language]().then(
      (pack) => {
        packs.set(language, pack);
        for (const notify of arrivals) notify();
      },
      () => {
        // A failed fetch (a stale chunk after a deployment) is tried again by the next screen asking.
        loading.delete(language);
      },
    );
    loading.set(language, load);
  }
  return load;
}

function followArrivals(notify: () => void): () => void {
  arrivals.add(notify);
  return () => arrivals.delete(notify);
}

/** Whether `locale`'s server pack is in (a locale without one counts as in); the component draws again when it arrives. */
export function useServerPackArrival(locale: string): boolean {
  return useSyncExternalStore(followArrivals, () => !isLanguage(locale) || packs.has(locale));
}

/** The same, for a screen that needs the pack: fetched if it is not in yet. */
export function useServerPack(locale: string): boolean {
  const packIn = useServerPackArrival(locale);
  useEffect(() => {
    if (!packIn) void loadServerPack(locale);
  }, [locale, packIn]);
  return packIn;
}

/** Fill `%s` / `%d` in order, the way the server's messages take their params. */
export function formatMessage(template: string, params: readonly (string | number)[] = []): string {
  let index = 0;
  return template.replace(/%[sd]/g, (token) => {
    if (index >= params.length) return token;
    const value = params[index++];
    return token === '%d' ? String(Number(value)) : String(value);
  });
}

/** A key's text in `locale`'s server pack; undefined (and the pack fetched) while the pack is not in yet. */
export function serverPackText(locale: string, key: string): string | undefined {
  if (!isLanguage(locale)) return undefined;
  const pack = packs.get(locale);
  if (!pack) void loadServerPack(locale);
  return pack?.[key];
}

/**
 * A server message in `language` without react-admin: the key and string params through the server
 * pack (a field title given as a schema text takes this language's), as the server's translator does.
 * The pack must be in (`loadServerPack`), else the key shows as written.
 */
export function serverMessage(language: Language, key: string, params: readonly MessageParam[] = []): string {
  const text = (item: string) => serverPackText(language, item) ?? item;
  const filled = params.map((param) => (typeof param === 'object' ? param[isLanguage(language) ? language : 'en'] : typeof param === 'string' ? text(param) : param));
  return formatMessage(text(key), filled);
}
