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

/** Parse a query string in PHP bracket notation into nested objects and arrays. */
export function parseQuery(query: string): Record<string, unknown> {
  return qs.parse(query, {
    depth: 5,
    arrayLimit: 10_000,
    parameterLimit: 10_000,
  }) as Record<string, unknown>;
}
