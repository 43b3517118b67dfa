import { sameText } from '../../../schema/local-text.js';
import { errors } from '../../errors.js';

/**
 * The ids a reconciliation lists (docs/survey-domain.md#reconciliation), read from what the administrator
 * pasted or from the text of the provider's file. Each id is one of our rids or one of the provider's
 * transaction ids; which, the matching decides later.
 */

/** The longest id accepted: a provider's transaction id has at most 100 characters (a rid 32). */
const RECONCILE_ID_MAX_LENGTH = 100;

/** The header names of the id column, the first found wins (compared lower-case, spaces and dashes as `_`). */
const ID_COLUMNS = ['rid', 'id', 'transaction_id', 'transid', 'respondent_id'];

export interface ListedIds {
  ids: string[];
  /** the header of the column the ids were taken from, '' when there was no header row */
  column: string;
}

/** Each id once, in the order first listed; blanks dropped. */
function distinct(values: string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))];
}

/** Pasted ids: a list, or text with one id a line, or separated by commas, semicolons or spaces. */
export function idsFromPaste(input: unknown): ListedIds {
  const items = Array.isArray(input) ? input.map(String) : typeof input === 'string' ? input.split(/[\s,;]+/) : [];
  return { ids: distinct(items), column: '' };
}

/** The separator of a file's fields: the one of `,` `;` and tab its first line uses most (outside quotes), else `,`. */
function separatorOf(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [separator, count] of counts) if (count > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/**
 * The records of a CSV text (RFC 4180): fields split by `separator`, a field in double quotes may hold
 * the separator, line breaks and `""` for a quote; lines end in LF, CRLF or CR. A quote left open is an
 * error naming the line it opened on.
 */
function csvRecords(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let quotedFrom = 0;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const char = text[i];
    if (quotedFrom > 0) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quotedFrom = 0;
      else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line += 1;
        field += char;
      }
      i += 1;
      continue;
    }
    if (char === '"' && field.trim() === '') {
      field = '';
      quotedFrom = line;
    } else if (char === separator) {
      endField();
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
    } else {
      field += char;
    }
    i += 1;
  }
  if (quotedFrom > 0) throw errors.reconcileFileQuoteOpen(quotedFrom);
  if (field !== '' || record.length > 0) endRecord();
  return records.filter((fields) => fields.some((value) => value.trim() !== ''));
}

function headerKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * The ids of a provider's file (its text, as the browser read it): one id a line, or a CSV whose header
 * row names the id column: `rid`, `id`, `transaction_id`, `transid` or `respondent_id` (any case),
 * else the first column. A file of one column has a header only when that is one of those names.
 */
export function idsFromFile(input: string): ListedIds {
  const text = input.replace(/^\uFEFF/, '');
  const records = csvRecords(text, separatorOf(text));
  if (records.length === 0) return { ids: [], column: '' };
  const header = records[0].map(headerKey);
  const named = ID_COLUMNS.map((name) => header.indexOf(name)).find((index) => index >= 0);
  if (header.length === 1 && named === undefined) return { ids: distinct(records.map((fields) => fields[0])), column: '' };
  const index = named ?? 0;
  return { ids: distinct(records.slice(1).map((fields) => fields[index] ?? '')), column: records[0][index].trim() };
}

/** Refuses a list that is empty, longer than `limit`, or holds a value too long to be an id. */
export function checkListedIds(listed: ListedIds, limit: number): void {
  if (listed.ids.length === 0) throw errors.reconcileListEmpty(limit);
  if (listed.ids.length > limit) throw errors.reconcileListTooLong(listed.ids.length, limit);
  const long = listed.ids.find((id) => id.length > RECONCILE_ID_MAX_LENGTH);
  if (long) throw errors.reconcileIdTooLong(sameText(`${long.slice(0, 40)}…`), RECONCILE_ID_MAX_LENGTH);
}
