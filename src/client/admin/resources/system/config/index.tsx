import { Loading } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { lazyComponent } from '../../../../components/lazy-component.js';
import { RouteMessages } from '../../../../shell/RouteMessages.js';
import { GeneratedCreate } from '../../lazy-forms.js';
import type { ResourceDescriptor } from '../../index.js';

/** The settings screen, its inputs and editors load when it opens, not with every other list. */
const ConfigPage = lazyComponent(async () => (await import('./ConfigPage.js')).ConfigPage, <Loading />);
/** The add form's group choice, with the form's inputs. */
const ConfigGroupInput = lazyComponent(async () => (await import('./ConfigGroupInput.js')).ConfigGroupInput);

/**
 * System configuration (docs/wire-contract.md#site-configuration): the list is the grouped settings screen; items are added with
 * the generated form (the server marks them deletable) and never edited one by one.
 */
export function configOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const ConfigList = () => (
    <RouteMessages names={['admin/config']}>
      <ConfigPage definition={definition} />
    </RouteMessages>
  );
  // the group by its title, not its key; deletable is the server's to set
  const ConfigCreate = () => <GeneratedCreate definition={definition} overrides={{ group: <ConfigGroupInput definition={definition} />, allow_del: null }} />;
  return { list: ConfigList, create: ConfigCreate, edit: undefined };
}
