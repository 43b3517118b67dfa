/**
 * Time on the wire and on every screen follows one rule: instants are stored as Unix seconds and read
 * as wall-clock time in the site's time zone (config `time_zone`), `YYYY-MM-DD HH:mm:ss`. The server
 * and both clients use these functions, so a date reads the same in a list, a log and the member centre
 * whatever the zone of the machine or the browser.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (making one costs far more than using it); an unknown zone reads as UTC. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    let zone = timeZone;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      zone = 'UTC';
    }
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(utcMs / 1000) * 1000;
}

/** The time zone the browser or the machine runs in. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * `"2024-01-31 08:00:00"` (or a date alone, or `T` between date and time) in the time zone → Unix
 * seconds; undefined when the text is not such a date. Mirrors PHP's strtotime for the formats sent.
 */
export function parseLocalDateTime(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(asUtc)) return undefined;
  const offset = zoneOffsetMs(asUtc, timeZone);
  // A second pass settles the offset across a DST change.
  const seconds = Math.floor((asUtc - zoneOffsetMs(asUtc - offset, timeZone)) / 1000);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** The wall clock of an instant (Unix seconds) in the time zone, each part zero-padded. */
interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

export function wallClockOf(seconds: number, timeZone: string): WallClock {
  const date = new Date(seconds * 1000 + zoneOffsetMs(seconds * 1000, timeZone));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return {
    year: pad(date.getUTCFullYear(), 4),
    month: pad(date.getUTCMonth() + 1),
    day: pad(date.getUTCDate()),
    hour: pad(date.getUTCHours()),
    minute: pad(date.getUTCMinutes()),
    second: pad(date.getUTCSeconds()),
  };
}

/** Unix seconds → `YYYY-MM-DD HH:mm:ss` in the time zone; '' for empty values. */
export function formatLocalDateTime(seconds: unknown, timeZone: string): string {
  const value = Number(seconds);
  if (!seconds || !Number.isFinite(value)) return '';
  const clock = wallClockOf(value, timeZone);
  return `${clock.year}-${clock.month}-${clock.day} ${clock.hour}:${clock.minute}:${clock.second}`;
}
