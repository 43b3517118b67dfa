import { ruleHooks } from '../permission-sets.js';

/** Member rules (contract §6.7): a new rule's weigh starts at its id. */
export const userRuleHooks = ruleHooks('user_rule', 'user_group', { weighFromId: true });
