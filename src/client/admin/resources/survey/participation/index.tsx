import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import type { ResourceDescriptor } from '../../index.js';
import { ReconcileButton } from './ReconcileButton.js';

/** Participations: the generated read-only list (details show the history) with reconciliation. */
export function participationOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const ParticipationList = () => (
    <RouteMessages names={['admin/survey']}>
      <GeneratedList definition={definition} creatable={false} editable={false} actions={<ReconcileButton />} />
    </RouteMessages>
  );
  return { list: ParticipationList };
}
