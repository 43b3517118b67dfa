import { useCallback } from 'react';
import { useNotify, useSaveContext } from 'react-admin';
import { isEnvelope } from '../../../contract/envelope.js';
import type { Row } from '../../../schema/definition.js';
import { errorMessageOf } from './error-report.js';
import { isRecord, propertyOf } from '../../../contract/checks.js';

/**
 * The field a failed save names: the server answers a validation failure with `{code: 0, msg,
 * data: {field}}` (its message already translated); react-admin's own `body.errors` map is honoured too.
 */
export function serverFieldErrors(error: unknown, fields: ReadonlySet<string>): Record<string, string> | undefined {
  const body = propertyOf(error, 'body');
  if (!isRecord(body)) return undefined;
  const listed = isRecord(body.errors) ? Object.entries(body.errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string') : [];
  if (listed.length > 0) return Object.fromEntries(listed);
  if (!isEnvelope(body)) return undefined;
  const named = propertyOf(body.data, 'field');
  const field = typeof named === 'string' ? named : undefined;
  if (!field || !fields.has(field)) return undefined;
  return { [field]: body.msg || errorMessageOf(error) };
}

/** The row's current `update_time` when the server refused a save over a row changed since it was loaded. */
function staleRecordOf(error: unknown): { updateTime: number } | undefined {
  const body = propertyOf(error, 'body');
  if (!isEnvelope(body)) return undefined;
  return propertyOf(body.data, 'type') === 'stale record' ? { updateTime: Number(propertyOf(body.data, 'update_time') ?? 0) } : undefined;
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
