import { errors } from '../../errors.js';
import type { ResourceHooks } from '../hooks.js';
import { readOnlyActions } from '../read-only.js';

/** `survey.SecurityEvent`: the security log is written by the survey returns only; the back office reads it. */
export const securityEventHooks: ResourceHooks = {
  actions: readOnlyActions(errors.securityLogReadOnly, () => securityEventHooks),
};
