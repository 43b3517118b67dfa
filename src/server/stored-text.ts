import { LANGUAGES, type Language } from '../contract/headers.js';
import { chosenText, textIn } from './text-in.js';
import { isRecord, propertyOf } from '../contract/checks.js';
import { sameText, type MessageParam } from '../schema/local-text.js';
import type { Messages } from './i18n.js';

/**
 * Texts the system writes into rows (ledger notes, reasons) are stored as a message key with its
 * parameters, and put into words when read, in the reader's language:
 *
 *   {"key":"Survey reward: %s","params":["#12 Brand study"]}
 *
 * The key is a server message (English text, translated by `locales/<lang>/server/*.json`); params are
 * numbers, strings shown as they are (a survey's title, an administrator's reason, a provider's own words:
 * never looked up as keys), a text written in more than one language (`{texts: {"zh-cn": …, "en": …}}`, a
 * survey's title and its English one: the reader's, as members read the survey itself), or a message of
 * their own (`{key, params}`, a reason the system words), put into words in the same language. A stored value that is not this form, or whose key no message pack
 * knows, is shown as stored: notes written before this form, and those administrators type themselves.
 */

/** A message with its parameters, as stored. */
interface StoredMessage {
  key: string;
  params: StoredParam[];
}

/** A text as written in each language it was written in (the site's default language's always). */
interface StoredTexts {
  texts: Partial<Record<Language, string>>;
}

export type StoredParam = string | number | StoredMessage | StoredTexts;

const MARK = '{"key":';
/** Messages inside messages, at most this deep (a reason inside a note): deeper ones are not read. */
const MAX_DEPTH = 4;

/** A message to store, or to put into another one as a parameter. */
export function message(key: string, params: StoredParam[] = []): StoredMessage {
  return { key, params };
}

/**
 * A row's text in every language it is written in (`title`, `title_en`), as a parameter: a plain string when
 * only the default language's is written, so a note reads the same as before for a text in one language.
 */
export function textsParam(row: Readonly<Record<string, unknown>>, column: string): StoredParam {
  const texts: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const text = textIn(row, column, language);
    if (text !== '') texts[language] = text;
  }
  const distinct = new Set(Object.values(texts));
  return distinct.size <= 1 ? [...distinct][0] ?? '' : { texts };
}

/** Where one string of a parameter list sits: read it, and write it shortened. */
interface StringPlace {
  value: string;
  set: (value: string) => void;
}

/** Every string parameter, inner messages' and texts in each language included, to shorten them by. */
function stringParams(params: StoredParam[]): StringPlace[] {
  return params.flatMap((value, index): StringPlace[] => {
    if (typeof value === 'string') return [{ value, set: (next) => (params[index] = next) }];
    if (typeof value === 'number') return [];
    if ('texts' in value) {
      const texts = value.texts;
      return LANGUAGES.flatMap((language) => {
        const text = texts[language];
        return text === undefined ? [] : [{ value: text, set: (next: string) => (texts[language] = next) }];
      });
    }
    return stringParams(value.params);
  });
}

function copyParams(params: StoredParam[]): StoredParam[] {
  return params.map((value) => (typeof value !== 'object' ? value : 'texts' in value ? { texts: { ...value.texts } } : { key: value.key, params: copyParams(value.params) }));
}

/** The stored form of a message, at most `maxLength` characters: the longest string param gives way (ending in "…"). */
export function storedMessage(key: string, params: StoredParam[] = [], maxLength = 255): string {
  const values = copyParams(params);
  let text = JSON.stringify({ key, params: values });
  while (text.length > maxLength) {
    let longest: StringPlace | undefined;
    for (const place of stringParams(values)) {
      if (!longest || place.value.length > longest.value.length) longest = place;
    }
    const value = longest?.value ?? '';
    // Nothing left to shorten: the keys alone do not fit, a programming error.
    if (!longest || value.length <= 1) throw new Error(`Stored message "${key}" does not fit in ${maxLength} characters`);
    const keep = Math.max(0, value.length - (text.length - maxLength) - 1);
    longest.set(`${value.slice(0, keep)}…`);
    text = JSON.stringify({ key, params: values });
  }
  return text;
}

/** The texts a stored `{texts}` parameter holds, in the languages this site speaks; undefined when it holds none. */
function textsOf(value: unknown): StoredTexts | undefined {
  const stored = propertyOf(value, 'texts');
  if (!isRecord(stored)) return undefined;
  const texts: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const text = stored[language];
    if (typeof text === 'string') texts[language] = text;
  }
  return Object.keys(texts).length > 0 ? { texts } : undefined;
}

function messageOf(value: unknown, depth: number): StoredMessage | undefined {
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== 'string') return undefined;
  const list = Array.isArray(params)
    ? params.flatMap((param): StoredParam[] => {
      if (typeof param === 'string' || typeof param === 'number') return [param];
      const texts = textsOf(param);
      if (texts) return [texts];
      const inner = messageOf(param, depth + 1);
      return inner ? [inner] : [];
    })
    : [];
  return { key, params: list };
}

/** The message a stored value holds (any key), or undefined for plain text. */
function parseStored(stored: string): StoredMessage | undefined {
  if (!stored.startsWith(MARK)) return undefined;
  try {
    return messageOf(JSON.parse(stored), 0);
  } catch {
    return undefined;
  }
}

/**
 * A stored text as a parameter of another message: its message when it holds one (put into words with the
 * outer one), else the text itself, shown as it is.
 */
export function storedParam(stored: string): StoredParam {
  return parseStored(stored) ?? stored;
}

function inWords(stored: StoredMessage, lang: Language, messages: Messages): string {
  // String params are names and reasons, not message keys: each goes in as a text of its own.
  const params: MessageParam[] = stored.params.map((param) => {
    if (typeof param === 'string') return sameText(param);
    if (typeof param === 'number') return param;
    // A text in several languages reads as the survey it names does: the reader's, else the default one's.
    if ('texts' in param) return sameText(chosenText(param.texts, lang) ?? '');
    return sameText(messages.known(param.key) ? inWords(param, lang, messages) : param.key);
  });
  return messages.translator(lang)(stored.key, params);
}

/** A stored text in `lang`: a stored message in words, any other text as it is. */
export function readStoredText(stored: unknown, lang: Language, messages: Messages): string {
  const text = typeof stored === 'string' ? stored : stored === null || stored === undefined ? '' : String(stored);
  const parsed = parseStored(text);
  if (!parsed || !messages.known(parsed.key)) return text;
  return inWords(parsed, lang, messages);
}
