import { errors } from '../../errors.js';
import type { ResourceHooks } from '../hooks.js';

/** The SMS outbox is a record of what was sent: the back office reads it, nobody writes it by hand. */
const refuse = async () => {
  throw errors.outboxReadOnly();
};

export const smsOutboxHooks: ResourceHooks = {
  actions: { add: refuse, edit: refuse, del: refuse, sortable: refuse },
};
