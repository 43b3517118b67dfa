import { formatYuan, MONEY_PATTERN } from '../../../contract/money.js';
import { formatDateTime as formatWireDateTime } from '../../format/datetime.js';

/**
 * Dates as the back office prints them (docs/client.md#dates, `src/client/format/datetime.ts`): `YYYY-MM-DD HH:mm:ss`,
 * 10-digit numbers are seconds, an empty time prints as nothing (never "now").
 */
export function formatDateTime(value: unknown, dateOnly = false): string {
  if (value === 0 || value === '0') return '';
  return formatWireDateTime(value, dateOnly ? 'yyyy-mm-dd' : undefined);
}

/** A stored file URL as something `<img src>` can load: relative paths get the CDN (or API) prefix. */
export function fullUrl(url: unknown, cdnUrl = ''): string {
  if (typeof url !== 'string' || url === '') return '';
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) return url;
  if (!cdnUrl) return url;
  return `${cdnUrl.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/** A list value that may travel as an array or as a comma-separated string. */
export function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined && item !== '').map(String);
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter(Boolean);
  if (typeof value === 'number') return [String(value)];
  return [];
}

/**
 * Amounts travel as "12.50" (yuan); a person reads them as money: the currency sign, two decimals exactly
 * (`src/contract/money.ts`), a minus before the sign ("-¥7.50"). A value that is not an amount prints as it is.
 */
export function formatMoney(value: unknown): string {
  const yuan = formatYuan(value);
  if (!MONEY_PATTERN.test(yuan)) return yuan;
  return yuan.startsWith('-') ? `-¥${yuan.slice(1)}` : `¥${yuan}`;
}

/** File name shown for a stored URL: its last path segment. */
export function fileNameOf(url: string): string {
  const clean = url.split(/[?#]/)[0];
  return decodeURIComponent(clean.slice(clean.lastIndexOf('/') + 1)) || url;
}
