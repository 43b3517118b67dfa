import { LANGUAGES, type Language } from '../contract/headers.js';

/** A text of a schema (a title, a help text, an enum label) in every language the product speaks. */
export type LocalText = Readonly<Record<Language, string>>;

/**
 * A text as a schema file writes it: one string, or `{ "zh-cn": "…", "en": "…" }`. A string with Chinese
 * characters is Chinese; any other string is English, and also the key of the shared glossary
 * (`locales/<lang>/server/*.json`, keyed by English text) that gives the other language in a schema
 * written in both (see `TextResolver`).
 */
export type RawText = string | Partial<Record<Language, string>>;

/** A text one language had to borrow from the other: reported by `npm run gen`, shown as borrowed. */
export interface TextGap {
  file: string;
  /** JSON pointer of the text in the schema file */
  path: string;
  /** where the locale file would hold it: `["title"]`, `["menu", "title"]`, `["fields", "price", "help"]`, `["fields", "state", "options", "draft"]` */
  at: LocalePath;
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

/** Whether a locale file holds any text at all. */
function holdsText(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsText);
}

/**
 * The languages a schema writes itself, in `texts` (every text it shows: titles, help, option labels,
 * menu titles, as written) or in its locale files: an English string writes English, a Chinese one
 * Chinese, a text object each language it names.
 */
export function languagesWritten(texts: readonly (RawText | undefined)[], locale: TextSources['locale'] = {}): Set<Language> {
  const written = new Set<Language>();
  for (const raw of texts) {
    if (typeof raw === 'string') {
      if (raw !== '') written.add(languageOfText(raw));
    } else if (raw) {
      for (const lang of LANGUAGES) if (raw[lang]) written.add(lang);
    }
  }
  for (const lang of LANGUAGES) if (holdsText(locale[lang])) written.add(lang);
  return written;
}

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
 * a language still without text borrows the other's, and the gap is kept for `npm run gen` and the
 * designer to list.
 *
 * The glossary fills in only a language the schema writes itself somewhere (`written`, see
 * `languagesWritten`): a schema with no Chinese text at all shows every text as written in the Chinese
 * back office too, never a few common words translated beside the rest (docs/schemas.md, "Both languages").
 */
export class TextResolver {
  readonly gaps: TextGap[] = [];

  constructor(
    private readonly file: string,
    private readonly sources: TextSources = {},
    private readonly written: ReadonlySet<Language> = new Set(LANGUAGES),
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
      this.gaps.push({ file: this.file, path: pointer, at: localePath, missing: lang, shown: borrowed });
    }
    return resolved;
  }

  private fromSchema(raw: RawText | undefined, lang: Language): string | undefined {
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string') return raw[lang];
    const glossary = this.written.has(lang) ? this.sources.glossary?.[lang] : undefined;
    if (languageOfText(raw) === lang) return lang === 'en' ? (glossary?.[raw] ?? raw) : raw;
    // A Chinese string has no key in the glossary; an English one is looked up as written.
    return languageOfText(raw) === 'en' ? glossary?.[raw] : undefined;
  }
}

/** A param of a message: a number, a string (itself a message key), or a schema text (a field title). */
export type MessageParam = string | number | LocalText;
