import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { createInputValidator, type ValidationResult, type WriteMode } from '../../../schema/validate-input.js';
import type { SchemaTranslate } from './schema-i18n.js';

type InputValidator = (input: Row, mode: WriteMode) => ValidationResult;

// Compiling a schema with ajv is the costly part: once per definition for the page's lifetime.
const compiled = new WeakMap<ResourceDefinition, InputValidator>();

function validatorOf(definition: ResourceDefinition): InputValidator {
  let validator = compiled.get(definition);
  if (!validator) {
    validator = createInputValidator(definition);
    compiled.set(definition, validator);
  }
  return validator;
}

/**
 * A react-admin form `validate` built from the same validator the server runs (same rules, same
 * messages): each issue becomes `{[field]: translated message}`, so it shows under its input before
 * anything is sent.
 */
export function createFormValidator(definition: ResourceDefinition, mode: WriteMode, t: SchemaTranslate) {
  const validate = validatorOf(definition);
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
