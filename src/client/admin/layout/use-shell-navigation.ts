import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { ADMIN_BASE } from '../loading/target.js';
import type { NavItem } from './menu-tree.js';

/** The location inside the back office: `/chidaoadminstator/auth/admin` → `/auth/admin`. */
export function useInnerPath(): string {
  const { pathname } = useLocation();
  return pathname.startsWith(ADMIN_BASE) ? pathname.slice(ADMIN_BASE.length) || '/' : pathname;
}

/** Opens a menu item: tab and iframe menus as routes, link menus in a new window. */
export function useOpenNavItem(): (item: NavItem) => void {
  const navigate = useNavigate();
  return useCallback(
    (item: NavItem) => {
      if (item.kind === 'link' && item.url) window.open(item.url, '_blank', 'noopener');
      else if (item.to) navigate(`${ADMIN_BASE}${item.to}`);
    },
    [navigate],
  );
}

/**
 * A menu title: the rule title from the server, or its translation in the shell's pack
 * (`shell.menus.<rule name>`) when there is one for the current language.
 */
export function useMenuTitle(): (item: { key: string; title: string }) => string {
  const translate = useTranslate();
  return useCallback((item) => translate(`shell.menus.${item.key}`, { _: item.title }), [translate]);
}
