import type { ResourceDefinition } from '../../schema/definition.js';
import type { PreviousLogin } from '../format/previous-login.js';
import type { AdminInfo } from '../http/session.js';

/**
 * `GET /admin/Index/index` (docs/wire-contract.md#back-office-bootstrap, #menu-tree): who is signed in, the rule tree the back office is
 * built from (menus, tabs, and the button nodes that are the permissions), site and terminal settings.
 */

type MenuRuleType = 'menu_dir' | 'menu' | 'button';
type MenuType = 'tab' | 'link' | 'iframe';
type MenuExtend = 'none' | 'add_rules_only' | 'add_menu_only';

/** One node of the rule tree (`admin_rule` without remark/status/weigh/timestamps). */
export interface MenuRule {
  id: number;
  pid: number;
  type: MenuRuleType;
  /** message key or text */
  title: string;
  /** rule name: `auth/admin` for a menu, `auth/admin/add` for its button */
  name: string;
  /** route path below the admin base; equal to `name` for menus */
  path: string;
  icon: string;
  /** null for menu directories and buttons */
  menu_type: MenuType | null;
  url: string;
  /** page key: a schema `$id` such as `system/admin`, or `dashboard`, `routine/adminInfo`… */
  component: string;
  /** 0 when off, else the rule name */
  keepalive: 0 | string;
  extend: MenuExtend;
  /** present only when the node has accessible children */
  children?: MenuRule[];
}

interface UploadConfig {
  /** bytes */
  maxSize: number;
  saveName: string;
  /** comma-separated suffixes */
  allowedSuffixes: string;
  allowedMimeTypes: string[];
  mode: string;
  [extra: string]: unknown;
}

interface SiteConfig {
  siteName: string;
  recordNumber?: string;
  /** the site's configured version, e.g. `v1.0.0` */
  version: string;
  /** protocol-relative base such as `//example.com` */
  cdnUrl: string;
  apiUrl: string;
  /** ours: the site's time zone (config `time_zone`), in which every date is shown */
  timeZone?: string;
  upload: UploadConfig;
  headNav?: unknown[];
  initialize?: Record<string, unknown>;
}

/** A command the web terminal offers: its key (what `ajax/terminal` is asked for) and its title in the page's language. */
interface TerminalCommandOffer {
  key: string;
  title: string;
}

interface TerminalConfig {
  phpDevelopmentServer: boolean;
  npmPackageManager: string;
  /** ours, for a super admin: whether the server runs commands (`TERMINAL`) */
  enabled?: boolean;
  /** ours, for a super admin: the package managers installed on the server */
  packageManagers?: string[];
  /** ours, for a super admin: the commands the terminal drawer lists */
  commands?: TerminalCommandOffer[];
}

export interface AdminBootstrap {
  adminInfo: Omit<AdminInfo, 'token' | 'refresh_token'>;
  menus: MenuRule[];
  /** ours: the definitions the screens are drawn from (absent from a BuildAdmin server) */
  definitions?: ResourceDefinition[];
  /** ours: menu names of every schema screen */
  schemaPages?: string[];
  /** ours: the revision of the server's schemas these definitions and menus are of */
  schemaRevision?: number;
  siteConfig: SiteConfig;
  terminal: TerminalConfig;
  /** ours: the login before this one (docs/wire-contract.md#previous-login) */
  previousLogin?: PreviousLogin;
}

export const ADMIN_BOOTSTRAP_PATH = '/admin/Index/index';
