import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { GeneratedCreate, GeneratedEdit } from '../../lazy-forms.js';
import type { ResourceDescriptor } from '../../index.js';
import { lazyComponent } from '../../../../components/lazy-component.js';

/** The rule tree loads with the add or edit dialog that draws it. */
const PermissionTreeInput = lazyComponent(async () => (await import('../../PermissionTreeInput.js')).PermissionTreeInput);

/**
 * Admin groups (docs/wire-contract.md#admin-groups): the permissions are picked on the admin rule tree, and the form posts
 * the checked plus half-checked rule ids. The list is the generated tree list.
 */
export function adminGroupOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const overrides = { rules: <PermissionTreeInput definition={definition} ruleSchema="system/admin_rule" /> };
  const AdminGroupCreate = () => <GeneratedCreate definition={definition} overrides={overrides} />;
  const AdminGroupEdit = () => <GeneratedEdit definition={definition} overrides={overrides} />;
  return { create: AdminGroupCreate, edit: AdminGroupEdit };
}
