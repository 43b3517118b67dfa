import { fieldOf, type FieldDefinition, type ResourceDefinition } from '../../schema/definition.js';

/**
 * The field `name` of `definition`, for a name the caller took from the definition itself (its key, a
 * column of its snapshot): a definition without it is a fault of the code, thrown as one, not a request's.
 */
export function declaredField(definition: ResourceDefinition, name: string): FieldDefinition {
  const field = fieldOf(definition, name);
  if (!field) throw new Error(`${definition.id} declares no field "${name}"`);
  return field;
}

/** The field of `definition`'s primary key. */
export function keyField(definition: ResourceDefinition): FieldDefinition {
  return declaredField(definition, definition.primaryKey);
}
