import type { ReactNode } from 'react';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { RouteMessages } from '../../shell/RouteMessages.js';
import { GeneratedList } from './GeneratedList.js';
import type { ResourceDescriptor } from './index.js';

interface ReadOnlyListOptions {
  /** the screen's own message files, loaded with its route */
  messages: readonly string[];
  /** the table shown in place of the generated one (review steps, log actions, custom details) */
  table: ReactNode;
  /** toolbar buttons beside the generated ones */
  actions?: ReactNode;
}

/**
 * The override of a screen whose rows are never added or edited by hand (submissions, payouts, logs):
 * the generated list, without add and edit, around the screen's own table.
 */
export function readOnlyListOverride(definition: ResourceDefinition, { messages, table, actions }: ReadOnlyListOptions): Partial<ResourceDescriptor> {
  const ReadOnlyList = () => (
    <RouteMessages names={messages}>
      <GeneratedList definition={definition} creatable={false} editable={false} actions={actions}>
        {table}
      </GeneratedList>
    </RouteMessages>
  );
  return { list: ReadOnlyList };
}
