import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { inputValidatorOf, type WriteMode } from '../../../schema/validate-input.js';
import type { SchemaTranslate } from './schema-i18n.js';

/**
 * A react-admin form `validate` built from the same validator the server runs (same rules, same
 * messages): each issue becomes `{[field]: translated message}`, so it shows under its input before
 * anything is sent.
 */
export function createFormValidator(definition: ResourceDefinition, mode: WriteMode, t: SchemaTranslate) {
  const validate = inputValidatorOf(definition);
  return (values: Row): Record<string, string> => {
    const result = validate(values, mode);
    if (result.ok) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.issues) {
      if (!(issue.field in errors)) errors[issue.field] = t(issue.message, issue.params);
    }
    return errors;
  };
}
