import { LANGUAGES, type Language } from '../contract/headers.js';
import { formatPercent } from '../contract/money.js';
import { CUSTOM_FORMATS } from './formats.js';
import { valueLabel, writableFields, type FieldDefinition, type ResourceDefinition, type Row } from './definition.js';
import { sameText, type LocalText, type MessageParam } from './local-text.js';
import { createObjectCheck, type SchemaIssue } from './value-checker.js';

/** One problem with one field; `message` is a translation key whose `%s`/`%d` take `params` in order. */
export interface ValidationIssue {
  field: string;
  message: string;
  /** the first param is always the field title */
  params: MessageParam[];
}

export type ValidationResult = { ok: true; value: Row } | { ok: false; issues: ValidationIssue[] };

export type WriteMode = 'add' | 'edit';

const TYPE_MESSAGES: Record<string, string> = {
  integer: '%s must be an integer',
  number: '%s must be a number',
  string: '%s must be text',
  boolean: '%s must be true or false',
  array: '%s must be a list',
  object: '%s must be an object',
};

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Please enter the correct email address',
  mobile: 'Please enter the correct mobile number',
  money: '%s must be an amount such as 12.50',
  date: '%s must be a date such as 2024-01-31',
  'date-time': '%s must be a date and time',
  time: '%s must be a time such as 08:30:00',
  uri: '%s must be a URL',
  color: '%s must be a colour such as #409eff',
};

/** The labels of a field's enum values, in each language: what a person picks from, not the stored keys. */
function labelList(field: FieldDefinition | undefined): LocalText {
  const labels = (field?.enum ?? []).map((value) => valueLabel(field, value));
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, labels.map((label) => label[lang]).join(lang === 'zh-cn' ? '、' : ', ')])) as Record<Language, string>;
}

/** A rate in basis points that is no whole number of them, or out of its bounds: said as the percentage a person typed. */
function percentIssueOf(error: SchemaIssue, field: FieldDefinition): ValidationIssue {
  const limit = sameText(formatPercent(Number(error.params.limit)));
  switch (error.keyword) {
    case 'minimum':
    case 'exclusiveMinimum':
      return { field: field.name, message: '%s must not be less than %s', params: [field.title, limit] };
    case 'maximum':
    case 'exclusiveMaximum':
      return { field: field.name, message: '%s must not be more than %s', params: [field.title, limit] };
    default:
      return { field: field.name, message: PERCENT_MESSAGE, params: [field.title] };
  }
}

const PERCENT_MESSAGE = '%s must be a percentage such as 15 or 15.5';

