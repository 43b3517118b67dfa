import type { Operator, ResourceHooks } from '../../app-context.js';
import type { Row } from '../../../schema/definition.js';
import { manageableGroupIds } from '../../auth/group-scope.js';
import { errors } from '../../errors.js';
import { genericActions, truthy } from '../resource-controller.js';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { checkChildrenIncluded, childrenOf, groupHooks, idIn } from '../permission-sets.js';

/**
 * Admin groups (docs/wire-contract.md#admin-groups). Non-super admins see and manage the groups whose rights they fully hold
 * with rights to spare, plus (read-only) their own groups.
 */

const base = groupHooks('admin_rule');

async function visibleGroupIds(operator: Operator, includeOwn: boolean): Promise<number[] | undefined> {
  const identity = operator.identity;
  if (!identity || identity.isSuper) return undefined;
  const manageable = await manageableGroupIds(operator.app.db, identity, true);
  return [...new Set([...manageable, ...(includeOwn ? identity.groupIds : [])])];
}

export const adminGroupHooks: ResourceHooks = {
  ...base,

  async scope(operator) {
    const ids = await visibleGroupIds(operator, true);
    return ids ? idIn(ids) : undefined;
  },

  async beforeWrite(operator, write) {
    const identity = operator.identity;
    if (write.existing && identity?.groupIds.includes(Number(write.existing.id))) throw errors.cannotEditOwnGroup();
    if (write.values.pid !== undefined && Number(write.values.pid) !== 0 && identity && !identity.isSuper) {
      const manageable = await visibleGroupIds(operator, true);
      if (!manageable?.includes(Number(write.values.pid))) throw errors.noPermission();
    }
    await base.beforeWrite?.(operator, write);
    const rules = write.values.rules;
    if (identity && !identity.isSuper && Array.isArray(rules)) {
      const ids = (rules as string[]).map(Number);
      if (rules.includes('*') || ids.some((id) => !identity.ruleIds.has(id))) throw errors.noPermission();
      if ([...identity.ruleIds].every((id) => ids.includes(id))) throw errors.groupHasAllYourRights();
    }
  },

  async beforeDelete(operator, remove) {
    const own = new Set(operator.identity?.groupIds ?? []);
    const targets = remove.rows.filter((row: Row) => !own.has(Number(row.id)));
    checkChildrenIncluded(remove.rows, await childrenOf(remove.trx, 'admin_group', remove.rows.map((row) => row.id)));
    await remove.trx.deleteFrom('admin_group_access').where('group_id', 'in', targets.length ? targets.map((row) => Number(row.id)) : [0]).execute();
    return targets;
  },

  actions: {
    /** The generic tree index plus `group` (own group ids); `absoluteAuth=1` hides own groups from selects. */
    index: async (ctx) => {
      const definition = ctx.controller.resource as ResourceDefinition;
      const result = (await genericActions(definition, adminGroupHooks).index(ctx)) as Row;
      const own = ctx.identity?.groupIds ?? [];
      if (Array.isArray(result.options) && truthy(ctx.query.absoluteAuth) && !ctx.identity?.isSuper) {
        result.options = (result.options as Row[]).filter((row) => !own.includes(Number(row.id)));
      }
      return Array.isArray(result.options) ? result : { ...result, group: own };
    },
  },
};
