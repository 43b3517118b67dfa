import { groupHooks } from '../permission-sets.js';

/** Member groups (contract §6.6). */
export const userGroupHooks = groupHooks('user_rule');
