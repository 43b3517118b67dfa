/**
 * The admin rule tree of `Index/index` (docs/wire-contract.md#menu-tree) turned into navigation
 * (docs/wire-contract.md#menus-routes-and-permission-nodes). Pure.
 */
import type { MenuRule } from '../../providers/admin-bootstrap.js';

export type { MenuRule };

type NavKind = 'dir' | 'tab' | 'link' | 'iframe';

export interface NavItem {
  /** the rule name, unique */
  key: string;
  title: string;
  icon: string;
  kind: NavKind;
  /** route path under the admin base for tab and iframe items: `/auth/admin`, `/iframe/<encoded url>` */
  to?: string;
  /** external address of link and iframe items */
  url?: string;
  children?: NavItem[];
  rule: MenuRule;
}

function iframePath(url: string): string {
  return `/iframe/${encodeURIComponent(url)}`;
}

function kindOf(rule: MenuRule): NavKind | undefined {
  if (rule.type === 'menu_dir') return 'dir';
  if (rule.type !== 'menu') return undefined;
  if (rule.menu_type === 'link') return 'link';
  if (rule.menu_type === 'iframe') return 'iframe';
  return 'tab';
}

function routePathOf(rule: MenuRule): string {
  return `/${(rule.path || rule.name).replace(/^\/+/, '')}`;
}

/**
 * Navigation entries: menu directories and menus only (buttons are permission nodes, never shown);
 * skipped: `add_rules_only` rules, tab menus without a component, link/iframe menus without a url, and
 * directories left empty.
 */
export function buildNav(rules: readonly MenuRule[]): NavItem[] {
  const out: NavItem[] = [];
  for (const rule of rules) {
    const kind = kindOf(rule);
    if (!kind || rule.extend === 'add_rules_only') continue;
    const base = { key: rule.name, title: rule.title, icon: rule.icon, kind, rule };
    if (kind === 'dir') {
      const children = buildNav(rule.children ?? []);
      if (children.length > 0) out.push({ ...base, children });
    } else if (kind === 'tab') {
      if (rule.component) out.push({ ...base, to: routePathOf(rule) });
    } else if (rule.url) {
      out.push({ ...base, url: rule.url, ...(kind === 'iframe' ? { to: iframePath(rule.url) } : {}) });
    }
  }
  return out;
}

/** Every page a route opens (tab and iframe menus), depth first, in menu order. */
export function navPages(items: readonly NavItem[]): NavItem[] {
  return items.flatMap((item) => (item.children ? navPages(item.children) : item.to ? [item] : []));
}

/** The first page of the menu: where the back office opens by default. */
export function firstPage(items: readonly NavItem[]): NavItem | undefined {
  return navPages(items)[0];
}

/**
 * The menu page a location belongs to: the page whose route is the longest prefix of the path, so
 * `/auth/admin/3` and `/auth/admin/create` belong to `/auth/admin`. Case-insensitive, like the router.
 */
export function pageOf(items: readonly NavItem[], pathname: string): NavItem | undefined {
  const path = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  let best: NavItem | undefined;
  for (const page of navPages(items)) {
    const to = (page.to as string).toLowerCase();
    if ((path === to || path.startsWith(`${to}/`)) && (!best || to.length > (best.to as string).length)) best = page;
  }
  return best;
}

/** Keys of the directories leading to an item (to open them when the item is active). */
export function ancestorsOf(items: readonly NavItem[], key: string, trail: string[] = []): string[] | undefined {
  for (const item of items) {
    if (item.key === key) return trail;
    if (item.children) {
      const found = ancestorsOf(item.children, key, [...trail, item.key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Routes the back office registers (docs/wire-contract.md#menus-routes-and-permission-nodes): every tab or iframe menu, recursively, except
 * `add_menu_only` rules. Tab menus carry their component: a schema `$id` or a page key.
 */
export function routeRules(rules: readonly MenuRule[]): MenuRule[] {
  return rules.flatMap((rule) => {
    const own = rule.type === 'menu' && rule.extend !== 'add_menu_only' && ((rule.menu_type !== 'link' && rule.menu_type !== 'iframe' && rule.component) || (rule.menu_type === 'iframe' && rule.url)) ? [rule] : [];
    return [...own, ...routeRules(rule.children ?? [])];
  });
}
