import type { ResourceDefinition } from '../../schema/definition.js';
import type { Action } from '../http/controller.js';
import type { ApiError } from '../errors.js';
import { readRow } from './operations/read.js';
import type { ResourceHooks } from './hooks.js';

/**
 * The generic writes of a resource whose rows change only through its own actions (participations,
 * task submissions): each answers `refusal`; `edit` GET still reads one row for its details.
 */
export function readOnlyActions(refusal: () => ApiError, hooks: () => ResourceHooks): Record<string, Action> {
  const refuse = async () => {
    throw refusal();
  };
  return {
    add: refuse,
    edit: async (ctx) => {
      if (ctx.method === 'POST') return refuse();
      const definition = ctx.controller.resource as ResourceDefinition;
      return { row: await readRow(ctx, definition, hooks(), ctx.query[definition.primaryKey]) };
    },
    del: refuse,
    sortable: refuse,
  };
}
