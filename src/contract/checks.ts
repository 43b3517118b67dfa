/**
 * Checks that narrow an unknown value by looking at it, for the code of every floor: a list of constants
 * tells which strings belong to its union, and what a `catch` caught is read by what it holds.
 */

/** Whether `value` is one of `values`: narrows it to the union the constant list spells. */
export function isOneOf<T>(values: readonly T[], value: unknown): value is T {
  return values.some((item) => item === value);
}

/** The message of what a `catch` caught: an Error's own, anything else as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` property of what a `catch` caught (a Node, driver or database error), when it has one. */
export function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** Whether `value` is an object of named values (what a JSON object parses to): not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The property `key` of `value` when it is an object of named values, else undefined. */
export function propertyOf(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** The value a JSON text holds, unknown until a check reads it; undefined when there is no text or it is not JSON. */
export function parsedJson(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
