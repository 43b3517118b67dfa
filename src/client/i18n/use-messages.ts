import { useEffect, useMemo, useState } from 'react';
import { currentLanguage } from './store-config.js';
import { loadMessages } from './load-messages.js';
import { createTranslate, type MessagePack, type Translate } from './translate.js';

/**
 * Message packs for a standalone page (login, 404...), without react-admin's i18n machinery.
 * `ready` is false until the files of the current language have arrived.
 */
export function useMessages(names: readonly string[]): { translate: Translate; ready: boolean; language: ReturnType<typeof currentLanguage> } {
  const language = currentLanguage();
  const key = names.join('|');
  const [pack, setPack] = useState<MessagePack | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    loadMessages(language, key.split('|')).then(
      (loaded) => alive && setPack(loaded),
      () => alive && setPack({}),
    );
    return () => {
      alive = false;
    };
  }, [language, key]);
  const translate = useMemo(() => createTranslate(pack ?? {}), [pack]);
  return { translate, ready: pack !== undefined, language };
}
