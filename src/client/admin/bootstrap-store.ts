import { httpClient } from '../http/index.js';
import type { AdminBootstrap } from '../providers/admin-bootstrap.js';
import { createAdminAuthProvider } from '../providers/auth-provider.js';
import { createBootstrapStore } from '../shell/bootstrap-store.js';
import { buildNav, type NavItem } from './layout/menu-tree.js';
import { rememberSiteName } from '../components/site-identity.js';

/**
 * The back office's session and what it keeps of `GET /admin/Index/index` (see `shell/bootstrap-store.ts`):
 * the auth provider, which fetches it, and the store the loading route fills.
 */
export const authProvider = createAdminAuthProvider(httpClient);

/** What the back office keeps of its bootstrap: the menus (routes, navigation, tabs), the site config, the admin and their previous login, the schema revision, the terminal. */
export type ShellBootstrap = Pick<AdminBootstrap, 'adminInfo' | 'previousLogin' | 'menus' | 'siteConfig' | 'schemaRevision' | 'terminal'>;
type ShellAdminInfo = AdminBootstrap['adminInfo'];

export interface ShellState extends ShellBootstrap {
  /** the menus as the navigation draws them */
  nav: NavItem[];
}

function shellStateOf({ adminInfo, previousLogin, menus, siteConfig, schemaRevision, terminal }: ShellBootstrap): ShellState {
  // the pages drawn from now on (a login page after logging out) show the name the operator last saved
  rememberSiteName(siteConfig.siteName);
  return { adminInfo, previousLogin, menus, siteConfig, schemaRevision, terminal, nav: buildNav(menus) };
}

/** The back office's bootstrap store; `reload()` fetches `Index/index` again (it also stores the definitions and permissions). */
export const adminBootstrap = createBootstrapStore<ShellState>(async () => shellStateOf(await authProvider.loadBootstrap()));

export const getShellState = adminBootstrap.get;
export const useShellState = adminBootstrap.use;

/** Keep a bootstrap answer fetched elsewhere (the live-schema stream in development, tests). */
export function setBootstrap(bootstrap: ShellBootstrap): ShellState {
  return adminBootstrap.set(shellStateOf(bootstrap)) as ShellState;
}

/**
 * Fetch the menus and definitions again and redraw a loaded shell with them (a schema changed on the
 * server). A shell still loading fetches them anyway; a failure leaves the current screens as they are.
 */
export function reloadShell(load: () => Promise<ShellBootstrap>): Promise<void> {
  return load().then(
    (data) => {
      if (adminBootstrap.get()) setBootstrap(data);
    },
    (error: unknown) => console.error('Reloading the schema definitions failed', error),
  );
}

/** Change the signed-in admin's shown fields (profile page: nickname, avatar). */
export function patchAdminInfo(patch: Partial<ShellAdminInfo>): void {
  adminBootstrap.update((state) => ({ ...state, adminInfo: { ...state.adminInfo, ...patch } }));
}

export function resetBootstrap(): void {
  adminBootstrap.set(undefined);
}
