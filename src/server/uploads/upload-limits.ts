import { formatLocalDateTime, parseLocalDateTime } from '../../contract/site-time.js';
import type { AppContext } from '../app-context.js';
import { throttleAccount } from '../auth/attempts.js';
import type { Area } from '../auth/identity.js';
import { nowSeconds } from '../clock.js';
import { errors } from '../errors.js';

/**
 * How much one member may upload: `UPLOAD_RATE_LIMIT` uploads a minute (every attempt counts, stored or
 * not) and `UPLOAD_DAILY_QUOTA` bytes of new files a day of the site's calendar (its time zone), counted
 * from the attachment rows the member's uploads created that day; a file already stored adds nothing.
 * Both are counted in the database, so every server process agrees. Uploads sent together may each
 * pass the quota before the others are written, so a day can end at most one minute's uploads past it.
 * The back office's uploads are not limited.
 */

interface Uploader {
  area: Area;
  id: number;
}

/** `209715200` → `200 MB`: the unit that keeps the figure at or above 1, one decimal at most. */
function sizeText(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
}

/** The site's day around `now`: when it began and when the next begins (Unix seconds), and the next's date. */
async function siteDay(app: AppContext, now: number): Promise<{ start: number; next: number; nextText: string }> {
  const zone = await app.config.timeZone();
  const today = formatLocalDateTime(now, zone).slice(0, 10);
  const [year, month, day] = today.split('-').map(Number);
  const tomorrow = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  const start = parseLocalDateTime(today, zone) ?? now - 86_400;
  const next = parseLocalDateTime(tomorrow, zone) ?? now + 86_400;
  return { start, next, nextText: formatLocalDateTime(next, zone).slice(0, 16) };
}

/**
 * Before a member's upload is read: within the throttle (this attempt counted), and some of the day's
 * quota left.
 */
export async function admitUpload(app: AppContext, uploader: Uploader, ip: string): Promise<void> {
  if (uploader.area !== 'user') return;
  const perMinute = app.settings.uploadRateLimit;
  await throttleAccount(app, 'upload', String(uploader.id), ip, perMinute, (seconds) => errors.uploadRateLimited(perMinute, seconds));
  await ensureQuota(app, uploader, 0);
}

/** A new file of `size` bytes fits in what is left of the member's quota today (nothing left refuses any). */
export async function ensureQuota(app: AppContext, uploader: Uploader, size: number): Promise<void> {
  const quota = app.settings.uploadDailyQuota;
  if (uploader.area !== 'user' || quota <= 0) return;
  const now = nowSeconds();
  const day = await siteDay(app, now);
  const row = await app.db
    .selectFrom('attachment')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('used'))
    .where('user_id', '=', uploader.id)
    .where('create_time', '>=', day.start)
    .executeTakeFirstOrThrow();
  const used = Number(row.used ?? 0);
  if (used >= quota || used + size > quota) throw errors.uploadQuotaReached(sizeText(quota), sizeText(used), day.nextText);
}
