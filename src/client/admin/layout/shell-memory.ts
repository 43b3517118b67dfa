import type { PageTab } from './tabs.js';

/**
 * What the shell holds only in memory (the open tabs, the unfolded menu directories), carried over
 * the reload a language switch makes: written just before it into this browser tab's session
 * storage, read back by the tabs and the menu as they mount, and forgotten once that mount is committed
 * (`forgetRememberedShell`): a first render React throws away (a page's code still loading) reads the
 * same values again. Any other reload starts afresh.
 */

const TABS_KEY = 'adminShell.tabs';
const MENUS_KEY = 'adminShell.openMenus';

type RememberedTab = Pick<PageTab, 'key' | 'to'>;

const live: { tabs: RememberedTab[]; menus: string[] } = { tabs: [], menus: [] };

export function noteTabs(tabs: readonly PageTab[]): void {
  live.tabs = tabs.map(({ key, to }) => ({ key, to }));
}

export function noteOpenMenus(keys: Iterable<string>): void {
  live.menus = [...keys];
}

function session(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reload the page (to take a new language) with the tabs and the menu as they are now. */
export function reloadKeepingShell(reload: () => void = () => window.location.reload()): void {
  session()?.setItem(TABS_KEY, JSON.stringify(live.tabs));
  session()?.setItem(MENUS_KEY, JSON.stringify(live.menus));
  reload();
}

function read(key: string): unknown[] {
  const stored = session()?.getItem(key);
  if (!stored) return [];
  try {
    const value = JSON.parse(stored) as unknown;
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The tabs open before the reload. */
export function rememberedTabs(): RememberedTab[] {
  return read(TABS_KEY).filter((tab): tab is RememberedTab => typeof (tab as RememberedTab)?.key === 'string' && typeof (tab as RememberedTab)?.to === 'string');
}

/** The menu directories unfolded before the reload. */
export function rememberedMenus(): string[] {
  return read(MENUS_KEY).filter((key): key is string => typeof key === 'string');
}

/** Called from an effect once the shell has mounted with what was remembered: later mounts start afresh. */
export function forgetRememberedShell(): void {
  session()?.removeItem(TABS_KEY);
  session()?.removeItem(MENUS_KEY);
}
