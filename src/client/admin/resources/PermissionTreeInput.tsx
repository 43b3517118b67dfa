import type { ResourceDefinition } from '../../../schema/definition.js';
import { fieldOf } from '../../../schema/definition.js';
import { RuleTreeInput } from '../inputs/RuleTreeInput.js';
import { referencedResourceName } from './resource-name.js';
import { useSchemaTranslate } from './schema-i18n.js';

/**
 * The `rules` field of a group form as the rule tree of `ruleSchema` (admin groups pick from
 * `system/admin_rule`, i.e. `auth.Rule/index`; member groups from `system/user_rule`).
 */
export function PermissionTreeInput({ definition, ruleSchema, source = 'rules' }: { definition: ResourceDefinition; ruleSchema: string; source?: string }) {
  const t = useSchemaTranslate();
  const field = fieldOf(definition, source);
  return <RuleTreeInput source={source} label={t(field?.title ?? source)} ruleResource={referencedResourceName(ruleSchema)} />;
}
