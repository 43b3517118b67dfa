import { ruleHooks } from '../permission-sets.js';

/** Member rules (docs/wire-contract.md#member-rules): a new rule's weigh starts at its id. */
export const userRuleHooks = ruleHooks('user_rule', 'user_group', { weighFromId: true });
