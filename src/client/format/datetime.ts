import { localTimeZone, parseLocalDateTime, wallClockOf } from '../../contract/site-time.js';

/**
 * Dates as the back office and the member centre show them (docs/client.md#dates): `yyyy-mm-dd hh:MM:ss` by default,
 * where `yyyy` year, `mm` month, `dd` day, `hh` hours (24 h), `MM` minutes, `ss` seconds, zero-padded,
 * on the wall clock of the site's time zone (config `time_zone`, sent with the bootstrap), never the
 * browser's: the server formats and parses in the same zone (`contract/site-time.ts`).
 *
 * Numbers (and digit strings) of 10 digits or fewer are Unix seconds, longer ones milliseconds; other
 * strings are parsed as dates (`2024-06-01 10:00:00` is wall-clock time in the site's zone) and returned
 * unchanged when they are not dates. Unlike the original, an empty value is shown as empty, never as "now".
 */
const DEFAULT_DATETIME_FORMAT = 'yyyy-mm-dd hh:MM:ss';

let siteTimeZone: string | undefined;

/** Set from the bootstrap (`siteConfig.timeZone`, member `site.timeZone`); until then, the browser's zone. */
export function setSiteTimeZone(timeZone: string | undefined): void {
  siteTimeZone = timeZone || undefined;
}

export function siteTimeZoneKnown(): boolean {
  return siteTimeZone !== undefined;
}

function siteZone(): string {
  return siteTimeZone ?? localTimeZone();
}

/**
 * Has the browser load its time-zone data now, while nothing waits on it: the first date formatter a
 * page makes costs about 30 ms (the data is read then), every later one under a millisecond. Called
 * while the person types their password, so the first list of dates does not pay for it.
 */
export function prepareDateFormatting(): void {
  wallClockOf(0, siteZone());
}

export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return fromNumber(Number(text));
  const seconds = parseLocalDateTime(text, siteZone());
  if (seconds !== undefined) return new Date(seconds * 1000);
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

function fromNumber(value: number): Date | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const millis = String(Math.trunc(value)).length <= 10 ? value * 1000 : value;
  return new Date(millis);
}

export function formatDateTime(value: unknown, format: string = DEFAULT_DATETIME_FORMAT): string {
  const date = toDate(value);
  if (!date) return typeof value === 'string' ? value : '';
  const clock = wallClockOf(Math.floor(date.getTime() / 1000), siteZone());
  const parts: Record<string, string> = { yyyy: clock.year, mm: clock.month, dd: clock.day, hh: clock.hour, MM: clock.minute, ss: clock.second };
  return format.replace(/yyyy|mm|dd|hh|MM|ss/g, (token) => parts[token]);
}
