import { FORMAT_TESTS } from './formats.js';
import { compilePattern } from './pattern.js';

/**
 * Input checks of a schema's fields, run as plain code: nothing here builds a function from text, so
 * the browser runs them under a Content-Security-Policy without 'unsafe-eval' (ajv would compile each
 * schema with `new Function`). The server runs the same checks, so a form and the API agree. The
 * schemas reach the browser at run time (the back office's definitions, a quick task's form, a module
 * designed in the back office a minute ago), so there is nothing to compile at build time; checking
 * them with plain code needs no extra request and no generated script per schema.
 *
 * It knows exactly the keywords the field meta-schema (`meta-schema.ts`) allows a field, and behaves as
 * ajv does with `coerceTypes: true, allErrors: true, strict: true` (the project's `createAjv`): the same
 * coercions, in place; the same keywords in the same order, with ajv's keyword names, data paths and
 * params. `tests/unit/schema/value-checker.test.ts` holds the two side by side on every project schema. A
 * keyword it does not know throws when the checker is built, so a new one cannot be silently ignored.
 */

/** One failed keyword, shaped as ajv reports it (`instancePath` is `/<field>` or `/<field>/<index>`). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type FieldSchema = Record<string, unknown>;
/** Checks one value, appends what fails, and answers the value after coercion. */
type ValueCheck = (value: unknown, path: string, issues: SchemaIssue[]) => unknown;

