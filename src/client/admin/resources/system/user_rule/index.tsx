import type { ResourceDefinition } from '../../../../../schema/definition.js';
import type { ResourceDescriptor } from '../../index.js';
import { ruleFormOverride } from '../rule-form.js';

/**
 * Member menu and route rules (docs/wire-contract.md#member-rules): the form shows only the fields that apply to the rule's
 * type (route, menu directory, menu, navigation, button) and menu type.
 */
export function userRuleOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  return ruleFormOverride(definition);
}
