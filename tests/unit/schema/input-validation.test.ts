import { describe, expect, it } from 'vitest';
import { checkResource } from '../../../src/schema/check.js';
import { createInputValidator, type ValidationResult } from '../../../src/schema/validate-input.js';
import { sameText } from '../../../src/schema/local-text.js';

/** A product resource exercising every rule the validator applies. */
const product = checkResource('schemas/shop/product.json', {
  $id: 'shop/product',
  title: 'Product',
  type: 'object',
  'x-table': 'product',
  required: ['name', 'code', 'secret'],
  properties: {
    id: { type: 'integer', title: 'ID', readOnly: true },
    name: { type: 'string', title: 'Name', maxLength: 20 },
    code: { type: 'string', title: 'Code', pattern: '^[A-Z]{3}-\\d{3}$', 'x-patternMessage': 'Code looks like ABC-123' },
    quantity: { type: 'integer', title: 'Quantity', minimum: 0 },
    price: { type: 'string', title: 'Price', format: 'money' },
    status: { type: 'string', title: 'Status', enum: ['draft', 'live'], default: 'draft' },
    note: { type: ['string', 'null'], title: 'Note' },
    email: { type: 'string', title: 'Email', format: 'email', maxLength: 50 },
    opens_at: { type: 'string', title: 'Opens at', format: 'time', maxLength: 8 },
    secret: { type: 'string', title: 'Secret', writeOnly: true, maxLength: 64 },
    views: { type: 'integer', title: 'Views', readOnly: true },
  },
});

const validate = createInputValidator(product);
const complete = { name: 'Lamp', code: 'LMP-001', secret: 's3cret' };

function issuesOf(result: ValidationResult) {
  if (result.ok) throw new Error(`expected validation to fail, got ${JSON.stringify(result.value)}`);
  return result.issues;
}

