import type { InputOverrides } from '../../GeneratedInputs.js';
import { ruleScreenInputs } from '../rule-screen-inputs.js';

/** Sensitive-data rules (docs/wire-contract.md#recycle-bin): the screen a rule watches is picked from a list. */
export function sensitiveRuleInputs(): InputOverrides {
  return ruleScreenInputs('sensitive');
}
