import { useCallback } from 'react';
import { useNotify } from 'react-admin';

/**
 * Data provider calls run quietly (the http client does not toast them; react-admin notifies
 * `error.message` for its own mutations), so a screen calling the data provider itself toasts the
 * failure the same way. Direct http client calls (upload, area) keep the client's own toasts.
 */
export function errorMessageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error && error.message) return error.message;
  return 'ra.notification.http_error';
}

export function useNotifyError(): (error: unknown) => void {
  const notify = useNotify();
  return useCallback((error: unknown) => notify(errorMessageOf(error), { type: 'error' }), [notify]);
}
