/**
 * The quick task form as the field builder edits it, and back: a list of fields (type, label in both
 * languages, required, options, validation) ⇄ the JSON schema stored in `quick_task.form`, written with
 * the keywords of `schemas/` so the server checks answers with the validator every resource uses.
 */

import { compilePattern, PatternError } from '../../../../../schema/pattern.js';
import { choiceWidget, widgetOfType } from '../../../../../schema/widget-of.js';
import { isOneOf } from '../../../../../contract/checks.js';

/** The widgets a member's form may use (the server keeps the same list). */
export const BUILDER_TYPES = ['string', 'textarea', 'number', 'float', 'radio', 'select', 'switch', 'date', 'image'] as const;
type BuilderType = (typeof BUILDER_TYPES)[number];

/** What a one-line text holds: anything, or a checked format. */
export const TEXT_FORMATS = ['', 'email', 'uri', 'mobile'] as const;
type TextFormat = (typeof TEXT_FORMATS)[number];

export interface BuilderOption {
  value: string;
  zh: string;
  en: string;
}

export interface BuilderField {
  name: string;
  type: BuilderType;
  zh: string;
  en: string;
  required: boolean;
  /** radio and select */
  options: BuilderOption[];
  /** string: a checked format */
  format: TextFormat;
  /** string, textarea: longest answer (characters); '' for the default */
  maxLength: string;
  /** string: a regular expression the answer must match; '' for none */
  pattern: string;
  /** number, float: bounds; '' for none */
  minimum: string;
  maximum: string;
}

/** Longest text answer when none is given: a line, or a paragraph. */
const DEFAULT_MAX_LENGTH: Partial<Record<BuilderType, number>> = { string: 255, textarea: 2000, image: 255 };

export function newField(index: number): BuilderField {
  return { name: `field_${index}`, type: 'string', zh: '', en: '', required: true, options: [], format: '', maxLength: '', pattern: '', minimum: '', maximum: '' };
}

type Json = Record<string, unknown>;

const textOf = (title: unknown, language: 'zh-cn' | 'en'): string => {
  if (typeof title === 'string') return /[\u3400-\u9fff]/.test(title) === (language === 'zh-cn') ? title : '';
  if (title && typeof title === 'object') return String((title as Json)[language] ?? '');
  return '';
};

function typeOf(property: Json): BuilderType | undefined {
  const ui = (property['x-ui'] ?? {}) as Json;
  const widget = typeof ui.widget === 'string' ? ui.widget : undefined;
  if (isOneOf(BUILDER_TYPES, widget)) return widget;
  if (widget) return undefined;
  if (Array.isArray(property.enum)) return choiceWidget(property.enum.length);
  if (property.format === 'date') return 'date';
  return property.type === 'string' ? 'string' : widgetOfType(property.type);
}

/** Keywords the builder writes back as it read them; a form with any other is left to the JSON editor. */
const KNOWN_KEYS = new Set(['type', 'title', 'enum', 'format', 'maxLength', 'pattern', 'minimum', 'maximum', 'x-ui']);
const KNOWN_UI_KEYS = new Set(['widget', 'options']);

/**
 * The builder's fields of a stored form, or `undefined` when the form uses what the builder does not
 * draw (then it is edited as JSON, unchanged).
 */
export function fieldsOfForm(text: string): BuilderField[] | undefined {
  if (text.trim() === '') return [];
  let form: unknown;
  try {
    form = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!form || typeof form !== 'object' || Array.isArray(form)) return undefined;
  const { properties, required } = form as { properties?: unknown; required?: unknown };
  if (!properties || typeof properties !== 'object') return undefined;
  const requiredNames = Array.isArray(required) ? required.map(String) : [];
  const fields: BuilderField[] = [];
  for (const [name, raw] of Object.entries(properties as Record<string, unknown>)) {
    if (!raw || typeof raw !== 'object') return undefined;
    const property = raw as Json;
    if (Object.keys(property).some((key) => !KNOWN_KEYS.has(key))) return undefined;
    const type = typeOf(property);
    if (!type) return undefined;
    const ui = (property['x-ui'] ?? {}) as Json;
    if (Object.keys(ui).some((key) => !KNOWN_UI_KEYS.has(key))) return undefined;
    const labels = (ui.options ?? {}) as Record<string, unknown>;
    const format = typeof property.format === 'string' && type === 'string' ? property.format : '';
    if (!isOneOf(TEXT_FORMATS, format)) return undefined;
    fields.push({
      name,
      type,
      zh: textOf(property.title, 'zh-cn'),
      en: textOf(property.title, 'en'),
      required: requiredNames.includes(name),
      options: Array.isArray(property.enum) ? property.enum.map((value) => ({ value: String(value), zh: textOf(labels[String(value)], 'zh-cn'), en: textOf(labels[String(value)], 'en') })) : [],
      format: format as TextFormat,
      maxLength: property.maxLength === undefined || property.maxLength === DEFAULT_MAX_LENGTH[type] ? '' : String(property.maxLength),
      pattern: typeof property.pattern === 'string' ? property.pattern : '',
      minimum: property.minimum === undefined ? '' : String(property.minimum),
      maximum: property.maximum === undefined ? '' : String(property.maximum),
    });
  }
  return fields;
}

