import type { PageTab } from './tabs.js';

/**
 * What the shell keeps across a reload of the page, in this browser tab's session storage:
 *
 * - the open tabs, in their order, per admin (`adminShell.tabs.<admin id>`): written whenever they
 *   change, read back as the tabs mount, so any reload (F5, a language switch) reopens them; another
 *   admin signing in to the same browser tab gets their own. The page shown comes from the address, so
 *   the tab that was active is active again. Tabs whose page is gone from the admin's menus are dropped
 *   by the tabs themselves (`use-page-tabs.ts`).
 * - the unfolded menu directories, only over the reload a language switch makes: written just before it,
 *   read back by the menu as it mounts and forgotten once that mount is committed
 *   (`forgetRememberedMenus`): a first render React throws away (a page's code still loading) reads the
 *   same value again. Any other reload unfolds the current page's directories only.
 */

const TABS_KEY = 'adminShell.tabs';
const MENUS_KEY = 'adminShell.openMenus';

type RememberedTab = Pick<PageTab, 'key' | 'to'>;

const live: { menus: string[] } = { menus: [] };

function session(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

const tabsKey = (adminId: number) => `${TABS_KEY}.${adminId}`;

/** Keep the admin's open tabs (their page and the last location seen in each) for the next reload. */
export function noteTabs(adminId: number, tabs: readonly PageTab[]): void {
  try {
    session()?.setItem(tabsKey(adminId), JSON.stringify(tabs.map(({ key, to }) => ({ key, to }))));
  } catch {
    // storage full or refused: the tabs simply do not outlive a reload
  }
}

export function noteOpenMenus(keys: Iterable<string>): void {
  live.menus = [...keys];
}

/** Reload the page (to take a new language) with the menu unfolded as it is now (the tabs are kept anyway). */
export function reloadKeepingShell(reload: () => void = () => window.location.reload()): void {
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

/** The tabs the admin had open before the reload, in their order. */
export function rememberedTabs(adminId: number): RememberedTab[] {
  return read(tabsKey(adminId)).filter((tab): tab is RememberedTab => typeof (tab as RememberedTab)?.key === 'string' && typeof (tab as RememberedTab)?.to === 'string');
}

/** The menu directories unfolded before a language switch's reload. */
export function rememberedMenus(): string[] {
  return read(MENUS_KEY).filter((key): key is string => typeof key === 'string');
}

/** Called from an effect once the menu has mounted with what was remembered: later mounts start afresh. */
export function forgetRememberedMenus(): void {
  session()?.removeItem(MENUS_KEY);
}
