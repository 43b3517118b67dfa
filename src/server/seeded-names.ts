import { DEFAULT_LANGUAGE, type Language } from '../contract/headers.js';
import type { AppContext } from './app-context.js';

/**
 * Names the database was seeded with (the admin groups, the members' default group) are stored in the
 * site's default language, Chinese. Another reader sees them in their language while they are still as
 * seeded; a name an administrator changed is theirs and shows as stored. The translations are server
 * messages: the default language's pack gives each seeded name its English key.
 */
type SeededTable = 'admin_group' | 'user_group';

const RESOURCE: Record<SeededTable, string> = { admin_group: 'system/admin_group', user_group: 'system/user_group' };

export function seededNameIn(app: AppContext, lang: Language, table: SeededTable, row: { id?: unknown; name?: unknown }): string {
  const name = typeof row.name === 'string' ? row.name : String(row.name ?? '');
  if (lang === DEFAULT_LANGUAGE || name === '') return name;
  const seeded = app.resources.get(RESOURCE[table])?.seed.find((seed) => Number(seed.id) === Number(row.id));
  if (!seeded || seeded.name !== name) return name;
  const key = app.messages.keyOf(DEFAULT_LANGUAGE, name);
  return key ? app.messages.translator(lang)(key) : name;
}

/**
 * A text a resource's seed wrote (a data rule's name, a watched field's note), in the reader's language
 * while it is one of `seeded`, the default language's texts of those rows; any other text is the
 * operator's and shows as stored. Like the names above, the translations are server messages.
 */
export function seededTextIn(app: AppContext, lang: Language, text: string, seeded: readonly unknown[]): string {
  if (lang === DEFAULT_LANGUAGE || text === '' || !seeded.includes(text)) return text;
  const key = app.messages.keyOf(DEFAULT_LANGUAGE, text);
  return key ? app.messages.translator(lang)(key) : text;
}
