import type { ResourceHooks } from '../../app-context.js';
import { errors } from '../../errors.js';

/**
 * The SMS outbox (`SMS_DRIVER=outbox`, development only) is a record of what was sent: nobody writes it
 * by hand, and only super admins read it, whatever rules a group holds, since it is where members' texts are.
 */
const refuse = async () => {
  throw errors.outboxReadOnly();
};

export const smsOutboxHooks: ResourceHooks = {
  actions: { add: refuse, edit: refuse, del: refuse, sortable: refuse },
  // Every read (list, select, export, one row) goes through the scope: the refusal holds for all of them.
  async scope(operator) {
    if (!operator.identity?.isSuper) throw errors.outboxSuperOnly();
    return undefined;
  },
  // The writes refuse every caller, so they check no permission node.
  noNeedPermission: ['add', 'edit', 'del', 'sortable'],
};
