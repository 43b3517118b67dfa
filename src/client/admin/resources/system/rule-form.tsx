import type { ResourceDefinition } from '../../../../schema/definition.js';
import { lazyComponent } from '../../../components/lazy-component.js';
import { GeneratedCreate, GeneratedEdit } from '../lazy-forms.js';
import type { ResourceDescriptor } from '../index.js';

/** The inputs load with the add or edit dialog that draws them, beside the generated form's own code. */
const RuleInputs = lazyComponent(async () => (await import('./rule-inputs.js')).RuleInputs);

/** Create and edit screens of a rule resource whose form follows the rule's type and menu type. */
export function ruleFormOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const RuleCreate = () => (
    <GeneratedCreate definition={definition}>
      <RuleInputs definition={definition} mode="add" />
    </GeneratedCreate>
  );
  const RuleEdit = () => (
    <GeneratedEdit definition={definition}>
      <RuleInputs definition={definition} mode="edit" />
    </GeneratedEdit>
  );
  return { create: RuleCreate, edit: RuleEdit };
}
