import type { ResourceDefinition } from '../../../../../schema/definition.js';
import type { ResourceDescriptor } from '../../index.js';
import { ruleFormOverride } from '../rule-form.js';

/**
 * Admin menu rules (docs/wire-contract.md#admin-rules): the generated tree list already drag-sorts within one parent and
 * picks icons; the form shows only the fields that apply to the rule's type and menu type.
 */
export function adminRuleOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  return ruleFormOverride(definition);
}
