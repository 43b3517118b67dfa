import type { ResourceDefinition } from '../schema/definition.js';

/**
 * One set of running schemas as the schema registry publishes it: the definitions by `$id`, the
 * `table.column` pairs a text index serves (quick search, `db/text-index.ts`) and the revision the set
 * was stored at. A set is never changed once published; a change of the schemas publishes a new one.
 */
export interface ResourceSet {
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
  readonly textIndexed: ReadonlySet<string>;
  readonly revision: number;
}

export function resourceSet(definitions: readonly ResourceDefinition[], textIndexed: ReadonlySet<string>, revision: number): ResourceSet {
  return Object.freeze({ definitions: new Map(definitions.map((definition) => [definition.id, definition])), textIndexed, revision });
}
