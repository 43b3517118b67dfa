import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/schema/ajv.js';
import { createObjectCheck, createValueCheck, type SchemaIssue } from '../../../src/schema/value-checker.js';
import { writeSchemaOf } from '../../../src/schema/validate-input.js';
import { PROJECT_DEFINITIONS } from '../../support/definitions.js';

/**
 * The input checks run as plain code in the browser (no 'unsafe-eval') and on the server. They must
 * behave as ajv does with the project's options, so ajv is the reference here: same issues (keyword,
 * field path, the params the messages use), same coerced values, for every project schema.
 */

const ajv = createAjv({ coerce: true });

/** Values a form or a request may send, of every type, in and out of range, coercible or not. */
const SAMPLES: unknown[] = [
  undefined, null, '', ' ', '0', '1', '-3', '12.5', '12.50', '1e3', ' 7 ', 'Infinity', 'abc', 'true', 'false',
  0, 1, -1, 2.5, 0.07, 1e21, Number.MAX_SAFE_INTEGER + 2, true, false,
  'a@b.co', 'not an email', 'https://example.com/x', 'http//bad', '2024-01-31', '2024-02-30', '2024-01-31 08:30:00', '2024-01-31T08:30:00Z',
  '08:30', '25:00', '#409eff', 'rgb(1, 2, 3)', '13800138000', '12800138000', 'x'.repeat(300), '😀😀', '中文名字',
  [], [1, 2], [1, 1], ['1', 1], ['a', 'b', 'a'], [null], [{ a: 1 }, { a: 1 }], {}, { a: 1 },
];

type Reported = { keyword: string; instancePath: string; params: Record<string, unknown> };

/** What the messages read from an issue: ajv adds `schemaPath` and `message`, which nothing shows. */
function comparable(issues: readonly Reported[]): unknown[] {
  return issues.map(({ keyword, instancePath, params }) => ({ keyword, instancePath, params: keyword === 'uniqueItems' ? {} : params }));
}

function both(schema: { type: 'object'; properties: Record<string, Record<string, unknown>> }, input: Record<string, unknown>) {
  const ajvInput = structuredClone(input);
  const ours = structuredClone(input);
  const validate = ajv.compile(schema);
  validate(ajvInput);
  const issues: SchemaIssue[] = createObjectCheck(schema.properties)(ours);
  return { ajv: { issues: comparable(validate.errors ?? []), value: ajvInput }, ours: { issues: comparable(issues), value: ours } };
}

describe('input checks without eval', () => {
  const fieldSchemas = PROJECT_DEFINITIONS.flatMap((definition) =>
    Object.entries(writeSchemaOf(definition).properties).map(([name, schema]) => ({ id: definition.id, name, schema })),
  );

  it('covers every writable field of every project schema', () => {
    expect(fieldSchemas.length).toBeGreaterThan(100);
  });

  it('reports and coerces as ajv does, for every project field and every sample value', () => {
    const differences: string[] = [];
    for (const { id, name, schema } of fieldSchemas) {
      const objectSchema = { type: 'object' as const, properties: { [name]: schema } };
      for (const sample of SAMPLES) {
        const { ajv: expected, ours } = both(objectSchema, { [name]: sample });
        try {
          expect(ours).toEqual(expected);
        } catch {
          differences.push(`${id}.${name} ${JSON.stringify(schema)} ← ${JSON.stringify(sample)}: ajv ${JSON.stringify(expected)}, ours ${JSON.stringify(ours)}`);
        }
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it('agrees with ajv on every keyword a field may use, unions and list items included', () => {
    const properties: Record<string, Record<string, unknown>> = {
      name: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]' },
      code: { type: ['string', 'null'], format: 'money' },
      count: { type: ['integer', 'null'], minimum: 1, maximum: 9, multipleOf: 2 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.01 },
      level: { type: 'integer', enum: [1, 2, 3] },
      kind: { type: 'string', enum: ['a', 'b'] },
      on: { type: 'boolean' },
      tags: { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['x', 'y', 'z', '1'], maxLength: 1 } },
      ids: { type: 'array', uniqueItems: true, items: { type: 'integer' } },
      any: { type: 'array', uniqueItems: true },
      data: { type: ['object', 'null'] },
      when: { type: 'string', format: 'date-time' },
    };
    const differences: string[] = [];
    for (const [name, schema] of Object.entries(properties)) {
      for (const sample of SAMPLES) {
        const { ajv: expected, ours } = both({ type: 'object', properties: { [name]: schema } }, { [name]: sample });
        try {
          expect(ours).toEqual(expected);
        } catch {
          differences.push(`${name} ← ${JSON.stringify(sample)}: ajv ${JSON.stringify(expected)}, ours ${JSON.stringify(ours)}`);
        }
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it('refuses to build a check for a keyword it does not know, rather than ignoring it', () => {
    expect(() => createValueCheck({ type: 'string', const: 'x' }, '#/properties/name')).toThrow('#/properties/name: the input checks do not know the keyword "const"');
  });

  it('builds no function from text: the browser runs it without unsafe-eval', () => {
    const realFunction = globalThis.Function;
    const trap = new Proxy(realFunction, {
      construct() {
        throw new Error('new Function called');
      },
      apply() {
        throw new Error('Function() called');
      },
    });
    globalThis.Function = trap as FunctionConstructor;
    try {
      const check = createObjectCheck(writeSchemaOf(PROJECT_DEFINITIONS[0]).properties);
      expect(() => check({})).not.toThrow();
    } finally {
      globalThis.Function = realFunction;
    }
  });
});
