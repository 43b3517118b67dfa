import type { InputOverrides } from '../../GeneratedInputs.js';
import { ruleScreenInputs } from '../rule-screen-inputs.js';

/** Recycle-bin rules (docs/wire-contract.md#recycle-bin): the screen a rule covers is picked from a list. */
export function recycleRuleInputs(): InputOverrides {
  return ruleScreenInputs('recycle');
}
