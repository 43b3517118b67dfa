import type { FieldDefinition, ResourceDefinition } from './definition.js';

const FALLBACK_COLUMNS = 8;

/** The columns of a resource's list (the screen and its CSV export): fields marked `x-ui.list`, else the first readable fields. */
export function listColumnsOf(definition: ResourceDefinition): FieldDefinition[] {
  const marked = definition.fields.filter((field) => field.ui.list && !field.writeOnly);
  if (marked.length > 0) return marked;
  return definition.fields.filter((field) => !field.writeOnly && field.wireType !== 'object').slice(0, FALLBACK_COLUMNS);
}
