import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../../shell/RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { EventTimeline } from './EventTimeline.js';
import { ReconcileButton } from './ReconcileButton.js';

/** Participations: the generated read-only list (details show the history as a timeline) with reconciliation. */
export function participationOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const details = { events: <EventTimeline definition={definition} /> };
  const ParticipationList = () => (
    <RouteMessages names={['admin/survey']}>
      <GeneratedList definition={definition} creatable={false} editable={false} actions={<ReconcileButton />}>
        <GeneratedTable definition={definition} editable={false} details={details} />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: ParticipationList };
}
