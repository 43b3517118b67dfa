import { useState, type ReactElement, type ReactNode } from 'react';
import { RecordContextProvider, useRecordContext, useTranslate } from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { fieldFor } from '../fields/field-for.js';
import { valueAt } from '../fields/field-props.js';
import { ObjectField } from '../fields/ObjectField.js';
import { rendererOf } from '../fields/renderer-of.js';
import { DetailsDialogButton, DetailTable } from './DetailsDialog.js';
import { useSchemaTranslate, type SchemaTranslate } from './schema-i18n.js';

/** What a resource draws itself in its rows' details, by field name (a history, a task's answers). */
export type DetailRenderers = Readonly<Record<string, ReactElement>>;

/**
 * Text and links are shown whole and wrapped, an object as one labelled line per entry; every other
 * renderer draws the value as the list does (dates, money, labelled chips); no value, "Not set".
 */
function detailValue(field: FieldDefinition, definition: ResourceDefinition, record: Record<string, unknown>, renderers: DetailRenderers): unknown {
  const own = renderers[field.name];
  if (own) return own;
  // Nothing stored reads "Not set" (DetailTable), whatever the field's renderer would draw for it.
  const value = valueAt(record, field.name);
  if (value === null || value === undefined || value === '') return null;
  const renderer = rendererOf(field);
  if (renderer === 'object') return <ObjectField field={field} definition={definition} block />;
  return renderer === 'text' || renderer === 'url' ? valueAt(record, field.name) : fieldFor(field, definition);
}

/**
 * A row's details as label / value pairs for `DetailTable`, drawn inside a `RecordContextProvider` of
 * `record`: every field the schema lets a client read (or `only` those), each as the list shows it.
 */
export function detailRows(definition: ResourceDefinition, record: Record<string, unknown>, t: SchemaTranslate, renderers: DetailRenderers = {}, only?: (field: FieldDefinition) => boolean): [string, unknown][] {
  return definition.fields
    .filter((field) => !field.writeOnly && (rendererOf(field) !== 'none' || renderers[field.name]) && (!only || only(field)))
    .map((field): [string, unknown] => [t(field.title), detailValue(field, definition, record, renderers)]);
}

interface RecordDetailsButtonProps {
  definition: ResourceDefinition;
  /** fields the resource draws itself */
  renderers?: DetailRenderers;
  /** the row's own buttons (approve, reject…), repeated beside Close so a decision can follow the reading */
  actions?: ReactNode;
}

/**
 * "Details" of a row the admin cannot edit (logs, reviews, or without the edit node): every field the
 * schema lets a client read, long texts wrapped, objects labelled, the others drawn as in the list.
 */
export function RecordDetailsButton({ definition, renderers = {}, actions }: RecordDetailsButtonProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const title = translate('generated.details');
  const rows = detailRows(definition, record, t, renderers);
  return (
    <DetailsDialogButton title={title} open={open} onOpenChange={setOpen} actions={actions}>
      <RecordContextProvider value={record}>
        <DetailTable rows={rows} label={title} />
      </RecordContextProvider>
    </DetailsDialogButton>
  );
}
