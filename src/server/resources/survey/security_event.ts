import type { ResourceHooks } from '../../app-context.js';
import { errors } from '../../errors.js';
import { readOnly } from '../read-only.js';

/** `survey.SecurityEvent`: the security log is written by the survey returns only; the back office reads it. */
export const securityEventHooks: ResourceHooks = {
  ...readOnly(errors.securityLogReadOnly, () => securityEventHooks),
};
