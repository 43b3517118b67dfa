import type { ResourceHooks } from '../../app-context.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';
import { adminLogTitleIn } from '../../http/admin-log.js';

/**
 * The operation log (docs/wire-contract.md#side-effects-of-admin-writes): admins other than super admins see only their
 * own entries, and every title reads in the reader's language.
 */
export const adminLogHooks: ResourceHooks = {
  async present(operator, rows) {
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    return rows.map((row) => ({ ...row, title: adminLogTitleIn(operator.app, lang, row.title) }));
  },

  async scope(operator) {
    const identity = operator.identity;
    if (!identity || identity.isSuper) return undefined;
    return (eb) => eb(eb.ref('admin_id'), '=', identity.id);
  },
};