function valueOf(result: ValidationResult) {
  if (!result.ok) throw new Error(`expected validation to pass, got ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('adding a record', () => {
  it('accepts a complete record', () => {
    expect(valueOf(validate(complete, 'add'))).toEqual(complete);
  });

  it('reports every required field that is missing or empty, by its title', () => {
    const issues = issuesOf(validate({ name: '', quantity: 1 }, 'add'));
    expect(issues).toEqual(expect.arrayContaining([
      { field: 'name', message: '%s cannot be empty', params: [sameText('Name')] },
      { field: 'code', message: '%s cannot be empty', params: [sameText('Code')] },
      { field: 'secret', message: '%s cannot be empty', params: [sameText('Secret')] },
    ]));
    expect(issues).toHaveLength(3);
  });
});

describe('optional fields left blank', () => {
  it('accepts a blank optional text whose format applies only to a value', () => {
    expect(valueOf(validate({ ...complete, email: '' }, 'add'))).toEqual({ ...complete, email: '' });
  });

  it('still checks the format of an optional text that holds a value', () => {
    expect(issuesOf(validate({ ...complete, email: 'not-an-email' }, 'add'))).toEqual([
      { field: 'email', message: 'Please enter the correct email address', params: [sameText('Email')] },
    ]);
  });

  it('accepts a time of day as forms send it, and refuses a malformed one', () => {
    expect(valueOf(validate({ ...complete, opens_at: '08:30:00' }, 'add'))).toMatchObject({ opens_at: '08:30:00' });
    expect(valueOf(validate({ ...complete, opens_at: '08:30' }, 'add'))).toMatchObject({ opens_at: '08:30' });
    expect(issuesOf(validate({ ...complete, opens_at: '25:00' }, 'add'))[0]).toMatchObject({ field: 'opens_at' });
  });

  it('refuses a blank amount: amounts are numbers', () => {
    expect(issuesOf(validate({ ...complete, price: '' }, 'add'))).toEqual([
      { field: 'price', message: '%s must be an amount such as 12.50', params: [sameText('Price')] },
    ]);
  });
});

describe('editing a record', () => {
  it('accepts only the fields sent: required fields left out are not complained about', () => {
    expect(valueOf(validate({ quantity: 3 }, 'edit'))).toEqual({ quantity: 3 });
  });

  it('still refuses to blank a required field that is sent', () => {
    expect(issuesOf(validate({ name: '' }, 'edit'))).toEqual([{ field: 'name', message: '%s cannot be empty', params: [sameText('Name')] }]);
  });

  it('ignores a write-only field sent empty (the stored password stays)', () => {
    expect(valueOf(validate({ name: 'Lamp', secret: '' }, 'edit'))).toEqual({ name: 'Lamp' });
    expect(valueOf(validate({ name: 'Lamp', secret: null }, 'edit'))).toEqual({ name: 'Lamp' });
  });

  it('takes a write-only field that is filled in', () => {
    expect(valueOf(validate({ secret: 'new-one' }, 'edit'))).toEqual({ secret: 'new-one' });
  });
});

describe('types', () => {
  it('coerces form strings to integers ("5" → 5) without touching the input', () => {
    const input = { ...complete, quantity: '5' };
    expect(valueOf(validate(input, 'add')).quantity).toBe(5);
    expect(input.quantity).toBe('5');
  });

  it('rejects a value that cannot be coerced to an integer', () => {
    expect(issuesOf(validate({ quantity: 'five' }, 'edit'))).toEqual([{ field: 'quantity', message: '%s must be an integer', params: [sameText('Quantity')] }]);
  });

  it('rejects an object sent for a text field', () => {
    expect(issuesOf(validate({ ...complete, name: { first: 'Lamp' } }, 'add'))).toEqual([{ field: 'name', message: '%s must be text', params: [sameText('Name')] }]);
  });

  it('keeps null for a nullable field and drops it for a non-nullable one', () => {
    expect(valueOf(validate({ note: null, quantity: null }, 'edit'))).toEqual({ note: null });
  });

  it('enforces bounds with the limit as a parameter', () => {
    expect(issuesOf(validate({ quantity: -1 }, 'edit'))).toEqual([{ field: 'quantity', message: '%s must not be less than %d', params: [sameText('Quantity'), 0] }]);
    expect(issuesOf(validate({ name: 'x'.repeat(21) }, 'edit'))).toEqual([
      { field: 'name', message: '%s cannot be longer than %d characters', params: [sameText('Name'), 20] },
    ]);
  });
});

describe('keys the client may not write', () => {
  it('drops unknown keys', () => {
    expect(valueOf(validate({ ...complete, colour: 'red', sku: 'X1' }, 'add'))).toEqual(complete);
  });

  it('drops read-only keys such as the id and counters', () => {
    expect(valueOf(validate({ ...complete, id: 99, views: 1000 }, 'add'))).toEqual(complete);
  });
});

describe('formats, enums and patterns', () => {
  it('accepts money as an amount with at most two decimals', () => {
    for (const price of ['12.50', '0', '-3', '0.5']) expect(valueOf(validate({ price }, 'edit'))).toEqual({ price });
  });

  it('rejects money with three decimals or letters, with the money message', () => {
    for (const price of ['12.345', 'abc', '1,50']) {
      expect(issuesOf(validate({ price }, 'edit'))).toEqual([{ field: 'price', message: '%s must be an amount such as 12.50', params: [sameText('Price')] }]);
    }
  });

  it('rejects a value outside the enum, listing the allowed values (by their labels, here none)', () => {
    expect(issuesOf(validate({ status: 'archived' }, 'edit'))).toEqual([
      { field: 'status', message: '%s must be one of: %s', params: [sameText('Status'), { 'zh-cn': 'draft、live', en: 'draft, live' }] },
    ]);
    expect(valueOf(validate({ status: 'live' }, 'edit'))).toEqual({ status: 'live' });
  });

  it('explains a pattern failure with x-patternMessage', () => {
    expect(issuesOf(validate({ code: 'lamp' }, 'edit'))).toEqual([{ field: 'code', message: 'Code looks like ABC-123', params: [sameText('Code')] }]);
    expect(valueOf(validate({ code: 'LMP-002' }, 'edit'))).toEqual({ code: 'LMP-002' });
  });

  it('falls back to a generic message for a pattern without x-patternMessage', () => {
    const definition = checkResource('schemas/shop/tag.json', {
      $id: 'shop/tag',
      title: 'Tag',
      type: 'object',
      'x-table': 'tag',
      properties: { id: { type: 'integer', readOnly: true }, slug: { type: 'string', title: 'Slug', pattern: '^[a-z-]+$' } },
    });
    expect(issuesOf(createInputValidator(definition)({ slug: 'Not A Slug' }, 'edit'))).toEqual([
      { field: 'slug', message: '%s has an invalid format', params: [sameText('Slug')] },
    ]);
  });
});
