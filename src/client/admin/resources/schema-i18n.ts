import { useCallback } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { isLanguage } from '../../../contract/headers.js';
import type { LocalText, MessageParam } from '../../../schema/local-text.js';
import { formatMessage, serverPackText, useServerPackArrival } from '../../i18n/server-messages.js';

/*
 * Validation messages are English keys shared with the server; the screens read the server packs as the
 * fallback of every lookup: the i18n provider still wins when it holds the key (so an admin pack can
 * override a wording), and a key that no pack knows shows as written. Schema texts (titles, help, enum
 * labels) come in every language in the definitions and need no lookup. The server pack is fetched
 * by the first lookup of a key; the screen draws again, with its words, when it arrives.
 */
export { formatMessage, serverPackText } from '../../i18n/server-messages.js';

/**
 * `(key, params)` → text. A key is a message key, or a schema text given in every language; the first
 * param of a server message is a field title, a schema text or a key itself.
 */
export type SchemaTranslate = (key: string | LocalText, params?: readonly MessageParam[]) => string;

export function useSchemaTranslate(): SchemaTranslate {
  const translate = useTranslate();
  const locale = useLocale();
  const packIn = useServerPackArrival(locale);
  return useCallback(
    (key, params = []) => {
      const text = (item: string | LocalText) => {
        if (typeof item !== 'string') return isLanguage(locale) ? item[locale] : item.en;
        return translate(item, { _: serverPackText(locale, item) ?? item });
      };
      const filled = params.map((param, index) => (typeof param === 'object' || (index === 0 && typeof param === 'string') ? text(param) : param));
      return formatMessage(text(key), filled);
    },
    // A new function once the pack is in: memoised texts and checks made with the old one are made again.
    [translate, locale, packIn],
  );
}
