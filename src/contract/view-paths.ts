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
