import { LANGUAGES, type Language } from '../contract/headers.js';

/** A text of a schema (a title, a help text, an enum label) in every language the product speaks. */
export type LocalText = Readonly<Record<Language, string>>;

/**
 * A text as a schema file writes it: one string, or `{ "zh-cn": "…", "en": "…" }`. A string with Chinese
 * characters is Chinese; any other string is English, and also the key of the shared glossary
 * (`locales/<lang>/server/*.json`, keyed by English text) that gives the other language.
 */
export type RawText = string | Partial<Record<Language, string>>;

/** A text one language had to borrow from the other: reported by `npm run gen`, shown as borrowed. */
export interface TextGap {
  file: string;
  /** JSON pointer of the text in the schema file */
  path: string;
  missing: Language;
  /** what is shown instead */
  shown: string;
}

/**
 * The per-schema locale file, `locales/<lang>/schemas/<group>/<name>.json` beside `schemas/`: what it
 * holds wins over the schema's own text. A field given as a string is its title.
 */
export interface SchemaLocaleFile {
  title?: string;
  menu?: { title?: string; parent?: string };
  fields?: Record<string, string | { title?: string; help?: string; options?: Record<string, string> }>;
}

export interface TextSources {
  /** English text → translation, per language (the server message packs) */
  glossary?: Partial<Record<Language, Readonly<Record<string, string>>>>;
  /** the schema's locale files, per language */
  locale?: Partial<Record<Language, SchemaLocaleFile>>;
}

const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;

/** The language a plain string of a schema is written in. */
function languageOfText(text: string): Language {
  return CHINESE.test(text) ? 'zh-cn' : 'en';
}

/** The same text in every language: for names, codes and values that need no translation. */
export function sameText(text: string): LocalText {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, text])) as Record<Language, string>;
}

/** Where a text sits in the locale file: `["fields", "price", "options", "draft"]`. */
type LocalePath = readonly string[];

function fromLocaleFile(file: SchemaLocaleFile | undefined, path: LocalePath): string | undefined {
  if (!file) return undefined;
  const [head, ...rest] = path;
  if (head === 'title') return file.title;
  if (head === 'menu') return rest[0] === 'parent' ? file.menu?.parent : file.menu?.title;
  if (head !== 'fields') return undefined;
  const [field, part, option] = rest;
  const entry = file.fields?.[field];
  if (typeof entry === 'string') return part === 'title' ? entry : undefined;
  if (part === 'options') return entry?.options?.[option];
  return part === 'help' ? entry?.help : part === 'title' ? entry?.title : undefined;
}

/**
 * Resolves the texts of one schema file in every language and records what had to be borrowed. In each
 * language the locale file wins, then the schema's own text, then the glossary for an English string;
 * a language still without text borrows the other's, and the gap is kept for `npm run gen` to report.
 */
export class TextResolver {
  readonly gaps: TextGap[] = [];

  constructor(
    private readonly file: string,
    private readonly sources: TextSources = {},
  ) {}

  /**
   * `raw` as the schema writes it, `pointer` its JSON pointer (for the report), `localePath` where a
   * locale file would put it. `fallback` is used when no language has any text (a field without title).
   */
  text(raw: RawText | undefined, pointer: string, localePath: LocalePath, fallback?: string): LocalText {
    const found = new Map<Language, string>();
    for (const lang of LANGUAGES) {
      const text = fromLocaleFile(this.sources.locale?.[lang], localePath) ?? this.fromSchema(raw, lang);
      if (text !== undefined && text !== '') found.set(lang, text);
    }
    if (found.size === 0) return sameText(fallback ?? '');
    const resolved = {} as Record<Language, string>;
    for (const lang of LANGUAGES) {
      const own = found.get(lang);
      if (own !== undefined) {
        resolved[lang] = own;
        continue;
      }
      const borrowed = LANGUAGES.map((other) => found.get(other)).find((text) => text !== undefined) as string;
      resolved[lang] = borrowed;
      this.gaps.push({ file: this.file, path: pointer, missing: lang, shown: borrowed });
    }
    return resolved;
  }

  private fromSchema(raw: RawText | undefined, lang: Language): string | undefined {
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string') return raw[lang];
    if (languageOfText(raw) === lang) return lang === 'en' ? (this.sources.glossary?.en?.[raw] ?? raw) : raw;
    // A Chinese string has no key in the glossary; an English one is looked up as written.
    return languageOfText(raw) === 'en' ? this.sources.glossary?.[lang]?.[raw] : undefined;
  }
}

/** A param of a message: a number, a string (itself a message key), or a schema text (a field title). */
export type MessageParam = string | number | LocalText;
