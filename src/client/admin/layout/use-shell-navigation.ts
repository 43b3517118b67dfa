import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useLocale, useTranslate, type TranslateFunction } from 'react-admin';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../contract/headers.js';
import { schemaMenuText } from '../../schemas.js';
import { ADMIN_BASE } from '../admin-base.js';
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
 * A menu title. Stored rule titles are in the site's default language (zh-cn), as administrators write
 * them in 菜单规则, and are shown as they are in it. In another language: the shell's pack
 * (`shell.menus.<rule name>`, menus no schema makes), then the title the schema gives its menu, then
 * the stored title.
 */
export function menuTitleIn(locale: string, translate: TranslateFunction, item: { key: string; title: string }): string {
  if (locale === DEFAULT_LANGUAGE) return item.title;
  const schema = schemaMenuText(item.key);
  return translate(`shell.menus.${item.key}`, { _: schema && isLanguage(locale) ? schema[locale] : item.title });
}

export function useMenuTitle(): (item: { key: string; title: string }) => string {
  const translate = useTranslate();
  const locale = useLocale();
  return useCallback((item) => menuTitleIn(locale, translate, item), [locale, translate]);
}
