/**
 * Back-office menu rules name their page by BuildAdmin's view file (`component`), which BuildAdmin's
 * router resolves: `/src/views/backend/auth/admin/index.vue` for a generated screen,
 * `/src/views/backend/dashboard.vue` for a page of its own. We store the same values, so a database or a
 * client from BuildAdmin works with ours, and read them back as the page's name (`auth/admin`, `dashboard`).
 */

const PREFIX = '/src/views/backend/';

/** The view file of the screen of menu `name` (`auth/admin` → `/src/views/backend/auth/admin/index.vue`). */
export function backendViewPath(name: string): string {
  return `${PREFIX}${name}/index.vue`;
}

/** The page a rule's `component` names: the view file's path without `/index.vue` or `.vue`; other values as they are. */
export function pageNameOf(component: string): string {
  if (!component.startsWith(PREFIX) || !component.endsWith('.vue')) return component;
  return component.slice(PREFIX.length, -'.vue'.length).replace(/\/index$/, '');
}

/*
 * Member rules name their page the same way, by BuildAdmin's member-centre view file:
 * `/src/views/frontend/user/account/overview.vue` for `account/overview`. Only pages BuildAdmin has carry
 * such a path; our own pages (tasks, ranking, team…) keep their name in `component`.
 */
const MEMBER_PREFIX = '/src/views/frontend/user/';

/** Whether a member rule's `component` names one of BuildAdmin's member-centre view files, which its client can open. */
export function isMemberViewPath(component: string): boolean {
  return component.startsWith(MEMBER_PREFIX) && component.endsWith('.vue');
}

/** The member page a rule's `component` names: the view file's path without prefix and `.vue`; our own names as they are. */
export function memberPageNameOf(component: string): string {
  return isMemberViewPath(component) ? component.slice(MEMBER_PREFIX.length, -'.vue'.length) : component;
}
