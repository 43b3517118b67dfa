import type { ResourceDefinition } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import type { Identity } from '../auth/identity.js';
import { mayReadList } from './access.js';

/** A definition as the back office receives it: everything but the seed rows and the translation report. */
type ClientDefinition = Omit<ResourceDefinition, 'seed' | 'textGaps'>;

/**
 * The normalised definitions the back office draws its screens from at run time: the resources
 * the admin may list, and those they refer to (selects and labels need their endpoint and label field).
 * A new schema and a restart give its screens; the client bundles none.
 */
export function definitionsFor(app: AppContext, identity: Identity): ClientDefinition[] {
  const chosen = new Map<string, ResourceDefinition>();
  for (const definition of app.resources.values()) {
    if (!mayReadList(identity, definition)) continue;
    chosen.set(definition.id, definition);
  }
  for (const definition of [...chosen.values()]) {
    for (const field of definition.fields) {
      const related = field.ref ? app.resources.get(field.ref.resource) : undefined;
      if (related) chosen.set(related.id, related);
    }
  }
  return [...chosen.values()].sort((a, b) => a.id.localeCompare(b.id)).map(clientDefinition);
}

/** A definition without what the back office never reads (seed rows, the translation report). */
export function clientDefinition({ seed: _seed, textGaps: _gaps, ...rest }: ResourceDefinition): ClientDefinition {
  return rest;
}

/** Menu names of every schema screen, so the client can tell a page that exists (401) from none (404). */
export function schemaPages(app: AppContext): string[] {
  return [...app.resources.values()].flatMap((definition) => (definition.menu ? [definition.menu.name] : []));
}