const ANNOTATIONS = new Set(['title', 'description', 'default', 'readOnly', 'writeOnly', 'examples', '$comment']);
const KEYWORDS = new Set([
  'type', 'enum', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf',
  'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'items', 'uniqueItems',
]);

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const TYPE_TESTS: Record<string, (value: unknown) => boolean> = {
  null: (value) => value === null,
  boolean: (value) => typeof value === 'boolean',
  string: (value) => typeof value === 'string',
  number: isNumber,
  integer: (value) => isNumber(value) && Number.isInteger(value),
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/** A string that reads as a number: not empty, and `Number()` of it is not NaN ("12", " 3 ", "1e3"). */
const isNumeric = (value: unknown): value is string => typeof value === 'string' && value !== '' && !Number.isNaN(Number(value));

/**
 * Scalar coercion towards one type, PHP-like: `undefined` when this type takes nothing from the value.
 * Objects and arrays are never coerced.
 */
const COERCIONS: Record<string, (value: unknown) => unknown> = {
  string: (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value === null ? '' : undefined),
  number: (value) => (typeof value === 'boolean' || value === null || isNumeric(value) ? Number(value) : undefined),
  // a fraction is not taken; "Infinity" is (its remainder is NaN), as ajv takes it
  integer: (value) => (typeof value === 'boolean' || value === null || (isNumeric(value) && !(Number(value) % 1)) ? Number(value) : undefined),
  boolean: (value) => (value === 'false' || value === 0 || value === null ? false : value === 'true' || value === 1 ? true : undefined),
  null: (value) => (value === '' || value === 0 || value === false ? null : undefined),
};

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Whether two items of a list count as the same for `uniqueItems`; items not of the declared item type take no part. */
function hasDuplicate(list: readonly unknown[], itemTypes: readonly string[] | undefined): boolean {
  const counted = itemTypes ? list.filter((item) => itemTypes.some((type) => TYPE_TESTS[type]?.(item))) : list;
  for (let i = 0; i < counted.length; i++) {
    for (let j = i + 1; j < counted.length; j++) if (deepEqual(counted[i], counted[j])) return true;
  }
  return false;
}

/** Counts characters as people do: a character outside the BMP (an emoji) is one, not two. */
function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

function typesOf(schema: FieldSchema): string[] | undefined {
  if (schema.type === undefined) return undefined;
  return [schema.type].flat() as string[];
}

/** Build the check of one field (or one item of a list field) from its schema. */
export function createValueCheck(schema: FieldSchema, where = '#'): ValueCheck {
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) throw new Error(`${where}: the input checks do not know the keyword "${key}"`);
  }
  const types = typesOf(schema);
  for (const type of types ?? []) if (!TYPE_TESTS[type]) throw new Error(`${where}: unknown type "${type}"`);
  const enumValues = schema.enum as readonly unknown[] | undefined;
  const number = (name: string) => (typeof schema[name] === 'number' ? schema[name] : undefined);
  const maximum = number('maximum');
  const minimum = number('minimum');
  const exclusiveMaximum = number('exclusiveMaximum');
  const exclusiveMinimum = number('exclusiveMinimum');
  const multipleOf = number('multipleOf');
  const maxLength = number('maxLength');
  const minLength = number('minLength');
  const maxItems = number('maxItems');
  const minItems = number('minItems');
  // linear in the text whatever the pattern (`pattern.ts`); one the linear check cannot read throws here
  const pattern = typeof schema.pattern === 'string' ? compilePattern(schema.pattern) : undefined;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const formatTest = format === undefined ? undefined : FORMAT_TESTS[format];
  if (format !== undefined && !formatTest) throw new Error(`${where}: unknown format "${format}"`);
  const itemSchema = schema.items as FieldSchema | undefined;
  const itemCheck = itemSchema ? createValueCheck(itemSchema, `${where}/items`) : undefined;
  const itemTypes = itemSchema ? typesOf(itemSchema) : undefined;
  const uniqueItems = schema.uniqueItems === true;

  return (input, path, issues) => {
    let value = input;
    const fail = (keyword: string, params: Record<string, unknown>) => issues.push({ keyword, instancePath: path, params });
    if (types && !types.some((type) => TYPE_TESTS[type](value))) {
      let coerced: unknown;
      for (const type of types) {
        coerced = COERCIONS[type]?.(value);
        if (coerced !== undefined) break;
      }
      if (coerced === undefined) fail('type', { type: schema.type });
      else value = coerced;
    }
    if (enumValues && !enumValues.some((allowed) => allowed === value)) fail('enum', { allowedValues: enumValues });
    if (isNumber(value)) {
      if (maximum !== undefined && !(value <= maximum)) fail('maximum', { comparison: '<=', limit: maximum });
      if (minimum !== undefined && !(value >= minimum)) fail('minimum', { comparison: '>=', limit: minimum });
      if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) fail('exclusiveMaximum', { comparison: '<', limit: exclusiveMaximum });
      if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) fail('exclusiveMinimum', { comparison: '>', limit: exclusiveMinimum });
      if (multipleOf !== undefined) {
        const quotient = value / multipleOf;
        if (quotient !== Number.parseInt(String(quotient), 10)) fail('multipleOf', { multipleOf });
      }
    }
    if (typeof value === 'string') {
      if (maxLength !== undefined && characterCount(value) > maxLength) fail('maxLength', { limit: maxLength });
      if (minLength !== undefined && characterCount(value) < minLength) fail('minLength', { limit: minLength });
      if (pattern && !pattern.test(value)) fail('pattern', { pattern: schema.pattern });
      if (formatTest && !formatTest(value)) fail('format', { format });
    }
    if (Array.isArray(value)) {
      if (maxItems !== undefined && value.length > maxItems) fail('maxItems', { limit: maxItems });
      if (minItems !== undefined && value.length < minItems) fail('minItems', { limit: minItems });
      if (itemCheck) {
        const list = value;
        list.forEach((item, index) => {
          list[index] = itemCheck(item, `${path}/${index}`, issues);
        });
      }
      if (uniqueItems && hasDuplicate(value, itemTypes)) fail('uniqueItems', {});
    }
    return value;
  };
}

/**
 * The check of a write: each property the input holds (not `undefined`) is checked in the schema's
 * order, and its coerced value written back into `input`. Answers every issue, empty when all pass.
 */
export function createObjectCheck(properties: Readonly<Record<string, FieldSchema>>): (input: Record<string, unknown>) => SchemaIssue[] {
  const checks = Object.entries(properties).map(([name, schema]) => [name, createValueCheck(schema, `#/properties/${name}`)] as const);
  return (input) => {
    const issues: SchemaIssue[] = [];
    for (const [name, check] of checks) {
      if (input[name] === undefined) continue;
      input[name] = check(input[name], `/${name}`, issues);
    }
    return issues;
  };
}
