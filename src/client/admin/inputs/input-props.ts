import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import type { WriteMode } from '../../../schema/validate-input.js';

/** What every generated widget gets: its schema field, the resource, add or edit, its translated label. */
export interface SchemaInputProps {
  field: FieldDefinition;
  definition: ResourceDefinition;
  mode: WriteMode;
  label: string;
  /** shows the required mark; the check itself is the form's schema validator */
  required: boolean;
  helperText?: string;
}

/**
 * react-admin marks an input required when one of its validators says so. The schema validator runs
 * at form level, so this no-op validator only carries the mark.
 */
export const requiredMark = Object.assign((): undefined => undefined, { isRequired: true });

export function markIf(required: boolean) {
  return required ? requiredMark : undefined;
}

/**
 * Widgets write the wire value themselves; react-admin's default parse would turn '' into null, which
 * an edit reads as "leave unchanged" (an emptied field would never be cleared).
 */
export const keepValue = <T,>(value: T): T => value;
