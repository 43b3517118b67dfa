import { dataRuleHooks, SENSITIVE } from './data-rules.js';

/** Sensitive-data rules: which fields' edits are logged; `edit` answers the choices beside the row. */
export const sensitiveDataHooks = dataRuleHooks(SENSITIVE, true);
