import { useState } from 'react';
import { RecordContextProvider, useRecordContext, useTranslate } from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { fieldFor } from '../fields/field-for.js';
import { valueAt } from '../fields/field-props.js';
import { rendererOf } from '../fields/renderer-of.js';
import { DetailsDialogButton, DetailTable } from './DetailsDialog.js';
import { useSchemaTranslate } from './schema-i18n.js';

/** Text and links are shown whole and wrapped; every other renderer draws the value as the list does. */
function detailValue(field: FieldDefinition, definition: ResourceDefinition, record: Record<string, unknown>): unknown {
  const renderer = rendererOf(field);
  return renderer === 'text' || renderer === 'url' ? valueAt(record, field.name) : fieldFor(field, definition);
}

/**
 * "Details" of a row the admin cannot edit (logs, or without the edit node): every field the schema
 * lets a client read, long texts wrapped and JSON indented, the others drawn as in the list.
 */
export function RecordDetailsButton({ definition }: { definition: ResourceDefinition }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const title = translate('generated.details', { _: 'Details' });
  const rows = definition.fields
    .filter((field) => !field.writeOnly && rendererOf(field) !== 'none')
    .map((field): [string, unknown] => [t(field.title), detailValue(field, definition, record)]);
  return (
    <DetailsDialogButton title={title} open={open} onOpenChange={setOpen}>
      <RecordContextProvider value={record}>
        <DetailTable rows={rows} label={title} />
      </RecordContextProvider>
    </DetailsDialogButton>
  );
}
