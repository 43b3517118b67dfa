import { httpClient } from '../../http/index.js';
import { USER_BASE } from '../../http/http-client.js';
import type { UserInfo } from '../../http/session.js';
import { createMemberAuthProvider } from '../../providers/member-auth-provider.js';
import type { MemberBootstrap, MemberRule } from '../../providers/member-bootstrap.js';
import { createBootstrapStore } from '../../shell/bootstrap-store.js';
import { rememberSiteName } from '../../components/site-identity.js';

/**
 * The member centre's session and what it keeps of `GET /api/index/index` (see `shell/bootstrap-store.ts`):
 * the auth provider (`ba-user-token`), which fetches it, the store the loading route fills, and where
 * the menus lead.
 */

/** The member centre's bootstrap store; `reload()` fetches `/api/index/index` again. */
export const memberBootstrap = createBootstrapStore<MemberBootstrap>(async () => {
  const bootstrap = await authProvider.loadBootstrap();
  // the pages drawn from now on (the standalone survey pages) show the name the operator last saved
  rememberSiteName(bootstrap.site.siteName);
  return bootstrap;
});

// Signing out forgets the menus too, so the next member never sees the previous one's.
export const authProvider = createMemberAuthProvider(httpClient, { onSignedOut: () => memberBootstrap.set(undefined) });

export const useMemberBootstrap = memberBootstrap.use;

export function setMemberBootstrap(next: MemberBootstrap | undefined): void {
  memberBootstrap.set(next);
}

/** Change the shown member fields (profile page: nickname, avatar). */
export function patchMemberInfo(patch: Partial<UserInfo>): void {
  memberBootstrap.update((state) => ({ ...state, userInfo: { ...state.userInfo, ...patch } }));
}

/** The member login page, coming back to `to` (a path of this site) afterwards. */
export function memberLoginPath(to?: string): string {
  return to ? `${USER_BASE}/login?redirect=${encodeURIComponent(to)}` : `${USER_BASE}/login`;
}

/** The route of a menu item inside the centre: `/account/overview`, or `/iframe/<url>` for an iframe. */
export function routeOf(rule: MemberRule): string {
  if (rule.menu_type === 'iframe') return `/iframe/${encodeURIComponent(rule.url)}`;
  return `/${(rule.path || rule.name).replace(/^\/+/, '')}`;
}

/** The menu's directories, each with its pages (type `menu`), leaving out directories with none: the member menu's groups. */
export function menuGroups(menus: readonly MemberRule[]): { directory: MemberRule; pages: MemberRule[] }[] {
  return menus.map((directory) => ({ directory, pages: (directory.children ?? []).filter((rule) => rule.type === 'menu') })).filter((group) => group.pages.length > 0);
}

/** Every menu item (type `menu`) in menu order, depth first. */
export function menuPages(menus: readonly MemberRule[]): MemberRule[] {
  return menus.flatMap((rule) => [...(rule.type === 'menu' ? [rule] : []), ...menuPages(rule.children ?? [])]);
}

/** Where the centre opens when no page was asked for: the first tab page of the menus. */
export function firstPage(menus: readonly MemberRule[]): string | undefined {
  const first = menuPages(menus).find((rule) => (rule.menu_type ?? 'tab') === 'tab');
  return first ? routeOf(first) : undefined;
}
