import type { Language } from '../../contract/headers.js';
import type { MessagePack } from './translate.js';
import { mergePacks } from './translate.js';

/**
 * Client message files, one chunk each, fetched when a page needs them: `admin/login`, `common/pages`...
 * (docs/architecture.md#the-client: language files load per route).
 */
const files = import.meta.glob<MessagePack>('../../../locales/*/{admin,common,member}/*.json', { import: 'default' });

/** Files already arrived, by `<language>/<name>`: a page whose files a route fetched beside its code renders with its words at once. */
const arrived = new Map<string, MessagePack>();

function loadFile(language: Language, name: string): Promise<MessagePack> {
  const key = `${language}/${name}`;
  const cached = arrived.get(key);
  if (cached) return Promise.resolve(cached);
  const load = files[`../../../locales/${key}.json`];
  if (!load) return Promise.resolve({});
  return load().then((pack) => {
    arrived.set(key, pack);
    return pack;
  });
}

/** The named files of one language merged into one pack; a missing file is an empty pack. */
export async function loadMessages(language: Language, names: readonly string[]): Promise<MessagePack> {
  return mergePacks(...(await Promise.all(names.map((name) => loadFile(language, name)))));
}

/** The same pack, synchronously, when every named file has already arrived (a missing file counts as arrived). */
export function loadedMessages(language: Language, names: readonly string[]): MessagePack | undefined {
  const packs: MessagePack[] = [];
  for (const name of names) {
    const pack = files[`../../../locales/${language}/${name}.json`] ? arrived.get(`${language}/${name}`) : {};
    if (!pack) return undefined;
    packs.push(pack);
  }
  return mergePacks(...packs);
}
