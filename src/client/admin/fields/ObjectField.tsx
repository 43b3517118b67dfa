import { Box, Typography } from '@mui/material';
import { Fragment } from 'react';
import { useRecordContext } from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { definitionById } from '../../schemas.js';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { optionLabel } from './enum-options.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { ONE_LINE_SX, textOf } from './TextValueField.js';

/**
 * The field a key of a stored object is named after: one of the row's own fields, else one of a resource
 * the row refers to (a payout's account holds the member's `bank_name`, `bank_num`…, named in `system/user`).
 */
function fieldNamedBy(definition: ResourceDefinition, key: string): FieldDefinition | undefined {
  const own = definition.fields.find((field) => field.name === key);
  if (own) return own;
  for (const field of definition.fields) {
    const related = field.ref ? definitionById(field.ref.resource) : undefined;
    const found = related?.fields.find((candidate) => candidate.name === key);
    if (found) return found;
  }
  return undefined;
}

/**
 * An object's entries as label / text pairs: keys by the field they name, values by their enum labels,
 * those of the field a key names or else the object field's own (a provider's exit codes → outcomes).
 */
function useObjectEntries(definition: ResourceDefinition, object: FieldDefinition): (value: unknown) => [label: string, text: string][] {
  const t = useSchemaTranslate();
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
    return Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== null && item !== undefined && item !== '')
      .map(([key, item]) => {
        const named = fieldNamedBy(definition, key);
        const labelledBy = [named, object].find((candidate) => candidate?.ui.options?.[String(item)]);
        const text = labelledBy ? t(optionLabel(labelledBy, item)) : textOf(item);
        return [named ? t(named.title) : key, text];
      });
  };
}

/** A stored object (payment details, settings) as "Label: value" pairs: on one line in a list, one per line in details. */
export function ObjectField({ field, definition, block = false }: SchemaFieldProps & { block?: boolean }) {
  const record = useRecordContext();
  const entries = useObjectEntries(definition, field)(valueAt(record, field.name));
  if (entries.length === 0) return null;
  if (!block) {
    const text = entries.map(([label, value]) => `${label}: ${value}`).join(' · ');
    return (
      <Typography component="span" variant="body2" title={text} sx={ONE_LINE_SX}>
        {text}
      </Typography>
    );
  }
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1.5, rowGap: 0.25 }}>
      {entries.map(([label, value], index) => (
        <Fragment key={`${label}-${index}`}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Fragment>
      ))}
    </Box>
  );
}
