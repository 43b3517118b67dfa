import { groupHooks } from '../permission-sets.js';

/** Member groups (docs/wire-contract.md#member-groups). */
export const userGroupHooks = groupHooks('user_rule');
