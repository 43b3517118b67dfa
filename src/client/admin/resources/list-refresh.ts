import type { QueryClient } from '@tanstack/react-query';

/**
 * After a row of `resource` was saved: its lists fetch their rows once more (the one shown at once, any
 * other when it is next drawn), so a new row, a changed order or a row that no longer matches the filter
 * shows as the server has it. The save's answer is not read back: this read is the one a save costs.
 */
export function refreshLists(queryClient: QueryClient, resource: string): void {
  void queryClient.invalidateQueries({ queryKey: [resource, 'getList'] });
}
