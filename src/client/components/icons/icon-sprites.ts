import { useSyncExternalStore } from 'react';
import { ICON_KEY, iconSpriteUrl, MAX_ICONS_PER_REQUEST, type IconDrawing, type IconSetFamily, type IconSprite } from '../../../contract/icons.js';

/**
 * The drawings of the icons on screen, fetched from the server per family in one request for all the
 * icons one render asks for (`/icons/<family>.json?names=…`), instead of the whole sets: a menu of
 * thirty icons costs a few kilobytes. Known drawings (and names the server does not know) are kept for
 * the page's lifetime; components redraw when an answer arrives.
 */

/** The icon packages' versions, set by the build (vite.config.ts): part of the address, so answers are cached for good. */
const SETS_VERSION = typeof __ICON_SETS_VERSION__ === 'string' ? __ICON_SETS_VERSION__ : 'dev';

const drawings = new Map<string, IconDrawing | null>();
/** Names asked for and not answered yet (to be sent, or on their way). */
const pending = new Set<string>();
const wanted = new Map<IconSetFamily, Set<string>>();
const listeners = new Set<() => void>();
let revision = 0;
let scheduled = false;

const idOf = (family: IconSetFamily, key: string) => `${family}:${key}`;

function changed(): void {
  revision++;
  for (const listener of listeners) listener();
}

async function fetchSprite(family: IconSetFamily, keys: string[]): Promise<void> {
  let sprite: IconSprite = {};
  try {
    const response = await fetch(iconSpriteUrl(family, keys, SETS_VERSION));
    if (response.ok) sprite = (await response.json()) as IconSprite;
    else console.warn(`Icons could not be loaded (HTTP ${response.status})`);
  } catch (error) {
    console.warn('Icons could not be loaded', error);
  }
  for (const key of keys) {
    drawings.set(idOf(family, key), sprite[key] ?? null);
    pending.delete(idOf(family, key));
  }
  changed();
}

function flush(): void {
  scheduled = false;
  for (const [family, keys] of wanted) {
    const all = [...keys].sort();
    for (let start = 0; start < all.length; start += MAX_ICONS_PER_REQUEST) void fetchSprite(family, all.slice(start, start + MAX_ICONS_PER_REQUEST));
  }
  wanted.clear();
}

/**
 * An icon's drawing: the drawing, null when the set has no such icon, undefined while it loads (the
 * request is then on its way, shared with every icon asked for in the same moment).
 */
export function spriteIcon(family: IconSetFamily, key: string): IconDrawing | null | undefined {
  const id = idOf(family, key);
  if (drawings.has(id)) return drawings.get(id);
  if (!ICON_KEY.test(key)) return null;
  if (pending.has(id)) return undefined;
  pending.add(id);
  let keys = wanted.get(family);
  if (!keys) wanted.set(family, (keys = new Set()));
  keys.add(key);
  if (!scheduled) {
    scheduled = true;
    setTimeout(flush, 0);
  }
  return undefined;
}

/** Calls `listener` whenever drawings arrive; returns the unsubscribe. */
export function onSpritesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A number that changes whenever drawings arrive: components drawing icons subscribe to it. */
export function useSpriteRevision(): number {
  return useSyncExternalStore(
    onSpritesChanged,
    () => revision,
    () => revision,
  );
}