function localText(zh: string, en: string): Json | string {
  if (zh && en) return { 'zh-cn': zh, en };
  return zh || en;
}

/** The JSON schema of the builder's fields, as stored in `quick_task.form`. */
export function formOfFields(fields: readonly BuilderField[]): Json {
  const properties: Json = {};
  for (const field of fields) {
    const property: Json = {};
    const title = localText(field.zh.trim(), field.en.trim());
    const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
    switch (field.type) {
      case 'string':
      case 'textarea':
      case 'image':
        property.type = 'string';
        break;
      case 'number':
        property.type = 'integer';
        break;
      case 'float':
        property.type = 'number';
        break;
      case 'switch':
        property.type = 'boolean';
        break;
      case 'date':
        property.type = 'string';
        property.format = 'date';
        break;
      case 'radio':
      case 'select':
        property.type = 'string';
        property.enum = field.options.map((option) => option.value.trim());
        break;
    }
    if (title) property.title = title;
    if (field.type === 'string' && field.format) property.format = field.format;
    if (field.type === 'string' || field.type === 'textarea' || field.type === 'image') property.maxLength = number(field.maxLength) ?? DEFAULT_MAX_LENGTH[field.type];
    if (field.type === 'string' && field.pattern.trim()) property.pattern = field.pattern.trim();
    if (field.type === 'number' || field.type === 'float') {
      if (number(field.minimum) !== undefined) property.minimum = number(field.minimum);
      if (number(field.maximum) !== undefined) property.maximum = number(field.maximum);
    }
    const ui: Json = { widget: field.type };
    if (field.type === 'radio' || field.type === 'select') {
      ui.options = Object.fromEntries(field.options.map((option) => [option.value.trim(), localText(option.zh.trim(), option.en.trim()) || option.value.trim()]));
    }
    property['x-ui'] = ui;
    properties[field.name.trim()] = property;
  }
  const required = fields.filter((field) => field.required).map((field) => field.name.trim());
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties };
}

/** One problem of one field of the builder, as a message key of the `survey.formBuilder.problems` group. */
export interface BuilderProblem {
  index: number;
  /** which input it concerns: the name, the labels, the options, a bound, the pattern */
  part: 'name' | 'label' | 'options' | 'maxLength' | 'pattern' | 'range';
  key: string;
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** The problem key of a pattern the check refuses, by why (the server refuses the same ones). */
const PATTERN_PROBLEMS: Record<PatternError['reason'], string> = { syntax: 'pattern', unsupported: 'patternUnsupported', 'too large': 'patternTooLarge' };

/** Every problem of the builder's fields at once (the server checks the stored schema again). */
export function problemsOf(fields: readonly BuilderField[]): BuilderProblem[] {
  const problems: BuilderProblem[] = [];
  if (fields.length === 0) problems.push({ index: -1, part: 'name', key: 'noFields' });
  if (fields.length > 30) problems.push({ index: -1, part: 'name', key: 'tooMany' });
  const isNumber = (text: string) => text.trim() === '' || Number.isFinite(Number(text));
  fields.forEach((field, index) => {
    const name = field.name.trim();
    if (!NAME.test(name) || name === 'id') problems.push({ index, part: 'name', key: 'name' });
    else if (fields.findIndex((other) => other.name.trim() === name) !== index) problems.push({ index, part: 'name', key: 'duplicate' });
    if (field.zh.trim() === '' && field.en.trim() === '') problems.push({ index, part: 'label', key: 'label' });
    if (field.type === 'radio' || field.type === 'select') {
      const values = field.options.map((option) => option.value.trim());
      if (values.length < 2) problems.push({ index, part: 'options', key: 'options' });
      else if (values.some((value) => value === '') || new Set(values).size !== values.length) problems.push({ index, part: 'options', key: 'optionValues' });
    }
    if (!/^\d*$/.test(field.maxLength.trim()) || field.maxLength.trim() === '0' || Number(field.maxLength) > 20000) problems.push({ index, part: 'maxLength', key: 'maxLength' });
    if (field.pattern.trim()) {
      try {
        compilePattern(field.pattern.trim());
      } catch (error) {
        const reason = error instanceof PatternError ? error.reason : 'syntax';
        problems.push({ index, part: 'pattern', key: PATTERN_PROBLEMS[reason] });
      }
    }
    if (!isNumber(field.minimum) || !isNumber(field.maximum) || (field.minimum.trim() && field.maximum.trim() && Number(field.minimum) > Number(field.maximum))) {
      problems.push({ index, part: 'range', key: 'range' });
    }
  });
  return problems;
}
