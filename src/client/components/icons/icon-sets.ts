import type { IconifyJSON } from '@iconify/types';
import { useEffect, useState } from 'react';

/**
 * The icon sets BuildAdmin names refer to, as Iconify data from maintained packages:
 * `@iconify-json/fa` is Font Awesome 4.7 with its own names and aliases (`pencil-square-o`, `gear`),
 * `@iconify-json/ep` is Element Plus. Together they weigh about 170 KB gzip, so only the icon picker,
 * which lists every name, imports them (their own chunk); screens draw the icons the server sends
 * them one by one (icon-sprites.ts).
 */
export interface IconSets {
  fa: IconifyJSON;
  ep: IconifyJSON;
}

let loaded: IconSets | undefined;
let pending: Promise<IconSets> | undefined;

export function loadIconSets(): Promise<IconSets> {
  pending ??= Promise.all([import('@iconify-json/fa/icons.json'), import('@iconify-json/ep/icons.json')]).then(([fa, ep]) => {
    loaded = { fa: fa.default, ep: ep.default };
    return loaded;
  });
  return pending;
}

/** The icon sets if a picker has loaded them, without loading them. */
export function loadedIconSets(): IconSets | undefined {
  return loaded;
}

/** The icon sets, loading them on first use; undefined until they arrive. */
export function useIconSets(): IconSets | undefined {
  const [sets, setSets] = useState<IconSets | undefined>(loaded);
  useEffect(() => {
    if (sets) return;
    let live = true;
    loadIconSets().then(
      (value) => live && setSets(value),
      (error: unknown) => console.warn('Icon sets could not be loaded', error),
    );
    return () => {
      live = false;
    };
  }, [sets]);
  return sets;
}
