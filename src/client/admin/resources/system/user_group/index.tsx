import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { GeneratedCreate, GeneratedEdit } from '../../lazy-forms.js';
import type { ResourceDescriptor } from '../../index.js';
import { lazyComponent } from '../../../../components/lazy-component.js';

/** The rule tree loads with the add or edit dialog that draws it. */
const PermissionTreeInput = lazyComponent(async () => (await import('../../PermissionTreeInput.js')).PermissionTreeInput);

/** Member groups (docs/wire-contract.md#member-groups): permissions picked on the member rule tree (`user.Rule/index`). */
export function userGroupOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const overrides = { rules: <PermissionTreeInput definition={definition} ruleSchema="system/user_rule" /> };
  const UserGroupCreate = () => <GeneratedCreate definition={definition} overrides={overrides} />;
  const UserGroupEdit = () => <GeneratedEdit definition={definition} overrides={overrides} />;
  return { create: UserGroupCreate, edit: UserGroupEdit };
}
