import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { readOnlyListOverride } from '../../read-only-list.js';
import { lazyComponent } from '../../../../components/lazy-component.js';

/** The reconcile dialog loads with the participations' list, the timeline when a row's details open. */
const EventTimeline = lazyComponent(async () => (await import('./EventTimeline.js')).EventTimeline);
const ReconcileButton = lazyComponent(async () => (await import('./ReconcileButton.js')).ReconcileButton);

/** Participations: the generated read-only list (details show the history as a timeline) with reconciliation. */
export function participationOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const details = { events: <EventTimeline definition={definition} /> };
  return readOnlyListOverride(definition, {
    messages: ['admin/survey'],
    table: <GeneratedTable definition={definition} editable={false} details={details} />,
    actions: <ReconcileButton />,
  });
}
