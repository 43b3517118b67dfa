import type { Language } from '../../contract/headers.js';
import type { MessagePack } from './translate.js';
import { mergePacks } from './translate.js';

/**
 * Client message files, one chunk each, fetched when a page needs them: `admin/login`, `common/pages`...
 * (design §5: language files load per route).
 */
const files = import.meta.glob<MessagePack>('../../../locales/*/{admin,common,member}/*.json', { import: 'default' });

/** The named files of one language merged into one pack; a missing file is an empty pack. */
export async function loadMessages(language: Language, names: readonly string[]): Promise<MessagePack> {
  const packs = await Promise.all(
    names.map((name) => {
      const load = files[`../../../locales/${language}/${name}.json`];
      return load ? load() : Promise.resolve({});
    }),
  );
  return mergePacks(...packs);
}
