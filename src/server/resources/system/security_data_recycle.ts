import { dataRuleHooks, RECYCLE } from './data-rules.js';

/** Recycle-bin rules: which controller's deletes keep their rows in the bin. */
export const dataRecycleHooks = dataRuleHooks(RECYCLE, false);
