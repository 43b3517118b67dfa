import { Fragment, type ReactElement } from 'react';
import { writableFields, type ResourceDefinition } from '../../../schema/definition.js';
import type { WriteMode } from '../../../schema/validate-input.js';
import { SchemaInput } from '../inputs/SchemaInput.js';

/** Per-field replacements an override supplies: an element, or null to leave the field out. */
export type InputOverrides = Readonly<Partial<Record<string, ReactElement | null>>>;

interface GeneratedInputsProps {
  definition: ResourceDefinition;
  mode: WriteMode;
  overrides?: InputOverrides;
}

/** One widget per writable field (unless `x-ui.form` is false), in schema order: the body Create and Edit share. */
export function GeneratedInputs({ definition, mode, overrides = {} }: GeneratedInputsProps) {
  return (
    <>
      {writableFields(definition).filter((field) => field.ui.form !== false).map((field) =>
        field.name in overrides ? (
          <Fragment key={field.name}>{overrides[field.name]}</Fragment>
        ) : (
          <SchemaInput key={field.name} field={field} definition={definition} mode={mode} />
        ),
      )}
    </>
  );
}
