import { useSyncExternalStore } from 'react';
import type { AdminBootstrap } from '../providers/admin-bootstrap.js';
import { buildNav, type NavItem } from './layout/menu-tree.js';

/**
 * What the shell keeps of `GET /admin/Index/index` (contract §4.4) once the loading route has fetched
 * it: the menus drive the routes, navigation and tabs; the site config the title and upload widgets.
 * A module-level store, because `<Admin>`'s children (the resources) are computed from it above the
 * router context where the loading route fetches it.
 */
export type ShellBootstrap = Pick<AdminBootstrap, 'adminInfo' | 'menus' | 'siteConfig' | 'schemaRevision'>;
export type ShellAdminInfo = AdminBootstrap['adminInfo'];

export interface ShellState extends ShellBootstrap {
  nav: NavItem[];
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: ShellState | undefined;

export function getShellState(): ShellState | undefined {
  return state;
}

export function setBootstrap(bootstrap: ShellBootstrap): ShellState {
  state = { ...bootstrap, nav: buildNav(bootstrap.menus) };
  emit();
  return state;
}

/**
 * Fetch the menus and definitions again and redraw a loaded shell with them (a schema changed on the
 * server). A shell still loading fetches them anyway; a failure leaves the current screens as they are.
 */
export function reloadShell(load: () => Promise<ShellBootstrap>): Promise<void> {
  return load().then(
    (data) => {
      if (state) setBootstrap(data);
    },
    (error: unknown) => console.error('Reloading the schema definitions failed', error),
  );
}

/** Change the signed-in admin's shown fields (profile page: nickname, avatar). */
export function patchAdminInfo(patch: Partial<ShellAdminInfo>): void {
  if (!state) return;
  state = { ...state, adminInfo: { ...state.adminInfo, ...patch } };
  emit();
}

export function resetBootstrap(): void {
  state = undefined;
  emit();
}

function emit(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useShellState(): ShellState | undefined {
  return useSyncExternalStore(subscribe, getShellState, getShellState);
}
