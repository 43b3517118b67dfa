import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { CUSTOM_FORMATS } from './formats.js';
import { X_KEYWORDS } from './meta-schema.js';

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
