import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';
import { RouteMessages } from '../../../shell/RouteMessages.js';
import type { InputOverrides } from '../GeneratedInputs.js';

/** The picker loads with the add or edit dialog that draws it. */
const RuleScreenInput = lazy(async () => ({ default: (await import('./rule-screen-input.js')).RuleScreenInput }));

/**
 * A data-security rule's add and edit dialogs: the screen it covers is picked from a list, which fills
 * the controller, the table and the key, so those are not typed (nor the connection, always the default
 * one here).
 */
export function ruleScreenInputs(purpose: 'recycle' | 'sensitive'): InputOverrides {
  return {
    controller: (
      <RouteMessages names={['admin/security']}>
        <Suspense fallback={<Loading />}>
          <RuleScreenInput purpose={purpose} />
        </Suspense>
      </RouteMessages>
    ),
    data_table: null,
    primary_key: null,
    connection: null,
  };
}
