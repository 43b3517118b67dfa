import type { ResourceEndpoint } from '../providers/data-provider.js';
import { definitionById, definitionByMenuName } from '../schemas.js';

/**
 * Where a react-admin resource lives on the server: resources are named by their menu (`auth/admin`,
 * the route path and permission prefix) or, without a menu, by their schema `$id`.
 */
export function resolveEndpoint(resource: string): ResourceEndpoint {
  const definition = definitionByMenuName(resource) ?? definitionById(resource);
  if (!definition?.controller) throw new Error(`No API for resource "${resource}"`);
  return { url: `/admin/${definition.controller}/`, definition };
}
