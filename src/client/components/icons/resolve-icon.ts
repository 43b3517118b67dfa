import { drawFromSet } from '../../../contract/icons.js';
import { iconNameOf, parseIconName, type IconFamily, type IconRef } from './icon-name.js';
import type { IconSets } from './icon-sets.js';
import { onSpritesChanged, spriteIcon } from './icon-sprites.js';
import { LOCAL_ICONS } from './local-icons.js';

/** An icon ready to draw: an SVG body (trusted package data) in its view box. */
export interface DrawnIcon {
  family: IconFamily;
  key: string;
  viewBox: string;
  body: string;
}

function has(record: Record<string, unknown> | undefined, key: string): boolean {
  return !!record && Object.prototype.hasOwnProperty.call(record, key);
}

/** Where a name's drawing comes from: a drawing of our own (a local icon), or an icon of one of the sets. */
type IconSource = { own: DrawnIcon } | { family: 'fa' | 'ep'; key: string; as: IconRef };

function sourceOf(ref: IconRef): IconSource | undefined {
  if (ref.family !== 'local') return { family: ref.family, key: ref.key, as: ref };
  if (!has(LOCAL_ICONS, ref.key)) return undefined;
  const local = LOCAL_ICONS[ref.key];
  if ('drawnBy' in local) {
    const drawnBy = sourceOf(local.drawnBy);
    return drawnBy && 'family' in drawnBy ? { ...drawnBy, as: ref } : drawnBy;
  }
  return { own: { family: 'local', key: ref.key, viewBox: local.viewBox, body: local.body } };
}

function drawRef(ref: IconRef, sets: IconSets): DrawnIcon | undefined {
  const source = sourceOf(ref);
  if (!source) return undefined;
  if ('own' in source) return source.own;
  const drawn = drawFromSet(sets[source.family], source.family, source.key);
  return drawn && { family: source.as.family, key: source.as.family === 'local' ? source.as.key : drawn.key, viewBox: drawn.viewBox, body: drawn.body };
}

const warned = new Set<string>();

/**
 * The icon a BuildAdmin name draws, or null for an empty name or one no set knows; an unknown name is
 * reported once on the console, so a typo in a rule or schema is found, and gets a neutral icon.
 */
export function resolveIcon(name: string | null | undefined, sets: IconSets): DrawnIcon | null {
  const ref = parseIconName(name);
  if (!ref) return null;
  const drawn = drawRef(ref, sets);
  if (!drawn && name) warnUnknown(name);
  return drawn ?? null;
}

function warnUnknown(name: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(`Unknown icon name "${name}": drawn as a neutral icon (use fa fa-*, el-icon-* or local-*)`);
}

/**
 * The icon a BuildAdmin name draws from the icons the server sends per screen (icon-sprites.ts):
 * undefined while they load, null for an empty name or one no set knows (reported once, as above).
 */
export function resolveSpriteIcon(name: string | null | undefined): DrawnIcon | null | undefined {
  const ref = parseIconName(name);
  if (!ref) return null;
  const source = sourceOf(ref);
  if (source && 'own' in source) return source.own;
  const drawing = source && spriteIcon(source.family, source.key);
  if (drawing === undefined && source) return undefined;
  if (!drawing) {
    if (name) warnUnknown(name);
    return null;
  }
  return { family: ref.family, key: ref.key, viewBox: drawing.viewBox, body: drawing.body };
}

/**
 * Fetches the drawings of these icons now (those not known yet, in one request per family) and
 * resolves once none is still loading: a screen drawn afterwards draws them at once instead of
 * drawing again when they arrive.
 */
export function preloadIcons(names: readonly string[]): Promise<void> {
  const loading = () => names.filter((name) => resolveSpriteIcon(name) === undefined);
  if (loading().length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = onSpritesChanged(() => {
      if (loading().length > 0) return;
      stop();
      resolve();
    });
  });
}

/** Every name a picker offers, per family, as BuildAdmin stores them (`fa fa-cube`, `el-icon-UserFilled`, `local-logo`). */
export function iconNames(sets: IconSets): Record<IconFamily, string[]> {
  const names = (family: 'fa' | 'ep') => {
    const set = sets[family];
    const keys = [...Object.keys(set.icons), ...Object.keys(set.aliases ?? {})].filter((key) => !set.icons[key]?.hidden);
    return keys.sort().map((key) => iconNameOf({ family, key }));
  };
  return {
    fa: names('fa'),
    ep: names('ep'),
    local: Object.keys(LOCAL_ICONS).map((key) => iconNameOf({ family: 'local', key })),
  };
}
