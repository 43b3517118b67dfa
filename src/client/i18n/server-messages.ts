import { isLanguage, type Language } from '../../contract/headers.js';
import type { MessageParam } from '../../schema/local-text.js';

/** Every file of a language's server pack, merged in file-name order as the server merges them. */
function serverPack(files: Record<string, Record<string, string>>): Record<string, string> {
  return Object.assign({}, ...Object.keys(files).sort().map((file) => files[file]));
}

const zhPack = import.meta.glob<Record<string, string>>('../../../locales/zh-cn/server/*.json', { eager: true, import: 'default' });
const enPack = import.meta.glob<Record<string, string>>('../../../locales/en/server/*.json', { eager: true, import: 'default' });

/**
 * Validation messages are English keys shared with the server (validator, `locales/<lang>/server/*.json`):
 * screens that check input before sending it read the same packs rather than copies that would drift.
 */
const SERVER_PACKS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'zh-cn': serverPack(zhPack),
  en: serverPack(enPack),
};

/** Fill `%s` / `%d` in order, the way the server's messages take their params. */
export function formatMessage(template: string, params: readonly (string | number)[] = []): string {
  let index = 0;
  return template.replace(/%[sd]/g, (token) => {
    if (index >= params.length) return token;
    const value = params[index++];
    return token === '%d' ? String(Number(value)) : String(value);
  });
}

export function serverPackText(locale: string, key: string): string | undefined {
  return SERVER_PACKS[locale]?.[key];
}

/**
 * A server message in `language` without react-admin: the key and string params through the server
 * pack (a field title given as a schema text takes this language's), as the server's translator does.
 */
export function serverMessage(language: Language, key: string, params: readonly MessageParam[] = []): string {
  const text = (item: string) => serverPackText(language, item) ?? item;
  const filled = params.map((param) => (typeof param === 'object' ? param[isLanguage(language) ? language : 'en'] : typeof param === 'string' ? text(param) : param));
  return formatMessage(text(key), filled);
}
