import type { RequestContext } from '../app-context.js';
import { fieldOf, valueTags } from '../../schema/definition.js';
import type { ValueTag } from '../../contract/value-tags.js';

/**
 * The labels and chip colours of some enum fields of a resource, in the request's language, as its schema
 * declares them: a member's list answer carries them (`tags`), so those pages draw each value as the back
 * office does.
 */
export function valueTagsOf(ctx: RequestContext, resource: string, fields: readonly string[]): Record<string, Record<string, ValueTag>> {
  const definition = ctx.app.resources.get(resource);
  return Object.fromEntries(
    fields.map((name) => {
      const field = definition && fieldOf(definition, name);
      return [name, field ? valueTags(field, ctx.lang) : {}];
    }),
  );
}
