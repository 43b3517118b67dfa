import { dynamicDb } from '../db/connection.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { rowFromStorage } from '../db/values.js';
import type { Operator, ResourceHooks, RowView } from './hooks.js';

/** Stored rows → wire rows: conversions, related rows under their relation names, then the hook. */
export async function presentRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, stored: Row[], view: RowView): Promise<Row[]> {
  const rows = stored.map((row) => rowFromStorage(definition, row));
  if (view !== 'edit') {
    for (const field of definition.fields) {
      const ref = field.ref;
      if (!ref?.as || ref.many || !field.storage) continue;
      const related = operator.app.resources.get(ref.resource);
      if (!related) continue;
      const keys = [...new Set(stored.map((row) => row[field.name]).filter((value) => value !== null && value !== undefined))];
      const found = keys.length ? ((await dynamicDb(operator.app.db).selectFrom(related.table).selectAll().where(ref.key, 'in', keys).execute()) as Row[]) : [];
      const byKey = new Map(found.map((row) => [String(row[ref.key]), rowFromStorage(related, row)]));
      rows.forEach((row, index) => {
        row[ref.as as string] = byKey.get(String(stored[index][field.name])) ?? null;
      });
    }
  }
  return hooks.present ? hooks.present(operator, rows, view) : rows;
}
