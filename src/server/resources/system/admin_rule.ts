import { idIn, ruleHooks } from '../permission-sets.js';

/** Admin menu rules (docs/wire-contract.md#admin-rules): non-super admins only see the rules they hold. */
export const adminRuleHooks = ruleHooks('admin_rule', 'admin_group', {
  weighFromId: false,
  async scope(operator) {
    const identity = operator.identity;
    if (!identity || identity.isSuper) return undefined;
    return idIn([...identity.ruleIds]);
  },
});
