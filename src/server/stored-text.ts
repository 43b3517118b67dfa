import type { Language } from '../contract/headers.js';
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
 * never looked up as keys), or a message of their own (`{key, params}`, a reason the system words), put
 * into words in the same language. A stored value that is not this form, or whose key no message pack
 * knows, is shown as stored: notes written before this form, and those administrators type themselves.
 */

/** A message with its parameters, as stored. */
interface StoredMessage {
  key: string;
  params: StoredParam[];
}

export type StoredParam = string | number | StoredMessage;

const MARK = '{"key":';
/** Messages inside messages, at most this deep (a reason inside a note): deeper ones are not read. */
const MAX_DEPTH = 4;

/** A message to store, or to put into another one as a parameter. */
export function message(key: string, params: StoredParam[] = []): StoredMessage {
  return { key, params };
}

/** Every string parameter, inner messages' included, as a holder and an index to shorten it by. */
function stringParams(params: StoredParam[]): { holder: StoredParam[]; index: number }[] {
  return params.flatMap((value, index) => (typeof value === 'string' ? [{ holder: params, index }] : typeof value === 'object' ? stringParams(value.params) : []));
}

function copyParams(params: StoredParam[]): StoredParam[] {
  return params.map((value) => (typeof value === 'object' ? { key: value.key, params: copyParams(value.params) } : value));
}

/** The stored form of a message, at most `maxLength` characters: the longest string param gives way (ending in "…"). */
export function storedMessage(key: string, params: StoredParam[] = [], maxLength = 255): string {
  const values = copyParams(params);
  let text = JSON.stringify({ key, params: values });
  while (text.length > maxLength) {
    let longest: { holder: StoredParam[]; index: number } | undefined;
    for (const place of stringParams(values)) {
      if (!longest || String(place.holder[place.index]).length > String(longest.holder[longest.index]).length) longest = place;
    }
    const value = longest ? String(longest.holder[longest.index]) : '';
    // Nothing left to shorten: the keys alone do not fit, a programming error.
    if (!longest || value.length <= 1) throw new Error(`Stored message "${key}" does not fit in ${maxLength} characters`);
    const keep = Math.max(0, value.length - (text.length - maxLength) - 1);
    longest.holder[longest.index] = `${value.slice(0, keep)}…`;
    text = JSON.stringify({ key, params: values });
  }
  return text;
}

function messageOf(value: unknown, depth: number): StoredMessage | undefined {
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== 'string') return undefined;
  const list = Array.isArray(params)
    ? params.flatMap((param): StoredParam[] => {
      if (typeof param === 'string' || typeof param === 'number') return [param];
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

function inWords(stored: StoredMessage, translate: ReturnType<Messages['translator']>, messages: Messages): string {
  // String params are names and reasons, not message keys: each goes in as a text of its own.
  const params: MessageParam[] = stored.params.map((param) =>
    typeof param === 'string' ? sameText(param) : typeof param === 'number' ? param : sameText(messages.known(param.key) ? inWords(param, translate, messages) : param.key));
  return translate(stored.key, params);
}

/** A stored text in `lang`: a stored message in words, any other text as it is. */
export function readStoredText(stored: unknown, lang: Language, messages: Messages): string {
  const text = typeof stored === 'string' ? stored : stored === null || stored === undefined ? '' : String(stored);
  const parsed = parseStored(text);
  if (!parsed || !messages.known(parsed.key)) return text;
  return inWords(parsed, messages.translator(lang), messages);
}
