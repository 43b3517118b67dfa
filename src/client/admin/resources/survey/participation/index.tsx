import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { EventTimeline } from './EventTimeline.js';
import { ReconcileButton } from './ReconcileButton.js';
import { readOnlyListOverride } from '../../read-only-list.js';

/** Participations: the generated read-only list (details show the history as a timeline) with reconciliation. */
export function participationOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const details = { events: <EventTimeline definition={definition} /> };
  return readOnlyListOverride(definition, {
    messages: ['admin/survey'],
    table: <GeneratedTable definition={definition} editable={false} details={details} />,
    actions: <ReconcileButton />,
  });
}
