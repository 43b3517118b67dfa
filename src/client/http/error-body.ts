/**
 * What a refused call says, read from the envelope the http client attaches to its error (react-admin's
 * `HttpError`, `body` = `{code, msg, data}`): the message, and the field or fields it names.
 */
import { isRecord, propertyOf } from '../../contract/checks.js';

/** The envelope's `data` of a refusal, when it is an object. */
export function refusalDataOf(error: unknown): Record<string, unknown> | undefined {
  const data = propertyOf(propertyOf(error, 'body'), 'data');
  return isRecord(data) ? data : undefined;
}

/** The field a refusal names (`data.field`), if any. */
export function fieldOf(error: unknown): string | undefined {
  const field = refusalDataOf(error)?.field;
  return typeof field === 'string' ? field : undefined;
}

/** Each field's message of a refusal: `data.errors` when the server lists them all, else the one `data.field`. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const errors = refusalDataOf(error)?.errors;
  const listed = isRecord(errors) ? errors : {};
  const found = Object.fromEntries(Object.entries(listed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  if (Object.keys(found).length > 0) return found;
  const field = fieldOf(error);
  return field ? { [field]: messageOf(error) } : {};
}

/** The server's message of a failed call (react-admin `HttpError` carrying the envelope). */
export function messageOf(error: unknown): string {
  const msg = propertyOf(propertyOf(error, 'body'), 'msg');
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error ? error.message : String(error);
}
