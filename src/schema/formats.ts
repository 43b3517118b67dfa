import { fullFormats } from 'ajv-formats/dist/formats.js';
import { MOBILE_PATTERN } from '../contract/credentials.js';
import { MONEY_PATTERN } from '../contract/money.js';

/** Formats of ours, beside the standard ones. */
export const CUSTOM_FORMATS: Record<string, RegExp> = {
  /** yuan with at most two decimals: "12.50", "-3", "0.5" (`src/contract/money.ts`) */
  money: MONEY_PATTERN,
  /**
   * a rate in basis points, 1500 = 15 % (`src/contract/money.ts`): the field is an integer, so the check of its
   * value is its type and its bounds; a text (a form-encoded body) is a whole number of basis points
   */
  percent: /^\d+$/,
  /** mainland China mobile number, as BuildAdmin validates it */
  mobile: MOBILE_PATTERN,
  color: /^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\))$/,
  /** a time of day as forms send it: "08:30" or "08:30:00" (the standard `time` demands a zone) */
  time: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/,
};

/** The standard formats a schema may name, checked as ajv-formats' "full" mode checks them. */
export const STANDARD_FORMATS = ['email', 'uri', 'date', 'date-time', 'regex'] as const;

type FormatTest = (text: string) => boolean;

function testOf(format: (typeof fullFormats)[keyof typeof fullFormats]): FormatTest {
  if (format instanceof RegExp) return (text) => format.test(text);
  if (typeof format === 'function') return format;
  if (typeof format === 'object' && format !== null && 'validate' in format) {
    const validate = format.validate;
    if (validate instanceof RegExp) return (text) => validate.test(text);
    return validate as FormatTest;
  }
  throw new Error('unsupported format definition');
}

/** Every format a field may name, as one test of a text: the same checks the server's ajv runs. */
export const FORMAT_TESTS: Readonly<Record<string, FormatTest>> = {
  ...Object.fromEntries(STANDARD_FORMATS.map((name) => [name, testOf(fullFormats[name])])),
  ...Object.fromEntries(Object.entries(CUSTOM_FORMATS).map(([name, pattern]) => [name, (text: string) => pattern.test(text)])),
};
