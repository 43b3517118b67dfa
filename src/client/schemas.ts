import { schemaMenuTitles, type ResourceDefinition } from '../schema/definition.js';
import type { LocalText } from '../schema/local-text.js';

/**
 * The resource definitions the screens are drawn from. They come from the server at run time, with the
 * menus (`GET /admin/Index/index` → `definitions`, `schemaPages`): normalised there from `schemas/`, only
 * those the admin may read and those they refer to. A new schema and a restart give its screens, with no
 * client build.
 */
let byId = new Map<string, ResourceDefinition>();
let byMenuName = new Map<string, ResourceDefinition>();
let pages = new Set<string>();
let menuTexts = new Map<string, LocalText>();

/** Replace the known definitions and the names of every schema screen (readable or not). */
export function setDefinitions(list: readonly ResourceDefinition[], schemaPages: readonly string[] = []): void {
  byId = new Map(list.map((definition) => [definition.id, definition]));
  byMenuName = new Map(list.filter((definition) => definition.menu).map((definition) => [definition.menu?.name.toLowerCase() as string, definition]));
  pages = new Set([...schemaPages, ...byMenuName.keys()].map((name) => name.toLowerCase()));
  menuTexts = schemaMenuTitles(list);
}

/** The title a schema gives a menu (or the directory it creates), in every language. */
export function schemaMenuText(name: string): LocalText | undefined {
  return menuTexts.get(name.toLowerCase());
}

export function allDefinitions(): ResourceDefinition[] {
  return [...byId.values()];
}

/** The schema behind a menu rule or react-admin resource name such as `auth/admin`. */
export function definitionByMenuName(name: string): ResourceDefinition | undefined {
  return byMenuName.get(name.toLowerCase());
}

export function definitionById(id: string): ResourceDefinition | undefined {
  return byId.get(id);
}

/** Menu names (lower case) of every schema screen, including those this admin may not open. */
export function schemaPageNames(): ReadonlySet<string> {
  return pages;
}
