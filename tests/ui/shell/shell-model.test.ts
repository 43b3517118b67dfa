import { describe, expect, it } from 'vitest';
import { buildNav, firstPage, navPages, pageOf, routeRules } from '../../../src/client/admin/layout/menu-tree.js';
import { closeAllTabs, closeOtherTabs, closeTab, openTab, readTabFullScreen, writeTabFullScreen, type PageTab } from '../../../src/client/admin/layout/tabs.js';
import { asideWidth, DEFAULT_LAYOUT, headerHeight, normaliseLayout, withLayoutMode } from '../../../src/client/shell/layout-config.js';
import { sampleMenus } from './support.js';

describe('menu tree', () => {
  const nav = buildNav(sampleMenus());

  it('keeps directories and menus, never buttons, and drops empty directories', () => {
    const names = (items: typeof nav): unknown[] => items.map((item) => (item.children ? [item.key, names(item.children)] : item.key));
    expect(names(nav)).toEqual(['dashboard', ['auth', ['auth/admin', 'auth/adminLog', ['auth/deep', ['routine/adminInfo']]]], 'docs', 'status', 'moduleStore/moduleStore']);
  });

  it('routes tab menus by path, iframe menus through /iframe, and opens links outside', () => {
    const byKey = new Map(navPages(nav).map((page) => [page.key, page]));
    expect(byKey.get('auth/admin')?.to).toBe('/auth/admin');
    expect(byKey.get('status')?.to).toBe('/iframe/https%3A%2F%2Fstatus.example.com');
    expect(byKey.has('docs')).toBe(false);
    expect(nav.find((item) => item.key === 'docs')).toMatchObject({ kind: 'link', url: 'https://doc.example.com' });
  });

  it('finds the page a location belongs to by the longest route prefix', () => {
    expect(pageOf(nav, '/auth/admin/12')?.key).toBe('auth/admin');
    expect(pageOf(nav, '/auth/adminLog')?.key).toBe('auth/adminLog');
    expect(pageOf(nav, '/auth/ADMIN/create')?.key).toBe('auth/admin');
    expect(pageOf(nav, '/auth')).toBeUndefined();
    expect(firstPage(nav)?.key).toBe('dashboard');
  });

  it('skips add_rules_only rules in the menu and add_menu_only rules in the routes', () => {
    const [dashboard, auth] = sampleMenus();
    const hidden = { ...dashboard, name: 'hidden', path: 'hidden', extend: 'add_rules_only' as const };
    const menuOnly = { ...dashboard, name: 'menuonly', path: 'menuonly', extend: 'add_menu_only' as const };
    expect(buildNav([hidden, menuOnly, auth]).map((item) => item.key)).toEqual(['menuonly', 'auth']);
    expect(routeRules([hidden, menuOnly]).map((rule) => rule.name)).toEqual(['hidden']);
  });
});

describe('tabs', () => {
  const tab = (key: string): PageTab => ({ key, name: key.slice(1), title: key, icon: '', to: key });
  const three = [tab('/a'), tab('/b'), tab('/c')];

  it('opens each page once and remembers the last location seen in it', () => {
    let tabs = openTab([], tab('/a'));
    tabs = openTab(tabs, tab('/b'));
    tabs = openTab(tabs, { ...tab('/a'), to: '/a/3?x=1' });
    expect(tabs.map((item) => item.to)).toEqual(['/a/3?x=1', '/b']);
  });

  it('closing the active tab moves to its right neighbour, or the left one at the end', () => {
    expect(closeTab(three, '/b', '/b', '/a')).toEqual({ tabs: [tab('/a'), tab('/c')], navigateTo: '/c' });
    expect(closeTab(three, '/c', '/c', '/a')).toEqual({ tabs: [tab('/a'), tab('/b')], navigateTo: '/b' });
    expect(closeTab(three, '/a', '/c', '/a')).toEqual({ tabs: [tab('/b'), tab('/c')] });
    expect(closeTab([tab('/b')], '/b', '/b', '/a')).toEqual({ tabs: [], navigateTo: '/a' });
  });

  it('closes the others, or all of them (back to the first page)', () => {
    expect(closeOtherTabs(three, '/b', '/b')).toEqual({ tabs: [tab('/b')], navigateTo: undefined });
    expect(closeOtherTabs(three, '/c', '/a')).toEqual({ tabs: [tab('/c')], navigateTo: '/c' });
    expect(closeAllTabs('/a')).toEqual({ tabs: [], navigateTo: '/a' });
  });

  it('persists the full-screen flag as storeTabViewConfig {state: {tabFullScreen}}', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
    expect(readTabFullScreen(storage)).toBe(false);
    writeTabFullScreen(true, storage);
    expect(JSON.parse(store.get('storeTabViewConfig') as string)).toEqual({ state: { tabFullScreen: true } });
    expect(readTabFullScreen(storage)).toBe(true);
  });
});

describe('layout config', () => {
  it('header height by layout (docs/client.md#layout) and menu width 260 / 64', () => {
    expect(headerHeight('Default')).toBe(70);
    expect(headerHeight('Classic')).toBe(50);
    expect(headerHeight('Streamline')).toBe(60);
    expect(headerHeight('Other')).toBe(60);
    expect(asideWidth(DEFAULT_LAYOUT)).toBe(260);
    expect(asideWidth({ ...DEFAULT_LAYOUT, menuCollapse: true })).toBe(64);
  });

  it('switching Classic ↔ Default shades and restores the stock active-tab background', () => {
    const classic = withLayoutMode(DEFAULT_LAYOUT, 'Classic');
    expect(classic.layoutMode).toBe('Classic');
    expect(classic.headerBarTabActiveBackground).toEqual(['#f5f5f5', '#1d1e1f']);
    expect(withLayoutMode(classic, 'Default').headerBarTabActiveBackground).toEqual(['#ffffff', '#1d1e1f']);
    const dark = withLayoutMode({ ...DEFAULT_LAYOUT, isDark: true }, 'Classic');
    expect(dark.headerBarTabActiveBackground).toEqual(['#ffffff', '#141414']);
    // A custom colour is left alone.
    const custom = { ...DEFAULT_LAYOUT, headerBarTabActiveBackground: ['#eef5ff', '#1d1e1f'] as [string, string] };
    expect(withLayoutMode(custom, 'Classic').headerBarTabActiveBackground).toEqual(['#eef5ff', '#1d1e1f']);
  });

  it('reads stored preferences over the defaults and ignores junk', () => {
    expect(normaliseLayout({ layoutMode: 'Classic', isDark: true, menuWidth: 'wide', menuBackground: ['#000'] })).toEqual({
      ...DEFAULT_LAYOUT,
      layoutMode: 'Classic',
      isDark: true,
    });
    expect(normaliseLayout({ layoutMode: 'Sideways' }).layoutMode).toBe('Default');
  });
});
