import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_BASE } from '../admin-base.js';
import { firstPage, pageOf, type NavItem } from './menu-tree.js';
import { closeAllTabs, closeOtherTabs, closeTab, keepTabs, openTab, type PageTab, type TabChange } from './tabs.js';
import { useInnerPath } from './use-shell-navigation.js';
import { forgetRememberedMenus, noteTabs, rememberedTabs } from './shell-memory.js';

export interface PageTabs {
  tabs: PageTab[];
  active?: PageTab;
  close(key: string): void;
  closeOthers(key: string): void;
  closeAll(): void;
  select(tab: PageTab): void;
}

function tabOf(page: NavItem, to: string): PageTab {
  return { key: page.to as string, name: page.key, title: page.title, icon: page.icon, to };
}

/** A tab as the menus now title it, or nothing when the menus no longer have its page. */
function tabIn(nav: NavItem[], tab: Pick<PageTab, 'key' | 'to'>): PageTab | undefined {
  const found = pageOf(nav, tab.key);
  return found && found.to === tab.key ? tabOf(found, tab.to) : undefined;
}

/**
 * One tab per opened menu page. The tab of the current page is always shown (closing everything
 * leaves the first page open, as its only tab); each tab remembers the last location seen in it.
 * The tabs outlive a reload (per admin, `shell-memory.ts`), titled in the language of the new page;
 * a tab whose page leaves the menus (a module disabled or deleted, a right taken away) closes, on
 * the reload or at once when the menus change.
 */
export function usePageTabs(nav: NavItem[], adminId: number): PageTabs {
  const navigate = useNavigate();
  const { search } = useLocation();
  const innerPath = useInnerPath();
  const page = pageOf(nav, innerPath);
  const current = useMemo(() => (page ? tabOf(page, `${innerPath}${search}`) : undefined), [page, innerPath, search]);
  const fallback = firstPage(nav)?.to ?? '/';
  // The page shown has its tab from the first drawing: opening it in the effect below would draw the shell twice.
  const [opened, setOpened] = useState<PageTab[]>(() => {
    const remembered = rememberedTabs(adminId).flatMap((tab) => tabIn(nav, tab) ?? []);
    return current ? openTab(remembered, current) : remembered;
  });
  // The side menu read its unfolded directories (kept over a language switch) in the same render pass.
  useEffect(forgetRememberedMenus, []);

  useEffect(() => {
    if (current) setOpened((tabs) => openTab(tabs, current));
  }, [current]);

  const tabs = useMemo(() => (current ? openTab(opened, current) : opened), [opened, current]);
  useEffect(() => noteTabs(adminId, tabs), [adminId, tabs]);

  const apply = useCallback(
    (change: TabChange) => {
      setOpened(change.tabs);
      if (change.navigateTo) navigate(`${ADMIN_BASE}${change.navigateTo}`);
    },
    [navigate],
  );

  // New menus: the tabs of pages they lack close; when the page shown was one, its neighbour opens.
  const seen = useRef({ nav, tabs, activeKey: current?.key });
  useEffect(() => {
    const before = seen.current;
    seen.current = { nav, tabs, activeKey: current?.key };
    if (before.nav === nav) return;
    const change = keepTabs(before.tabs, (tab) => tabIn(nav, tab), before.activeKey, fallback);
    if (change.tabs.length !== before.tabs.length || change.navigateTo) apply(change);
  }, [nav, tabs, current, fallback, apply]);

  return {
    tabs,
    active: current,
    close: (key) => apply(closeTab(tabs, key, current?.key, fallback)),
    closeOthers: (key) => apply(closeOtherTabs(tabs, key, current?.key)),
    closeAll: () => apply(closeAllTabs(fallback)),
    select: (tab) => navigate(`${ADMIN_BASE}${tab.to}`),
  };
}
