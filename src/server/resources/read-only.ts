import type { Action, ResourceHooks } from '../app-context.js';
import type { ResourceDefinition } from '../../schema/definition.js';
import type { ApiError } from '../errors.js';
import { readRow } from './operations/read.js';

/** The generic writes a read-only resource answers with its refusal. */
const REFUSED = ['add', 'del', 'sortable'];

/**
 * The actions of a resource whose rows change only through its own actions (participations, task
 * submissions, payouts): `own` beside the generic writes, each of which answers `refusal` to every caller
 * and so checks no permission node; `edit` GET still reads one row for its details, under the node that
 * reads the list (`index`), and refuses a POST.
 */
export function readOnly(refusal: () => ApiError, hooks: () => ResourceHooks, own: Record<string, Action> = {}): Pick<ResourceHooks, 'actions' | 'noNeedPermission' | 'permissions'> {
  const refuse = async () => {
    throw refusal();
  };
  return {
    actions: {
      ...own,
      ...Object.fromEntries(REFUSED.map((name) => [name, refuse])),
      edit: async (ctx) => {
        if (ctx.method === 'POST') return refuse();
        const definition = ctx.controller.resource as ResourceDefinition;
        return { row: await readRow(ctx, definition, hooks(), ctx.query[definition.primaryKey]) };
      },
    },
    noNeedPermission: REFUSED,
    permissions: { edit: ['index'] },
  };
}
