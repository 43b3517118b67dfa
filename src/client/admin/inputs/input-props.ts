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

/**
 * A label above its input (a switch, a duration, a list), sized as react-admin draws a radio group's
 * legend, which is a text box's floating label's size; in a form's label column (form-layout.ts) it reads
 * as every other label there.
 */
export const SMALL_LABEL = { fontSize: '0.75rem' } as const;
