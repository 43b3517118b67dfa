import type { Operator, ResourceHooks, RowView } from '../app-context.js';
import { dynamicDb } from '../db/connection.js';
import { embeddedColumns, type FieldDefinition, type ResourceDefinition, type Row } from '../../schema/definition.js';
import { rowFromStorage } from '../db/values.js';
import { accessConditions, applyConditions, mayFillReference, mayReadList } from './access.js';

/** Stored rows → wire rows: conversions, related rows under their relation names, then the hook. */
export async function presentRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, stored: Row[], view: RowView): Promise<Row[]> {
  const rows = stored.map((row) => rowFromStorage(definition, row));
  if (view !== 'edit') {
    for (const field of definition.fields) {
      const ref = field.ref;
      if (!ref?.as || ref.many || !field.storage) continue;
      const related = operator.app.resources.get(ref.resource);
      if (!related) continue;
      // An operator who may fill the reference reads its label even without the related list.
      const labelled = !mayReadList(operator.identity, related) && mayFillReference(operator.identity, definition, field) ? { key: ref.key, label: ref.label, fields: [], labelOnly: true } : ref;
      const carried = await relatedRows(operator, related, labelled, stored.map((row) => row[field.name]));
      rows.forEach((row, index) => {
        row[ref.as as string] = carried[index];
      });
    }
  }
  return hooks.present ? hooks.present(operator, rows, view) : rows;
}

/**
 * The rows of `related` whose `ref.key` holds each stored value, as the operator may see them
 * (docs/architecture.md#references). An operator who may not read the related resource's list gets the
 * key alone, nothing looked up; with `labelOnly` (they may fill the reference, `reference-labels.ts`) the
 * key and the label. One who may read it gets the row through that resource's own read path:
 * its data limit and scope (a row outside them, or none, is null), its presentation for a choice
 * (`select`), then cut to the key, the label and `ref.fields`; write-only columns never leave it.
 */
export async function relatedRows(operator: Operator, related: ResourceDefinition, ref: Pick<NonNullable<FieldDefinition['ref']>, 'key' | 'label' | 'fields'> & { labelOnly?: boolean }, values: unknown[]): Promise<(Row | null)[]> {
  const isSet = (value: unknown) => value !== null && value !== undefined;
  if (!ref.labelOnly && !mayReadList(operator.identity, related)) return values.map((value) => (isSet(value) ? rowFromStorage(related, { [ref.key]: value }) : null));
  const keys = [...new Set(values.filter(isSet))];
  if (keys.length === 0) return values.map(() => null);
  const hooks = operator.app.controllers.forResource(related.id)?.hooks ?? {};
  const query = dynamicDb(operator.app.db).selectFrom(related.table).selectAll().where(ref.key, 'in', keys);
  const found = (await applyConditions(query, await accessConditions(operator, related, hooks)).execute()) as Row[];
  const wire = found.map((row) => rowFromStorage(related, row));
  const presented = hooks.present ? await hooks.present(operator, wire, 'select') : wire;
  const columns = embeddedColumns(ref);
  const byKey = new Map(presented.map((row) => [String(row[ref.key]), Object.fromEntries(columns.filter((name) => name in row).map((name) => [name, row[name]]))]));
  return values.map((value) => (isSet(value) ? (byKey.get(String(value)) ?? null) : null));
}
