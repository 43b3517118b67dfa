import { formatDateTime } from './datetime.js';

/** `previousLogin` of both bootstraps (docs/wire-contract.md#previous-login): the successful login before this one. */
export interface PreviousLogin {
  /** Unix seconds; `null` when this is the account's first login */
  time: number | null;
  /** the client address it came from */
  ip: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * "Last login" as the dashboard, the admin's profile and the member overview show it: the previous login's time on the site's
 * clock and its address (`<area>.lastLoginAt`), or `<area>.firstLogin` when there was none; `-` from a
 * server that does not answer it.
 */
export function previousLoginText(translate: Translate, area: 'dashboard' | 'profile' | 'memberHome', previous: PreviousLogin | undefined): string {
  if (!previous) return '-';
  const time = formatDateTime(previous.time);
  if (!time) return translate(`${area}.firstLogin`);
  return previous.ip ? translate(`${area}.lastLoginAt`, { time, ip: previous.ip }) : time;
}
