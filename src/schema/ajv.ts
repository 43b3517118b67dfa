import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { X_KEYWORDS } from './meta-schema.js';

/** Formats of ours, beside ajv-formats' standard ones. */
export const CUSTOM_FORMATS: Record<string, RegExp> = {
  /** yuan with at most two decimals: "12.50", "-3", "0.5" */
  money: /^-?\d{1,13}(\.\d{1,2})?$/,
  /** mainland China mobile number, as BuildAdmin validates it */
  mobile: /^1[3-9]\d{9}$/,
  color: /^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\))$/,
  /** a time of day as forms send it: "08:30" or "08:30:00" (ajv-formats' `time` demands a zone) */
  time: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/,
};

/**
 * One configured ajv: strict mode with our `x-` keywords known as annotations. `coerce` turns on
 * PHP-like scalar coercion for request input ("1" → 1 for integers, 1 → "1" for strings).
 */
export function createAjv(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    coerceTypes: options.coerce,
    useDefaults: false,
    allowUnionTypes: true,
  });
  addFormats(ajv, ['email', 'uri', 'date', 'date-time', 'regex']);
  for (const [name, pattern] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, pattern);
  for (const keyword of X_KEYWORDS) ajv.addKeyword({ keyword });
  return ajv;
}
