// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuRule } from '../../../src/client/providers/admin-bootstrap.js';
import { allows, buttonNodes, canAccess, clearPermissions, permissionNode, permissionsLoaded, setMenus } from '../../../src/client/providers/permissions.js';

function rule(id: number, pid: number, type: MenuRule['type'], name: string, children?: MenuRule[]): MenuRule {
  return { id, pid, type, title: name, name, path: type === 'button' ? '' : name, icon: '', menu_type: type === 'menu' ? 'tab' : null, url: '', component: '', keepalive: 0, extend: 'none', ...(children ? { children } : {}) };
}

const menus: MenuRule[] = [
  rule(1, 0, 'menu', 'dashboard', [rule(2, 1, 'button', 'dashboard/index')]),
  rule(3, 0, 'menu_dir', 'auth', [
    rule(4, 3, 'menu', 'auth/admin', [rule(5, 4, 'button', 'auth/admin/index'), rule(6, 4, 'button', 'auth/admin/add')]),
    rule(7, 3, 'menu', 'user/moneyLog', [rule(8, 7, 'button', 'user/moneyLog/index'), rule(9, 7, 'button', 'user/moneyLog/Sortable')]),
  ]),
];

afterEach(() => clearPermissions());

describe('canAccess (pure)', () => {
  const nodes = buttonNodes(menus);

  it('collects the button rules of the whole tree, lower-cased', () => {
    expect([...nodes].sort()).toEqual(['auth/admin/add', 'auth/admin/index', 'dashboard/index', 'user/moneylog/index', 'user/moneylog/sortable']);
  });

  it('lets a super admin do anything a screen declares, and anything on a screen without buttons', () => {
    expect(canAccess({ super: true, nodes: new Set() }, { resource: 'auth/rule', action: 'delete' })).toBe(true);
    const logs = { super: true, nodes: new Set(['auth/adminlog/index', 'auth/admin/add']) };
    expect(canAccess(logs, { resource: 'auth/adminLog', action: 'list' })).toBe(true);
    expect(canAccess(logs, { resource: 'auth/adminLog', action: 'create' })).toBe(false);
    expect(canAccess(logs, { resource: 'auth/adminLog', action: 'edit' })).toBe(false);
  });

  it('allows a granted node, mapping react-admin verbs to BuildAdmin actions', () => {
    const permissions = { super: false, nodes };
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'list' })).toBe(true);
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'show' })).toBe(true);
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'create' })).toBe(true);
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'add' })).toBe(true);
  });

  it('grants export by the export node the server checks, not by the list node', () => {
    const lister = { super: false, nodes: new Set(['auth/adminlog/index']) };
    expect(canAccess(lister, { resource: 'auth/adminLog', action: 'list' })).toBe(true);
    expect(canAccess(lister, { resource: 'auth/adminLog', action: 'export' })).toBe(false);
    const exporter = { super: false, nodes: new Set(['auth/adminlog/index', 'auth/adminlog/export']) };
    expect(canAccess(exporter, { resource: 'auth/adminLog', action: 'export' })).toBe(true);
    expect(permissionNode('auth/adminLog', 'export')).toBe('auth/adminlog/export');
    // a super admin exports every list whose menu has the node
    expect(canAccess({ super: true, nodes: new Set(['auth/adminlog/index', 'auth/adminlog/export']) }, { resource: 'auth/adminLog', action: 'export' })).toBe(true);
  });

  it('refuses a missing node', () => {
    const permissions = { super: false, nodes };
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'edit' })).toBe(false);
    expect(canAccess(permissions, { resource: 'auth/admin', action: 'delete' })).toBe(false);
    expect(canAccess(permissions, { resource: 'auth/group', action: 'list' })).toBe(false);
  });

  it('compares case-insensitively', () => {
    const permissions = { super: false, nodes };
    expect(canAccess(permissions, { resource: 'user/moneyLog', action: 'sortable' })).toBe(true);
    expect(canAccess(permissions, { resource: 'USER/MONEYLOG', action: 'list' })).toBe(true);
    expect(permissionNode('auth/Admin/', 'delete')).toBe('auth/admin/del');
  });
});

describe('permissions held in memory', () => {
  it('starts empty and follows setMenus / clearPermissions', () => {
    expect(permissionsLoaded()).toBe(false);
    expect(allows('auth/admin/add')).toBe(false);
    setMenus(menus);
    expect(permissionsLoaded()).toBe(true);
    expect(allows('Auth/Admin/Add')).toBe(true);
    expect(allows('auth/admin/del')).toBe(false);
    setMenus([], true);
    expect(allows('auth/admin/del')).toBe(true);
    clearPermissions();
    expect(allows('auth/admin/add')).toBe(false);
  });
});
