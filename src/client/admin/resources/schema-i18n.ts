import { useCallback } from 'react';
import { useLocale, useTranslate } from 'react-admin';

/** Every file of a language's server pack, merged in file-name order as the server merges them. */
function serverPack(files: Record<string, Record<string, string>>): Record<string, string> {
  return Object.assign({}, ...Object.keys(files).sort().map((file) => files[file]));
}

const zhPack = import.meta.glob<Record<string, string>>('../../../../locales/zh-cn/server/*.json', { eager: true, import: 'default' });
const enPack = import.meta.glob<Record<string, string>>('../../../../locales/en/server/*.json', { eager: true, import: 'default' });

/**
 * Field titles and validation messages are English keys shared with the server (schemas, validator,
 * `locales/<lang>/server/*.json`). Rather than copy those packs into `locales/<lang>/admin/`, where they
 * would drift, the screens read the server packs as the fallback of every lookup: the i18n provider
 * still wins when it holds the key (so an admin pack can override a wording), and a title that no pack
 * knows shows as written.
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

/** `(key, params)` → text; the first param of a server message is a field title, translated too. */
export type SchemaTranslate = (key: string, params?: readonly (string | number)[]) => string;

export function useSchemaTranslate(): SchemaTranslate {
  const translate = useTranslate();
  const locale = useLocale();
  return useCallback(
    (key, params = []) => {
      const text = (item: string) => translate(item, { _: serverPackText(locale, item) ?? item });
      const filled = params.map((param, index) => (index === 0 && typeof param === 'string' ? text(param) : param));
      return formatMessage(text(key), filled);
    },
    [translate, locale],
  );
}
