import { useSyncExternalStore } from 'react';
import { readStoreConfig, writeStoreConfig } from '../i18n/store-config.js';
import { normaliseLayout, withLayoutMode, type LayoutConfig, type LayoutMode } from './layout-config.js';

/**
 * The layout preferences as a tiny external store, persisted in `storeConfig_v2.layout`, so the theme
 * (chosen above `<Admin>`) and the shell components read and change the same values.
 */
type Listener = () => void;
const listeners = new Set<Listener>();
let current: LayoutConfig = normaliseLayout(readStoreConfig().layout);

function getLayout(): LayoutConfig {
  return current;
}

export function setLayout(patch: Partial<LayoutConfig> | ((config: LayoutConfig) => LayoutConfig)): void {
  current = typeof patch === 'function' ? patch(current) : { ...current, ...patch };
  writeStoreConfig({ layout: current as unknown as Record<string, unknown> });
  for (const listener of listeners) listener();
}

export function setLayoutMode(mode: LayoutMode): void {
  setLayout((config) => withLayoutMode(config, mode));
}

/** Re-read the stored preferences (tests, or another tab having changed them). */
export function reloadLayout(): void {
  current = normaliseLayout(readStoreConfig().layout);
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLayout(): LayoutConfig {
  return useSyncExternalStore(subscribe, getLayout, getLayout);
}
