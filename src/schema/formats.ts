/**
 * Formats of ours, beside ajv-formats' standard ones: the schemas' `format` values. Kept apart from the
 * validator so a rule can be used alone (a form input, a login name) without loading ajv.
 */
export const CUSTOM_FORMATS: Record<string, RegExp> = {
  /** yuan with at most two decimals: "12.50", "-3", "0.5" */
  money: /^-?\d{1,13}(\.\d{1,2})?$/,
  /** mainland China mobile number, as BuildAdmin validates it */
  mobile: /^1[3-9]\d{9}$/,
  color: /^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\))$/,
  /** a time of day as forms send it: "08:30" or "08:30:00" (ajv-formats' `time` demands a zone) */
  time: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/,
};
