/**
 * What a refused call says, read from the envelope the http client attaches to its error (react-admin's
 * `HttpError`, `body` = `{code, msg, data}`): the message, and the field or fields it names.
 */

/** The field a refusal names (`data.field`), if any. */
export function fieldOf(error: unknown): string | undefined {
  const data = (error as { body?: { data?: { field?: unknown } } }).body?.data;
  return data && typeof data.field === 'string' ? data.field : undefined;
}

/** Each field's message of a refusal: `data.errors` when the server lists them all, else the one `data.field`. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const data = (error as { body?: { data?: { errors?: unknown } } }).body?.data;
  const listed = data && typeof data.errors === 'object' && data.errors !== null ? (data.errors as Record<string, unknown>) : {};
  const found = Object.fromEntries(Object.entries(listed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  if (Object.keys(found).length > 0) return found;
  const field = fieldOf(error);
  return field ? { [field]: messageOf(error) } : {};
}

/** The server's message of a failed call (react-admin `HttpError` carrying the envelope). */
export function messageOf(error: unknown): string {
  const body = (error as { body?: { msg?: unknown } }).body;
  if (body && typeof body.msg === 'string' && body.msg) return body.msg;
  return error instanceof Error ? error.message : String(error);
}
