import type { PreviousLogin } from '../format/previous-login.js';
import type { UserInfo } from '../http/session.js';

/**
 * `GET /api/index/index`: the member-centre menus (top-level `menu_dir` trees of `user_rule`) that
 * drive its left menu and routes, the signed-in member, and the site.
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
  /** ours: the member's login before this one (docs/wire-contract.md#previous-login) */
  previousLogin?: PreviousLogin;
  rules: MemberRule[];
  menus: MemberRule[];
}
