import type { FieldDefinition, ResourceDefinition, SortTerm } from '../../../schema/definition.js';
import type { SortPayload } from 'react-admin';

export { listColumnsOf } from '../../../schema/list-columns.js';

/** Whether the list may order by a column: the server orders only by columns an index serves. */
export function isSortable(definition: ResourceDefinition, field: FieldDefinition): boolean {
  return definition.list.sortable.includes(field.name);
}

/** Column width from `x-ui.width` (pixels). */
export function widthOf(field: FieldDefinition): number | undefined {
  return typeof field.ui.width === 'number' ? field.ui.width : undefined;
}

/** react-admin's initial sort from `x-list.defaultSort` (its first term). */
export function defaultSortOf(definition: ResourceDefinition): SortPayload {
  const first: SortTerm | undefined = definition.list.defaultSort[0];
  return first ? { field: first.field, order: first.direction === 'asc' ? 'ASC' : 'DESC' } : { field: definition.primaryKey, order: 'DESC' };
}

/** How a row is named in titles and confirmations: the tree label, else a name-like column, else its key. */
export function representationFieldOf(definition: ResourceDefinition): string {
  if (definition.list.tree) return definition.list.tree.labelField;
  const names = new Set(definition.fields.filter((field) => !field.writeOnly).map((field) => field.name));
  return ['title', 'name', 'nickname', 'username'].find((name) => names.has(name)) ?? definition.primaryKey;
}