function issueOf(error: SchemaIssue, fields: Map<string, FieldDefinition>): ValidationIssue {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const name = missing ?? error.instancePath.split('/')[1] ?? '';
  const field = fields.get(name);
  const title = field?.title ?? sameText(name);
  if (field?.format === 'percent' && error.keyword !== 'required') return percentIssueOf(error, field);
  switch (error.keyword) {
    case 'required':
      return { field: name, message: '%s cannot be empty', params: [title] };
    case 'type': {
      const expected = String((error.params as { type: string }).type).split(',')[0];
      return { field: name, message: TYPE_MESSAGES[expected] ?? '%s is invalid', params: [title] };
    }
    case 'minLength':
      return { field: name, message: '%s must be at least %d characters', params: [title, Number(error.params.limit)] };
    case 'maxLength':
      return { field: name, message: '%s cannot be longer than %d characters', params: [title, Number(error.params.limit)] };
    case 'minimum':
    case 'exclusiveMinimum':
      return { field: name, message: '%s must not be less than %d', params: [title, Number(error.params.limit)] };
    case 'maximum':
    case 'exclusiveMaximum':
      return { field: name, message: '%s must not be greater than %d', params: [title, Number(error.params.limit)] };
    case 'enum':
      return { field: name, message: '%s must be one of: %s', params: [title, labelList(field)] };
    case 'pattern':
      return { field: name, message: field?.patternMessage ?? '%s has an invalid format', params: [title] };
    case 'format': {
      const format = String((error.params as { format: string }).format);
      return { field: name, message: FORMAT_MESSAGES[format] ?? '%s has an invalid format', params: [title] };
    }
    default:
      return { field: name, message: '%s is invalid', params: [title] };
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * A reference names no row when it is empty or 0 (what a select left unset sends; no row has key 0),
 * and a list of references when any of its items names none.
 */
function isEmptyReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0 || value.some(isEmptyReference);
  return isEmpty(value) || value === 0 || value === '0';
}

const NOT_SENT = Symbol('not sent');

/** An optional number (a count, a number of days, a time), not an amount: a form sends it blank when cleared. */
function isBlankableNumber(field: FieldDefinition | undefined, required: boolean): field is FieldDefinition {
  return field !== undefined && !required && (field.wireType === 'integer' || field.wireType === 'number') && field.format !== 'money';
}

/**
 * A number left blank means "not set": null where the column takes one (a survey's hold period then
 * follows its provider's), else its default; on add simply not sent, so a preset or hook may still fill it.
 */
function blankNumber(field: FieldDefinition, mode: WriteMode): unknown {
  if (field.nullable) return null;
  if (mode === 'add' || field.default === undefined) return NOT_SENT;
  return structuredClone(field.default);
}

/**
 * The schema a write is checked against: each writable field's own schema without its annotations,
 * integers bounded to what the columns hold.
 */
export function writeSchemaOf(definition: ResourceDefinition): { type: 'object'; properties: Record<string, Record<string, unknown>> } {
  const properties = (definition.rowSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return {
    type: 'object',
    properties: Object.fromEntries(writableFields(definition).map((field) => [field.name, withinColumnRange(stripAnnotations(properties[field.name]))])),
  };
}

/**
 * Validate request input for `add` (every required field) or `edit` (only the fields sent). Unknown and
 * read-only keys are dropped, scalars are coerced the way PHP would, and nothing of the input is mutated.
 */
export function createInputValidator(definition: ResourceDefinition): (input: Row, mode: WriteMode) => ValidationResult {
  const writable = writableFields(definition);
  const fields = new Map(writable.map((field) => [field.name, field]));
  const required = ((definition.rowSchema.required ?? []) as string[]).filter((name) => fields.has(name));
  // A required reference sent as null is refused like an empty one, not taken as "not sent".
  const requiredReference = (name: string) => required.includes(name) && fields.get(name)?.ref !== undefined;
  const check = createObjectCheck(writeSchemaOf(definition).properties);

  return (input, mode) => {
    const value: Row = {};
    for (const [key, item] of Object.entries(input)) {
      if (!fields.has(key)) continue;
      // Optional fields sent as null by forms fall back to "not sent" unless the column is nullable.
      if (item === null && !fields.get(key)?.nullable && !requiredReference(key)) continue;
      // A secret left empty on an edit form keeps its stored value.
      if (mode === 'edit' && fields.get(key)?.writeOnly && (item === '' || item === null)) continue;
      if (item === '' && isBlankableNumber(fields.get(key), required.includes(key))) {
        const blank = blankNumber(fields.get(key) as FieldDefinition, mode);
        if (blank !== NOT_SENT) value[key] = blank;
        continue;
      }
      value[key] = structuredClone(item);
    }
    const issues: ValidationIssue[] = [];
    for (const name of required) {
      const empty = requiredReference(name) ? isEmptyReference : isEmpty;
      if ((mode === 'add' || name in value) && empty(value[name])) {
        issues.push({ field: name, message: '%s cannot be empty', params: [fields.get(name)?.title ?? sameText(name)] });
      }
    }
    // An optional text left blank (an email, a mobile) is valid as it is: its format or pattern applies
    // only to a value. Amounts are numbers, so a blank amount is still refused.
    const blankText = (key: string, item: unknown) => item === '' && !required.includes(key) && fields.get(key)?.format !== 'money';
    const checked: Row = {};
    for (const [key, item] of Object.entries(value)) {
      const field = fields.get(key);
      // A rate travels as whole basis points: a text of another form ("1e3", "15.5") is no rate, whatever a number parser makes of it.
      if (field?.format === 'percent' && typeof item === 'string' && item !== '' && !CUSTOM_FORMATS.percent.test(item.trim())) {
        if (!issues.some((known) => known.field === key)) issues.push({ field: key, message: PERCENT_MESSAGE, params: [field.title] });
        continue;
      }
      if (!blankText(key, item)) checked[key] = item;
    }
    for (const error of check(checked)) {
      const issue = issueOf(error, fields);
      if (!issues.some((known) => known.field === issue.field)) issues.push(issue);
    }
    return issues.length ? { ok: false, issues } : { ok: true, value: { ...value, ...checked } };
  };
}

/** Integers the columns (64-bit) and JavaScript both hold exactly: bounds unless the schema sets its own. */
function withinColumnRange(schema: Record<string, unknown>): Record<string, unknown> {
  const types = [schema.type].flat();
  const bounded = { ...schema };
  if (types.includes('integer')) {
    bounded.maximum ??= Number.MAX_SAFE_INTEGER;
    bounded.minimum ??= Number.MIN_SAFE_INTEGER;
  }
  const items = schema.items as Record<string, unknown> | undefined;
  if (items && items.type === 'integer') bounded.items = withinColumnRange(items);
  return bounded;
}

function stripAnnotations(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return {};
  const { readOnly: _r, writeOnly: _w, title: _t, description: _d, default: _default, ...rest } = schema;
  return rest;
}

const compiledValidators = new WeakMap<ResourceDefinition, (input: Row, mode: WriteMode) => ValidationResult>();

/** The input validator of a definition, compiled once per definition (compiling is the costly part). */
export function inputValidatorOf(definition: ResourceDefinition): (input: Row, mode: WriteMode) => ValidationResult {
  let validator = compiledValidators.get(definition);
  if (!validator) {
    validator = createInputValidator(definition);
    compiledValidators.set(definition, validator);
  }
  return validator;
}
