import type { QueryClient } from '@tanstack/react-query';
import type { AuthProvider, RaRecord } from 'react-admin';

/** The actions each row's buttons and switches ask `canAccess` about (edit: the edit button and the switches; delete). */
export const ROW_CHECKS = ['edit', 'delete'] as const;

/**
 * How long answers put in the cache ahead count as fresh: a screen that mounts within it reads them
 * instead of asking again (a later one asks, as usual).
 */
export const FETCHED_AHEAD_FRESH_MS = 10_000;

/**
 * Puts in `queryClient`, under the key react-admin's `useCanAccess` reads for a row, the answer of
 * `authProvider.canAccess` for each of these rows and actions, unless a fresh one is there already.
 * Rows drawn afterwards show their buttons in their first render; otherwise every row asks for itself
 * and draws again when the answer comes, which for a list of a hundred rows or more costs seconds.
 */
export async function fillRowChecks(
  queryClient: QueryClient,
  { authProvider, resource, records, actions = ROW_CHECKS }: { authProvider: AuthProvider | undefined; resource: string; records: readonly RaRecord[]; actions?: readonly string[] },
): Promise<void> {
  const updatedAt = Date.now() + FETCHED_AHEAD_FRESH_MS;
  for (const record of records) {
    for (const action of actions) {
      const key = ['auth', 'canAccess', { action, recordId: record.id, resource }];
      const known = queryClient.getQueryState(key);
      if (known?.status === 'success' && known.dataUpdatedAt >= Date.now()) continue;
      const allowed = (await authProvider?.canAccess?.({ action, resource, record })) ?? true;
      queryClient.setQueryData(key, allowed, { updatedAt });
    }
  }
}
