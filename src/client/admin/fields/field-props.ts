import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';

/** Every list renderer reads the row from the record context and knows its schema field. */
export interface SchemaFieldProps {
  field: FieldDefinition;
  definition: ResourceDefinition;
}

/** A value at a dotted path of a row (`group.name`). */
export function valueAt(record: Record<string, unknown> | undefined, path: string): unknown {
  let current: unknown = record;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
