import { useCallback } from 'react';
import { HttpError, useNotify, useSaveContext } from 'react-admin';
import { isEnvelope } from '../../../contract/envelope.js';
import type { Row } from '../../../schema/definition.js';
import { errorMessageOf } from './error-report.js';

/**
 * The field a failed save names: the server answers a validation failure with `{code: 0, msg,
 * data: {field}}` (its message already translated); react-admin's own `body.errors` map is honoured too.
 */
export function serverFieldErrors(error: unknown, fields: ReadonlySet<string>): Record<string, string> | undefined {
  if (!(error instanceof HttpError) && !(typeof error === 'object' && error !== null && 'body' in error)) return undefined;
  const body = (error as HttpError).body as unknown;
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (typeof errors === 'object' && errors !== null && Object.keys(errors).length > 0) return errors as Record<string, string>;
  if (!isEnvelope(body)) return undefined;
  const data = body.data as { field?: unknown } | null;
  const field = typeof data === 'object' && data !== null && typeof data.field === 'string' ? data.field : undefined;
  if (!field || !fields.has(field)) return undefined;
  return { [field]: body.msg || errorMessageOf(error) };
}

/** The row's current `update_time` when the server refused a save over a row changed since it was loaded. */
function staleRecordOf(error: unknown): { updateTime: number } | undefined {
  const body = (error as { body?: unknown } | null)?.body;
  if (!isEnvelope(body)) return undefined;
  const data = body.data as { type?: unknown; update_time?: unknown } | null;
  return data && data.type === 'stale record' ? { updateTime: Number(data.update_time ?? 0) } : undefined;
}

/**
 * The form's submit: saves through the page's controller (create or edit), and when the server refuses
 * a field, returns it to react-hook-form so the message shows on that input; other failures are toasted
 * as react-admin would (the data provider's calls are quiet). A save refused because the row changed
 * since it was loaded goes to `onStale`, when given, to offer reloading or overwriting.
 */
export function useSaveWithServerErrors(fields: readonly string[], onStale?: (values: Row, updateTime: number) => void) {
  const { save } = useSaveContext();
  const notify = useNotify();
  return useCallback(
    async (values: Row) => {
      if (!save) return undefined;
      let failure: unknown;
      const returned = await save(values, {
        onError: (error: unknown) => {
          failure = error;
        },
      });
      if (returned) return returned;
      if (failure === undefined) return undefined;
      const stale = onStale ? staleRecordOf(failure) : undefined;
      if (stale && onStale) {
        onStale(values, stale.updateTime);
        return undefined;
      }
      const onFields = serverFieldErrors(failure, new Set(fields));
      if (onFields) return onFields;
      notify(errorMessageOf(failure), { type: 'error' });
      return undefined;
    },
    [save, notify, fields, onStale],
  );
}
