import qs from 'qs';

/**
 * PHP bracket notation, as axios produces it for BuildAdmin (docs/wire-contract.md#query-strings): flat arrays of scalars as
 * `ids[]=1&ids[]=2`, arrays of objects with indices `search[0][field]=status`, `null`/`undefined`
 * omitted, booleans as `true`/`false`, spaces as `+`, and `[`, `]`, `,`, `:` left unescaped.
 */
export function stringifyQuery(params: Record<string, unknown>): string {
  const pairs: string[] = [];
  const visit = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      const scalars = value.every((item) => item === null || typeof item !== 'object');
      value.forEach((item, index) => visit(scalars ? `${key}[]` : `${key}[${index}]`, item));
      return;
    }
    if (value instanceof Date) {
      pairs.push(`${encodeKey(key)}=${encodePart(value.toISOString())}`);
      return;
    }
    if (typeof value === 'object') {
      for (const [child, item] of Object.entries(value)) visit(`${key}[${child}]`, item);
      return;
    }
    pairs.push(`${encodeKey(key)}=${encodePart(String(value))}`);
  };
  for (const [key, value] of Object.entries(params)) visit(key, value);
  return pairs.join('&');
}

function encodePart(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']')
    .replace(/%2C/gi, ',')
    .replace(/%3A/gi, ':');
}

function encodeKey(key: string): string {
  return encodePart(key);
}

/** qs's limit on the pairs it reads; past it the rest are dropped. */
const PARAMETER_LIMIT = 10_000;

/** Parse a query string in PHP bracket notation into nested objects and arrays. */
export function parseQuery(query: string): Record<string, unknown> {
  return plainPairs(query) ?? qs.parse(query, { depth: 5, arrayLimit: 10_000, parameterLimit: PARAMETER_LIMIT });
}

/** No percent escape and no bracket: a query string of plain `key=value` pairs. */
const PLAIN = /^[^%[\]]*$/;

/**
 * What `qs.parse` makes of a query string of plain pairs (`page=1&limit=10`, most list requests), read
 * without its general machinery; none for any other string. As qs does: `+` is a space, a key given
 * twice gathers its values in order, a key without `=` has the empty value, and an empty key or one of
 * Object's own (`toString`) is dropped. tests/unit/query-string.test.ts compares both on random strings.
 */
function plainPairs(query: string): Record<string, unknown> | undefined {
  if (!PLAIN.test(query)) return undefined;
  const parts = query.split('&');
  if (parts.length > PARAMETER_LIMIT) return undefined;
  const result: Record<string, unknown> = {};
  for (const part of parts) {
    const equals = part.indexOf('=');
    const key = (equals < 0 ? part : part.slice(0, equals)).replaceAll('+', ' ');
    if (key === '' || key in Object.prototype) continue;
    const value = equals < 0 ? '' : part.slice(equals + 1).replaceAll('+', ' ');
    const earlier = result[key];
    if (earlier === undefined) result[key] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else result[key] = [earlier, value];
  }
  return result;
}
