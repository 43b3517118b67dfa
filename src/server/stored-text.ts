import type { Language } from '../contract/headers.js';
import { sameText, type MessageParam } from '../schema/local-text.js';
import type { Messages } from './i18n.js';

/**
 * Texts the system writes into rows (ledger notes) are stored as a message key with its parameters,
 * and put into words when read, in the reader's language:
 *
 *   {"key":"Survey reward: %s","params":["#12 Brand study"]}
 *
 * The key is a server message (English text, translated by `locales/<lang>/server/*.json`); params are
 * numbers, or strings shown as they are (a survey's title, an administrator's reason: never looked up
 * as keys). A stored value that is not this form, or whose key no message pack knows, is shown as
 * stored: notes written before this form, and those administrators type themselves.
 */

interface StoredMessage {
  key: string;
  params: (string | number)[];
}

const MARK = '{"key":';

/** The stored form of a message, at most `maxLength` characters: the longest string param gives way (ending in "…"). */
export function storedMessage(key: string, params: (string | number)[] = [], maxLength = 255): string {
  const values = [...params];
  let text = JSON.stringify({ key, params: values });
  while (text.length > maxLength) {
    let longest = -1;
    values.forEach((value, index) => {
      if (typeof value === 'string' && (longest < 0 || value.length > String(values[longest]).length)) longest = index;
    });
    const value = longest < 0 ? '' : String(values[longest]);
    // Nothing left to shorten: the key alone does not fit, a programming error.
    if (value.length <= 1) throw new Error(`Stored message "${key}" does not fit in ${maxLength} characters`);
    const keep = Math.max(0, value.length - (text.length - maxLength) - 1);
    values[longest] = `${value.slice(0, keep)}…`;
    text = JSON.stringify({ key, params: values });
  }
  return text;
}

/** The message a stored value holds, or undefined for plain text. */
function parseStoredMessage(stored: string, messages: Messages): StoredMessage | undefined {
  if (!stored.startsWith(MARK)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { key, params } = parsed as { key?: unknown; params?: unknown };
  if (typeof key !== 'string' || !messages.known(key)) return undefined;
  const list = Array.isArray(params) ? params.filter((param): param is string | number => typeof param === 'string' || typeof param === 'number') : [];
  return { key, params: list };
}

/** A stored text in `lang`: a stored message in words, any other text as it is. */
export function readStoredText(stored: unknown, lang: Language, messages: Messages): string {
  const text = typeof stored === 'string' ? stored : stored === null || stored === undefined ? '' : String(stored);
  const message = parseStoredMessage(text, messages);
  if (!message) return text;
  // String params are names and reasons, not message keys: each goes in as a text of its own.
  const params: MessageParam[] = message.params.map((param) => (typeof param === 'string' ? sameText(param) : param));
  return messages.translator(lang)(message.key, params);
}
