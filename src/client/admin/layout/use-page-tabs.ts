import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_BASE } from '../admin-base.js';
import { firstPage, pageOf, type NavItem } from './menu-tree.js';
import { closeAllTabs, closeOtherTabs, closeTab, openTab, type PageTab, type TabChange } from './tabs.js';
import { useInnerPath } from './use-shell-navigation.js';
import { forgetRememberedShell, noteTabs, rememberedTabs } from './shell-memory.js';

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

/**
 * One tab per opened menu page. The tab of the current page is always shown (closing everything
 * leaves the first page open, as its only tab); each tab remembers the last location seen in it.
 */
export function usePageTabs(nav: NavItem[]): PageTabs {
  const navigate = useNavigate();
  const { search } = useLocation();
  const innerPath = useInnerPath();
  const page = pageOf(nav, innerPath);
  const current = useMemo(() => (page ? tabOf(page, `${innerPath}${search}`) : undefined), [page, innerPath, search]);
  // After a language switch the tabs come back, titled in the new language; pages gone from the menu are dropped.
  // The page shown has its tab from the first drawing: opening it in the effect below would draw the shell twice.
  const [opened, setOpened] = useState<PageTab[]>(() => {
    const remembered = rememberedTabs().flatMap((tab) => {
      const found = pageOf(nav, tab.key);
      return found && found.to === tab.key ? [tabOf(found, tab.to)] : [];
    });
    return current ? openTab(remembered, current) : remembered;
  });
  // The side menu read its unfolded directories in the same render pass; both are forgotten together.
  useEffect(forgetRememberedShell, []);

  useEffect(() => {
    if (current) setOpened((tabs) => openTab(tabs, current));
  }, [current]);

  const tabs = useMemo(() => (current ? openTab(opened, current) : opened), [opened, current]);
  useEffect(() => noteTabs(tabs), [tabs]);
  const fallback = firstPage(nav)?.to ?? '/';

  const apply = useCallback(
    (change: TabChange) => {
      setOpened(change.tabs);
      if (change.navigateTo) navigate(`${ADMIN_BASE}${change.navigateTo}`);
    },
    [navigate],
  );

  return {
    tabs,
    active: current,
    close: (key) => apply(closeTab(tabs, key, current?.key, fallback)),
    closeOthers: (key) => apply(closeOtherTabs(tabs, key, current?.key)),
    closeAll: () => apply(closeAllTabs(fallback)),
    select: (tab) => navigate(`${ADMIN_BASE}${tab.to}`),
  };
}
