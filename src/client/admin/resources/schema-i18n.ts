import { useCallback } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { isLanguage } from '../../../contract/headers.js';
import type { LocalText, MessageParam } from '../../../schema/local-text.js';

/** Every file of a language's server pack, merged in file-name order as the server merges them. */
function serverPack(files: Record<string, Record<string, string>>): Record<string, string> {
  return Object.assign({}, ...Object.keys(files).sort().map((file) => files[file]));
}

const zhPack = import.meta.glob<Record<string, string>>('../../../../locales/zh-cn/server/*.json', { eager: true, import: 'default' });
const enPack = import.meta.glob<Record<string, string>>('../../../../locales/en/server/*.json', { eager: true, import: 'default' });

/**
 * Validation messages are English keys shared with the server (validator, `locales/<lang>/server/*.json`).
 * Rather than copy those packs into `locales/<lang>/admin/`, where they would drift, the screens read the
 * server packs as the fallback of every lookup: the i18n provider still wins when it holds the key (so an
 * admin pack can override a wording), and a key that no pack knows shows as written. Schema texts
 * (titles, help, enum labels) come in every language in the definitions and need no lookup.
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
 * `(key, params)` → text. A key is a message key, or a schema text given in every language; the first
 * param of a server message is a field title, a schema text or a key itself.
 */
export type SchemaTranslate = (key: string | LocalText, params?: readonly MessageParam[]) => string;

export function useSchemaTranslate(): SchemaTranslate {
  const translate = useTranslate();
  const locale = useLocale();
  return useCallback(
    (key, params = []) => {
      const text = (item: string | LocalText) => {
        if (typeof item !== 'string') return isLanguage(locale) ? item[locale] : item.en;
        return translate(item, { _: serverPackText(locale, item) ?? item });
      };
      const filled = params.map((param, index) => (typeof param === 'object' || (index === 0 && typeof param === 'string') ? text(param) : param));
      return formatMessage(text(key), filled);
    },
    [translate, locale],
  );
}
