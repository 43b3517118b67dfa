import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { readOnlyListOverride } from '../../read-only-list.js';
import { RecordDetailsButton } from '../../RecordDetails.js';
import { lazyComponent } from '../../../../components/lazy-component.js';
import { HeldReviewButton } from './HeldReviewButton.js';

/** The reconcile dialog loads with the participations' list, the timeline when a row's details open. */
const EventTimeline = lazyComponent(async () => (await import('./EventTimeline.js')).EventTimeline);
const ReconcileButton = lazyComponent(async () => (await import('./ReconcileButton.js')).ReconcileButton);

/**
 * Participations: the generated read-only list (details show the history as a timeline) with
 * reconciliation; a row whose credit is held for review is approved or rejected on the row and in its details.
 */
export function participationOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const details = { events: <EventTimeline definition={definition} /> };
  const review = (
    <>
      <HeldReviewButton decision="approve" />
      <HeldReviewButton decision="reverse" />
    </>
  );
  return readOnlyListOverride(definition, {
    messages: ['admin/survey'],
    table: (
      <GeneratedTable
        definition={definition}
        editable={false}
        rowActions={
          <>
            <RecordDetailsButton definition={definition} renderers={details} actions={review} />
            {review}
          </>
        }
      />
    ),
    actions: <ReconcileButton />,
  });
}
