import { useEffect, useMemo, useState } from 'react';
import { currentLanguage } from './store-config.js';
import { loadedMessages, loadMessages } from './load-messages.js';
import { createTranslate, type MessagePack, type Translate } from './translate.js';

/**
 * Message packs for a standalone page (login, 404...), without react-admin's i18n machinery.
 * `ready` is false until the files of the current language have arrived; files fetched beforehand
 * (`preloadMessages`, beside the route's code) make it true from the first render.
 */
export function useMessages(names: readonly string[]): { translate: Translate; ready: boolean; language: ReturnType<typeof currentLanguage> } {
  const language = currentLanguage();
  const key = names.join('|');
  const wanted = `${language}|${key}`;
  // The pack and the files it was made of: a language or file list that changes makes it stale.
  const [held, setHeld] = useState<{ for: string; pack: MessagePack } | undefined>(() => {
    const pack = loadedMessages(language, key.split('|'));
    return pack && { for: wanted, pack };
  });
  const pack = held?.for === wanted ? held.pack : undefined;
  const have = pack !== undefined;
  useEffect(() => {
    if (have) return;
    let alive = true;
    loadMessages(language, key.split('|')).then(
      (loaded) => alive && setHeld({ for: `${language}|${key}`, pack: loaded }),
      () => alive && setHeld({ for: `${language}|${key}`, pack: {} }),
    );
    return () => {
      alive = false;
    };
  }, [language, key, have]);
  const translate = useMemo(() => createTranslate(pack ?? {}), [pack]);
  return { translate, ready: pack !== undefined, language };
}

/** Fetches a page's message files in the current language, so the page's first render has its words. */
export function preloadMessages(names: readonly string[]): Promise<unknown> {
  return loadMessages(currentLanguage(), names).catch(() => undefined);
}
