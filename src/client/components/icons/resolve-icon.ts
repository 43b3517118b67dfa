import type { IconifyJSON } from '@iconify/types';
import { getIconData } from '@iconify/utils/lib/icon-set/get-icon';
import { iconToSVG } from '@iconify/utils/lib/svg/build';
import { iconNameOf, parseIconName, type IconFamily, type IconRef } from './icon-name.js';
import type { IconSets } from './icon-sets.js';
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

function fromSet(set: IconifyJSON, family: IconFamily, wanted: string): DrawnIcon | undefined {
  const key = has(set.icons, wanted) || has(set.aliases, wanted) ? wanted : family === 'ep' ? looseKeyOf(set, wanted) : undefined;
  if (!key) return undefined;
  const data = getIconData(set, key);
  if (!data) return undefined;
  const svg = iconToSVG(data);
  return { family, key, viewBox: svg.attributes.viewBox, body: svg.body };
}

function drawRef(ref: IconRef, sets: IconSets): DrawnIcon | undefined {
  if (ref.family === 'local') {
    if (!has(LOCAL_ICONS, ref.key)) return undefined;
    const local = LOCAL_ICONS[ref.key];
    if ('drawnBy' in local) {
      const drawn = drawRef(local.drawnBy, sets);
      return drawn && { ...drawn, family: 'local', key: ref.key };
    }
    return { family: 'local', key: ref.key, viewBox: local.viewBox, body: local.body };
  }
  return fromSet(sets[ref.family], ref.family, ref.key);
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
  if (!drawn && name && !warned.has(name)) {
    warned.add(name);
    console.warn(`Unknown icon name "${name}": drawn as a neutral icon (use fa fa-*, el-icon-* or local-*)`);
  }
  return drawn ?? null;
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
