/**
 * Dates as the back office shows them (spec §9): `yyyy-mm-dd hh:MM:ss` by default, where `yyyy` year,
 * `mm` month, `dd` day, `hh` hours (24 h), `MM` minutes, `ss` seconds, all zero-padded.
 *
 * Numbers (and digit strings) of 10 digits or fewer are Unix seconds, longer ones milliseconds; other
 * strings are parsed as dates (`2024-06-01 10:00:00` is read as local time) and returned unchanged when
 * they are not dates. Unlike the original, an empty value is shown as empty, never as "now".
 */
export const DEFAULT_DATETIME_FORMAT = 'yyyy-mm-dd hh:MM:ss';

export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return fromNumber(Number(text));
  // `YYYY-MM-DD HH:mm:ss` (optionally without seconds or time) is local time, as the server formats it.
  const local = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = local;
    return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  }
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

function fromNumber(value: number): Date | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const millis = String(Math.trunc(value)).length <= 10 ? value * 1000 : value;
  return new Date(millis);
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

export function formatDateTime(value: unknown, format: string = DEFAULT_DATETIME_FORMAT): string {
  const date = toDate(value);
  if (!date) return typeof value === 'string' ? value : '';
  const parts: Record<string, string> = {
    yyyy: pad(date.getFullYear(), 4),
    mm: pad(date.getMonth() + 1),
    dd: pad(date.getDate()),
    hh: pad(date.getHours()),
    MM: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return format.replace(/yyyy|mm|dd|hh|MM|ss/g, (token) => parts[token]);
}
