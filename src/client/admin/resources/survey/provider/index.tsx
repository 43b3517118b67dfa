import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../../shell/RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { lazyComponent } from '../../../../components/lazy-component.js';

/** The test-return dialog's code loads with the providers' list, not with every other list. */
const TestReturnButton = lazyComponent(async () => (await import('./TestReturnButton.js')).TestReturnButton);

/** Providers: the generated list, with "Test returns" on each row for admins holding its node. */
export function providerOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const ProviderList = () => (
    <RouteMessages names={['admin/survey']}>
      <GeneratedList definition={definition}>
        <GeneratedTable definition={definition} rowActions={<TestReturnButton definition={definition} />} />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: ProviderList };
}
