import type { ResourceHooks } from '../../app-context.js';

/** The operation log (docs/wire-contract.md#operation-log): admins other than super admins see only their own entries. */
export const adminLogHooks: ResourceHooks = {
  async scope(operator) {
    const identity = operator.identity;
    if (!identity || identity.isSuper) return undefined;
    return (eb) => eb(eb.ref('admin_id'), '=', identity.id);
  },
};
