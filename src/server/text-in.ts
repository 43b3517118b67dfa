import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../contract/headers.js';

/** The column holding `column`'s text in `lang`: `column` itself in the site's default language, else `column_<lang>` (`title_en`). */
function columnIn(column: string, lang: Language): string {
  return lang === DEFAULT_LANGUAGE ? column : `${column}_${lang.replace(/-/g, '_')}`;
}

/**
 * A text an administrator writes in the site's default language (`column`) and may write in another
 * (`column_<lang>`: a survey's `title_en`, a template's `content_en`), for a reader of `lang`: their
 * language's when it is written (not blank), else the default language's. `fallback: 'any'` (what members
 * read of surveys and quick tasks) goes on, when the default language's is blank too, to the first other
 * language's that is written; `'default'` (a template, whose default text is the one meant) stops there.
 */
export function textIn(row: Readonly<Record<string, unknown>>, column: string, lang: Language, fallback: 'any' | 'default' = 'any'): string {
  const texts: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const value = row[columnIn(column, language)];
    if (typeof value === 'string') texts[language] = value;
  }
  const chosen = chosenText(texts, lang, fallback);
  if (chosen !== undefined) return chosen;
  const own = row[column];
  return typeof own === 'string' ? own : String(own ?? '');
}

/** Of a text written in some languages, the one a reader of `lang` reads (as `textIn`); undefined when none is written. */
export function chosenText(texts: Readonly<Partial<Record<Language, string>>>, lang: Language, fallback: 'any' | 'default' = 'any'): string | undefined {
  const others = fallback === 'any' ? LANGUAGES.filter((language) => language !== lang && language !== DEFAULT_LANGUAGE) : [];
  for (const language of [lang, DEFAULT_LANGUAGE, ...others]) {
    const value = texts[language];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}
