/**
 * `"2024-01-31 08:00:00"` (or a date alone) in the site's time zone → Unix seconds; undefined when the
 * text is not such a date. Mirrors PHP's strtotime for the formats the client sends.
 */
export function parseLocalDateTime(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(asUtc)) return undefined;
  const offset = zoneOffsetMs(asUtc, timeZone);
  // A second pass settles the offset across a DST change.
  const seconds = Math.floor((asUtc - zoneOffsetMs(asUtc - offset, timeZone)) / 1000);
  return Number.isFinite(seconds) ? seconds : undefined;
}

function zoneOffsetMs(utcMs: number, timeZone: string): number {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(utcMs / 1000) * 1000;
}

/** Unix seconds → `YYYY-MM-DD HH:mm:ss` in the time zone; '' for empty values. */
export function formatLocalDateTime(seconds: unknown, timeZone: string): string {
  const value = Number(seconds);
  if (!seconds || !Number.isFinite(value)) return '';
  const offset = zoneOffsetMs(value * 1000, timeZone);
  const date = new Date(value * 1000 + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}
