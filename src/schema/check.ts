import type { ErrorObject } from 'ajv';
import { createAjv } from './ajv.js';
import { resourceMetaSchema } from './meta-schema.js';
import { checkResourceSet, normaliseResource, SchemaError, type RawResourceSchema } from './normalise.js';
import { checkPortableResource, checkPortableSet } from './portable.js';
import type { ResourceDefinition } from './definition.js';
import type { TextSources } from './local-text.js';

const metaValidator = createAjv({ coerce: false }).compile(resourceMetaSchema);

/** The value at a JSON pointer (ajv leaves `error.data` empty unless `verbose` is on). */
function valueAt(raw: unknown, pointer: string): unknown {
  let value = raw;
  for (const token of pointer.split('/').slice(1)) {
    value = (value as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function describe(error: ErrorObject, raw: unknown): { path: string; detail: string } {
  const path = error.instancePath;
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const kind = key.startsWith('x-') ? 'unknown x- keyword' : 'unknown keyword';
    return { path: `${path}/${key}`, detail: `${kind} "${key}"` };
  }
  if (error.keyword === 'propertyNames') return { path, detail: 'field names must be snake_case identifiers' };
  if (error.keyword === 'enum' || error.keyword === 'anyOf') {
    return { path, detail: `invalid value ${JSON.stringify(valueAt(raw, path))} (${error.message ?? ''})` };
  }
  return { path, detail: error.message ?? error.keyword };
}

/** Check one parsed schema file against the meta-schema and normalise it, its texts from `sources`. */
export function checkResource(file: string, raw: unknown, sources: TextSources = {}): ResourceDefinition {
  if (!metaValidator(raw)) {
    const errors = metaValidator.errors ?? [];
    // The most specific error first: unknown keywords, then the deepest path.
    const best = [...errors].sort((a, b) => {
      const rank = (e: ErrorObject) => (e.keyword === 'additionalProperties' ? 0 : 1);
      return rank(a) - rank(b) || b.instancePath.length - a.instancePath.length;
    })[0];
    const { path, detail } = describe(best, raw);
    throw new SchemaError(file, path, detail);
  }
  const definition = normaliseResource(file, raw as RawResourceSchema, sources);
  checkPortableResource(file, raw, definition);
  const expectedId = file.replace(/\\/g, '/').replace(/^.*schemas\//, '').replace(/\.json$/, '');
  if (file.includes('schemas/') && definition.id !== expectedId) {
    throw new SchemaError(file, '/$id', `"$id" must be "${expectedId}" (the file's path under schemas/)`);
  }
  return definition;
}

/** Check and normalise a whole set of schema files, then the references between them. */
export function checkResources(files: { file: string; raw: unknown; sources?: TextSources }[]): ResourceDefinition[] {
  const entries = files.map(({ file, raw, sources }) => ({ file, definition: checkResource(file, raw, sources) }));
  checkResourceSet(entries);
  checkPortableSet(entries);
  return entries.map((entry) => entry.definition);
}
