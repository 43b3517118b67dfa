import { useSyncExternalStore } from 'react';
import { setSiteTimeZone } from '../../format/datetime.js';
import type { UserInfo } from '../../http/session.js';

/**
 * What the member centre keeps of `GET /api/index/index` (docs/wire-contract.md#member-bootstrap): the member-centre menus
 * (top-level `menu_dir` trees of `user_rule`) drive the left menu and the routes; the site the title.
 */

export const MEMBER_BOOTSTRAP_PATH = '/api/index/index';

export interface MemberRule {
  id: number;
  pid: number;
  type: 'route' | 'menu_dir' | 'menu' | 'nav_user_menu' | 'nav' | 'button';
  title: string;
  name: string;
  path: string;
  icon: string;
  menu_type: 'tab' | 'link' | 'iframe' | null;
  url: string;
  component: string;
  extend: string;
  children?: MemberRule[];
}

export interface MemberBootstrap {
  /** `timeZone` (ours): the site's time zone, in which every date is shown */
  site: { siteName: string; recordNumber: string; version: string; cdnUrl: string; timeZone?: string };
  openMemberCenter: boolean;
  userInfo: Partial<UserInfo>;
  rules: MemberRule[];
  menus: MemberRule[];
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: MemberBootstrap | undefined;

function getMemberBootstrap(): MemberBootstrap | undefined {
  return state;
}

export function setMemberBootstrap(next: MemberBootstrap | undefined): void {
  state = next;
  if (next) setSiteTimeZone(next.site.timeZone);
  for (const listener of listeners) listener();
}

/** Change the shown member fields (profile page: nickname, avatar). */
export function patchMemberInfo(patch: Partial<UserInfo>): void {
  if (state) setMemberBootstrap({ ...state, userInfo: { ...state.userInfo, ...patch } });
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMemberBootstrap(): MemberBootstrap | undefined {
  return useSyncExternalStore(subscribe, getMemberBootstrap, getMemberBootstrap);
}

/** The route of a menu item inside the centre: `/account/overview`, or `/iframe/<url>` for an iframe. */
export function routeOf(rule: MemberRule): string {
  if (rule.menu_type === 'iframe') return `/iframe/${encodeURIComponent(rule.url)}`;
  return `/${(rule.path || rule.name).replace(/^\/+/, '')}`;
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
