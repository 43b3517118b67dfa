import type { IconifyJSON } from '@iconify/types';
import { getIconData } from '@iconify/utils/lib/icon-set/get-icon';
import { iconToSVG } from '@iconify/utils/lib/svg/build';

/**
 * The icons of menus, fields and pickers are served one request per screen, holding only the icons it
 * draws: `GET /icons/<family>.json?names=cube,user&v=<sets' version>` answers, per name asked, the icon
 * ready to draw (`{viewBox, body}`) or null for a name the set does not know. The address changes with
 * the icon packages' versions, so an answer is cached for good.
 *
 * Families are the Iconify sets BuildAdmin's names point into: `fa` (Font Awesome 4.7, with its
 * aliases such as `gear`) and `ep` (Element Plus, kebab-case).
 */
export const ICON_SET_FAMILIES = ['fa', 'ep'] as const;
export type IconSetFamily = (typeof ICON_SET_FAMILIES)[number];

export const ICONS_URL_PREFIX = '/icons/';

/** An icon's name inside its set: what Iconify names use. */
export const ICON_KEY = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** At most this many icons per request (a screen draws a few dozen; a picker page a hundred). */
export const MAX_ICONS_PER_REQUEST = 200;

/** An icon ready to draw: an SVG body (trusted package data) in its view box. */
export interface IconDrawing {
  viewBox: string;
  body: string;
}

export type IconSprite = Record<string, IconDrawing | null>;

/** The address of the icons of one family a screen draws (names sorted, so equal screens share one cached answer). */
export function iconSpriteUrl(family: IconSetFamily, keys: Iterable<string>, version: string): string {
  const names = [...new Set(keys)].sort().join(',');
  return `${ICONS_URL_PREFIX}${family}.json?names=${encodeURIComponent(names)}&v=${encodeURIComponent(version)}`;
}

function has(record: Record<string, unknown> | undefined, key: string): boolean {
  return !!record && Object.prototype.hasOwnProperty.call(record, key);
}

/** Element Plus names compared without case or dashes, so `el-icon-Iphone` and `el-icon-IPhone` both find `iphone`. */
const looseKeys = new WeakMap<IconifyJSON, Map<string, string>>();
function looseKeyOf(set: IconifyJSON, key: string): string | undefined {
  let keys = looseKeys.get(set);
  if (!keys) {
    keys = new Map(Object.keys(set.icons).map((name) => [name.replace(/-/g, ''), name]));
    looseKeys.set(set, keys);
  }
  return keys.get(key.replace(/-/g, '').toLowerCase());
}

/** An icon of a set by its name (an alias too; Element Plus names loosely), or undefined when the set has none of that name. */
export function drawFromSet(set: IconifyJSON, family: IconSetFamily, wanted: string): (IconDrawing & { key: string }) | undefined {
  const key = has(set.icons, wanted) || has(set.aliases, wanted) ? wanted : family === 'ep' ? looseKeyOf(set, wanted) : undefined;
  if (!key) return undefined;
  const data = getIconData(set, key);
  if (!data) return undefined;
  const svg = iconToSVG(data);
  return { key, viewBox: svg.attributes.viewBox, body: svg.body };
}
