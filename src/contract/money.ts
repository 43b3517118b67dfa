/**
 * Money, exactly (docs/survey-domain.md#ledgers): an amount travels and is typed as yuan text with at most
 * two decimals ("12.50"), and is stored, summed and compared as whole cents. Every parse and print of an
 * amount, on the server and in both clients, is one of these; so is every parse and print of a rate in
 * basis points (below).
 */

/**
 * Yuan as a form or the wire carries them: "12.50", "-3", "0.5". At most 13 whole digits, so that the
 * cents stay integers a JavaScript number holds exactly; the schemas' `money` format is this pattern.
 */
export const MONEY_PATTERN = /^-?\d{1,13}(\.\d{1,2})?$/;

/** "12.5" / 12.5 → 1250 cents. The input was checked against `MONEY_PATTERN` already (a number is read to the cent). */
export function yuanToCents(value: unknown): number {
  const text = typeof value === 'number' ? value.toFixed(2) : String(value ?? '0').trim() || '0';
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const cents = Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

/**
 * Yuan typed by a person or sent by a client → cents, or undefined when the text is no amount. A JSON
 * number is read as written (12.345 stays 12.345 and is refused), never rounded to cents.
 */
export function parseYuan(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return MONEY_PATTERN.test(text) ? yuanToCents(text) : undefined;
}

/** 1250 → "12.50"; -300 → "-3.00" */
export function centsToYuan(cents: unknown): string {
  const value = Number(cents ?? 0);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A change of money in cents as the back office reads it: `+¥1.40`, `-¥1.50`, `¥0.00`. */
export function signedYuan(cents: number): string {
  const sign = cents > 0 ? '+' : cents < 0 ? '-' : '';
  return `${sign}¥${centsToYuan(Math.abs(cents))}`;
}

/** An amount as the wire carries it ("12.5", 12.5) printed with two decimals; a value that is no amount, as it is. */
export function formatYuan(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? centsToYuan(yuanToCents(value)) : String(value);
  const text = String(value).trim();
  return MONEY_PATTERN.test(text) ? centsToYuan(yuanToCents(text)) : String(value);
}

/*
 * Percentages, exactly: a rate (a team's commission) is stored and travels as a whole number of basis
 * points, hundredths of a percent (1500 is 15 %, 1550 is 15.5 %); a person reads and types it as a
 * percentage with at most two decimals. The schemas' `percent` format is such an integer.
 */

/** A percentage as a person types it: "15", "15.5", "0.25" (no sign, at most two decimals, at most 13 whole digits). */
const PERCENT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** "15.5" → 1550 basis points, read digit by digit (no floating point); undefined when the text is no percentage. */
export function parsePercent(value: unknown): number | undefined {
  const text = typeof value === 'string' ? value.trim().replace(/\s*%$/, '') : '';
  if (!PERCENT_PATTERN.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
}

/** 1550 → "15.5", 1500 → "15", 25 → "0.25": the percentage a form shows for basis points (a negative rate keeps its sign). */
export function basisPointsToPercent(basisPoints: number): string {
  const sign = basisPoints < 0 ? '-' : '';
  const hundredths = Math.abs(basisPoints);
  const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
  return `${sign}${Math.floor(hundredths / 100)}${fraction ? `.${fraction}` : ''}`;
}

/** Basis points as a person reads them: "15%", "5.5%", "0.25%"; a value that is no whole number prints as it is. */
export function formatPercent(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const basisPoints = typeof value === 'number' ? value : /^-?\d+$/.test(String(value).trim()) ? Number(String(value).trim()) : Number.NaN;
  return Number.isSafeInteger(basisPoints) ? `${basisPointsToPercent(basisPoints)}%` : String(value);
}
