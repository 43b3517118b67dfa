import { normaliseResource, type RawResourceSchema } from '../schema/normalise.js';
import type { ResourceDefinition } from '../schema/definition.js';

/**
 * Every schema, normalised in the browser exactly as on the server (the server has already checked
 * them against the meta-schema at start-up, so the client only normalises).
 */
const files = import.meta.glob<RawResourceSchema>('../../schemas/**/*.json', { eager: true, import: 'default' });

export const definitions: ResourceDefinition[] = Object.entries(files)
  .map(([path, raw]) => normaliseResource(path.replace(/^(\.\.\/)+/, ''), raw))
  .sort((a, b) => a.id.localeCompare(b.id));

const byMenuName = new Map(definitions.filter((definition) => definition.menu).map((definition) => [definition.menu?.name.toLowerCase() as string, definition]));
const byId = new Map(definitions.map((definition) => [definition.id, definition]));

/** The schema behind a menu rule or react-admin resource name such as `auth/admin`. */
export function definitionByMenuName(name: string): ResourceDefinition | undefined {
  return byMenuName.get(name.toLowerCase());
}

export function definitionById(id: string): ResourceDefinition | undefined {
  return byId.get(id);
}
