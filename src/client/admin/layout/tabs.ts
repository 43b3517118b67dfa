/**
 * Open pages as tabs (docs/client.md#layout): one tab per menu page, closed singly or all at once. Pure functions
 * over an ordered list; the component keeps the list in state.
 */
export interface PageTab {
  /** the page's route path, e.g. `/auth/admin` */
  key: string;
  /** the menu rule name, for the title's translation */
  name: string;
  /** the menu rule title */
  title: string;
  icon: string;
  /** where the tab returns to: the last location seen in it (path and query) */
  to: string;
}

/** Open or refresh a tab; a new tab goes to the end. */
export function openTab(tabs: readonly PageTab[], tab: PageTab): PageTab[] {
  const index = tabs.findIndex((item) => item.key === tab.key);
  if (index < 0) return [...tabs, tab];
  const current = tabs[index];
  if (current.to === tab.to && current.title === tab.title && current.icon === tab.icon && current.name === tab.name) return tabs as PageTab[];
  const next = [...tabs];
  next[index] = { ...current, ...tab };
  return next;
}

export interface TabChange {
  tabs: PageTab[];
  /** where to go when the active tab went away; undefined = stay */
  navigateTo?: string;
}

/** Close one tab; closing the active one moves to its right neighbour, else its left one. */
export function closeTab(tabs: readonly PageTab[], key: string, activeKey: string | undefined, fallback: string): TabChange {
  const index = tabs.findIndex((item) => item.key === key);
  if (index < 0) return { tabs: [...tabs] };
  const next = tabs.filter((item) => item.key !== key);
  if (key !== activeKey) return { tabs: next };
  const neighbour = next[index] ?? next[index - 1];
  return { tabs: next, navigateTo: neighbour ? neighbour.to : fallback };
}

/** Keep only one tab (and go there if it is not the active one). */
export function closeOtherTabs(tabs: readonly PageTab[], key: string, activeKey: string | undefined): TabChange {
  const kept = tabs.filter((item) => item.key === key);
  return { tabs: kept, navigateTo: key !== activeKey && kept[0] ? kept[0].to : undefined };
}

/** Close everything: the back office falls back to its first page, which opens as the only tab. */
export function closeAllTabs(fallback: string): TabChange {
  return { tabs: [], navigateTo: fallback };
}

/**
 * The tabs whose page the menus still have (`pageOf` gives a tab as the menus now title it, or nothing
 * when its page is gone: a module disabled or deleted, a right taken away), in their order. When the active
 * tab is among those gone, the nearest kept tab to its right, else to its left, else `fallback` opens.
 */
export function keepTabs(tabs: readonly PageTab[], pageOf: (tab: PageTab) => PageTab | undefined, activeKey: string | undefined, fallback: string): TabChange {
  const found = tabs.map(pageOf);
  const kept = found.filter((tab): tab is PageTab => tab !== undefined);
  const unchanged = kept.length === tabs.length && kept.every((tab, index) => openTab([tabs[index]], tab)[0] === tabs[index]);
  const next = unchanged ? [...tabs] : kept;
  const index = tabs.findIndex((tab) => tab.key === activeKey);
  if (index < 0 || found[index]) return { tabs: next };
  const neighbour = found.slice(index + 1).find(Boolean) ?? found.slice(0, index).reverse().find(Boolean);
  return { tabs: next, navigateTo: neighbour ? neighbour.to : fallback };
}

/** localStorage `storeTabViewConfig` (docs/client.md#local-storage): `{state: {tabFullScreen}}`. */
const TAB_VIEW_KEY = 'storeTabViewConfig';

export function readTabFullScreen(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): boolean {
  try {
    const value = JSON.parse(storage?.getItem(TAB_VIEW_KEY) ?? 'null') as { state?: { tabFullScreen?: unknown } } | null;
    return value?.state?.tabFullScreen === true;
  } catch {
    return false;
  }
}

export function writeTabFullScreen(on: boolean, storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = safeStorage()): void {
  let value: { state?: Record<string, unknown> } = {};
  try {
    value = (JSON.parse(storage?.getItem(TAB_VIEW_KEY) ?? 'null') as typeof value) ?? {};
  } catch {
    value = {};
  }
  storage?.setItem(TAB_VIEW_KEY, JSON.stringify({ ...value, state: { ...(value.state ?? {}), tabFullScreen: on } }));
}

function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
