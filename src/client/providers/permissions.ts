import type { MenuRule } from './admin-bootstrap.js';

/**
 * Permission per screen (docs/client.md#permissions-on-screens): the button rules of the menu tree, named
 * `<menu name>/<action>` (`auth/admin/add`), are the nodes an admin may use; a super admin may use
 * everything. The nodes of the signed-in admin are held in memory, filled from the bootstrap.
 */

export interface Permissions {
  super: boolean;
  /** lower-cased button rule names */
  nodes: ReadonlySet<string>;
}

/**
 * react-admin's verbs → the BuildAdmin actions whose buttons grant them; other actions pass through, as
 * `export` does: the server checks `<path>/export`, a node of its own, so the list's export button asks
 * for that node, not for `index`.
 */
const ACTION_NODES: Readonly<Record<string, string>> = {
  list: 'index',
  show: 'index',
  create: 'add',
  clone: 'add',
  edit: 'edit',
  delete: 'del',
};

/** Every button rule name in the tree, lower-cased (the server compares case-insensitively too). */
export function buttonNodes(menus: readonly MenuRule[]): Set<string> {
  const nodes = new Set<string>();
  const visit = (rules: readonly MenuRule[]) => {
    for (const rule of rules) {
      if (rule.type === 'button') nodes.add(rule.name.toLowerCase());
      if (rule.children) visit(rule.children);
    }
  };
  visit(menus);
  return nodes;
}

/** `auth/admin` + `list` → `auth/admin/index`; `auth/admin` + `sortable` → `auth/admin/sortable`. */
export function permissionNode(resource: string, action: string): string {
  const node = ACTION_NODES[action] ?? action;
  return `${resource.replace(/\/+$/, '')}/${node}`.toLowerCase();
}

/**
 * Pure check: the node must be among the admin's buttons. A super admin holds every button that exists,
 * so for them only a screen's undeclared actions are closed (no "add" on a log whose menu declares
 * only `index`); a resource with no button rules at all is open to them.
 */
export function canAccess(permissions: Permissions, params: { resource: string; action: string }): boolean {
  const node = permissionNode(params.resource, params.action);
  if (permissions.nodes.has(node)) return true;
  if (!permissions.super) return false;
  const prefix = node.slice(0, node.lastIndexOf('/') + 1);
  return ![...permissions.nodes].some((held) => held.startsWith(prefix) && !held.slice(prefix.length).includes('/'));
}

let current: Permissions = { super: false, nodes: new Set() };
let loaded = false;

/** Hold the permissions of the signed-in admin: the bootstrap's menus and super flag. */
export function setMenus(menus: readonly MenuRule[], isSuper = false): void {
  current = { super: isSuper, nodes: buttonNodes(menus) };
  loaded = true;
}

/** Forget them (logout, login as someone else). */
export function clearPermissions(): void {
  current = { super: false, nodes: new Set() };
  loaded = false;
}

export function permissionsLoaded(): boolean {
  return loaded;
}

export function currentPermissions(): Permissions {
  return current;
}

/** Whether the signed-in admin holds a node such as `auth/admin/add` (case-insensitive). */
export function allows(node: string): boolean {
  const slash = node.lastIndexOf('/');
  return canAccess(current, { resource: node.slice(0, slash), action: node.slice(slash + 1) });
}
