import type { ResourceDefinition } from '../../../schema/definition.js';
import { definitionById } from '../../schemas.js';

/**
 * The react-admin resource name of a schema: its menu name (`auth/admin`), which is also the route path
 * and the prefix of its permission nodes; a schema without a menu is addressed by its `$id`.
 */
export function resourceNameOf(definition: ResourceDefinition): string {
  return definition.menu?.name ?? definition.id;
}

/** The resource name of the schema a reference points at (`system/admin_group` → `auth/group`). */
export function referencedResourceName(schemaId: string): string {
  const target = definitionById(schemaId);
  return target ? resourceNameOf(target) : schemaId;
}
