import { fieldOf, type ResourceDefinition, type SortTerm } from '../../schema/definition.js';

/**
 * Whether the database can read a filtered list's rows in its order from one of the schema's indexes
 * (docs/schemas.md, "Indexes come from the schema"), so a page stops after its rows instead of sorting
 * every match. `equal` are the columns held to one value, `range` those held to a range.
 *   - A column held to one value drops out of the order; an order left empty needs no index.
 *   - A unique column (or the key) held to one value matches one row at most: nothing to sort.
 *   - Otherwise an index must begin with some of the `equal` columns (at least one) and go on with the
 *     order's columns exactly, each stored the way its term runs (or each the other way: read backward); or, with no column held to one value, be the order's own index when the
 *     order's first column is the one held to a range (the range is read along it).
 */
export function indexGivesOrder(definition: ResourceDefinition, equal: readonly string[], range: readonly string[], order: readonly SortTerm[]): boolean {
  const fields = order.map((term) => term.field).filter((field) => !equal.includes(field));
  if (fields.length === 0) return true;
  if (equal.some((column) => column === definition.primaryKey || fieldOf(definition, column)?.unique)) return true;
  const terms = order.filter((term) => !equal.includes(term.field));
  return definition.indexes.some((index) => {
    if (index.whenSet) return false;
    const { columns } = index;
    const lead = columns.length - fields.length;
    if (lead < 0 || !fields.every((field, i) => columns[lead + i] === field)) return false;
    // Read forward or backward, every column must run the way its term asks, or every one the other way.
    const flipped = terms.map((term) => (term.direction === 'desc') !== (index.descending?.includes(term.field) ?? false));
    if (flipped.some((flip) => flip !== flipped[0])) return false;
    const head = columns.slice(0, lead);
    if (head.length === 0) return equal.length === 0 && range.includes(fields[0]);
    return head.every((column) => equal.includes(column));
  });
}

/**
 * The order of a list asked for by `field`: the key breaks ties in the same direction, so an index on
 * (field, key) reads the page in order; a unique column that is always set has no ties to break.
 */
export function columnOrder(definition: ResourceDefinition, field: string, direction: 'asc' | 'desc'): SortTerm[] {
  const column = fieldOf(definition, field);
  if (field === definition.primaryKey || (column?.unique && !column.uniqueWhenSet && !column.nullable)) return [{ field, direction }];
  return [{ field, direction }, { field: definition.primaryKey, direction }];
}

/** The operators a list filter's column offers (`x-ui.search`; a reference is filtered by its key). */
function filterKind(definition: ResourceDefinition, name: string): 'equal' | 'in' | 'range' | undefined {
  const field = fieldOf(definition, name);
  if (!field || !field.storage || field.name === definition.primaryKey) return undefined;
  const search = String(field.ui.search ?? '');
  if (search === 'IN') return 'in';
  if (search === '=' || (field.ref && !field.ref.many)) return 'equal';
  if (['RANGE', '>', '>=', '<', '<='].includes(search)) return 'range';
  return undefined;
}

/** One filter and one order a list may be asked for: the column filtered, how, and the order. */
export interface FilterOrder {
  filter: string;
  kind: 'equal' | 'in' | 'range';
  order: SortTerm[];
}

/** Every filter × order a list may be asked for: each filter its schema offers, with the default order and each sortable column's. */
export function filterOrders(definition: ResourceDefinition): FilterOrder[] {
  const orders = [definition.list.defaultSort, ...definition.list.sortable.map((field) => columnOrder(definition, field, 'desc'))];
  const seen = new Set<string>();
  const unique = orders.filter((order) => {
    const key = order.map((term) => term.field).join(',');
    return !seen.has(key) && Boolean(seen.add(key));
  });
  return definition.fields.flatMap((field) => {
    const kind = filterKind(definition, field.name);
    return kind ? unique.map((order) => ({ filter: field.name, kind, order })) : [];
  });
}

/** Whether `shape` is read in order from an index: an `IN` of one value counts as `=`, of several never does. */
export function filterOrderIndexed(definition: ResourceDefinition, shape: FilterOrder, severalValues = true): boolean {
  if (shape.kind === 'in' && severalValues) return indexGivesOrder(definition, [], [], shape.order.filter((term) => term.field !== shape.filter));
  return shape.kind === 'range' ? indexGivesOrder(definition, [], [shape.filter], shape.order) : indexGivesOrder(definition, [shape.filter], [], shape.order);
}

/**
 * The start-up note of a list whose filter × order shapes include some no index reads in order
 * (`filterOrders`): those shapes, by filter; none when every shape has an index. Such a page is read the
 * cheaper way the filter's counted rows say (resources/list-plan.ts, `walksOrderIndex`).
 */
export function unindexedNote(definition: ResourceDefinition): string | undefined {
  const byFilter = new Map<string, string[]>();
  for (const shape of filterOrders(definition)) {
    if (filterOrderIndexed(definition, shape)) continue;
    const label = `${shape.filter} ${shape.kind === 'equal' ? '=' : shape.kind === 'in' ? 'IN (several values)' : 'RANGE'}`;
    byFilter.set(label, [...(byFilter.get(label) ?? []), shape.order[0].field]);
  }
  if (byFilter.size === 0) return undefined;
  const shapes = [...byFilter].map(([filter, orders]) => `${filter} by ${orders.join(', ')}`).join('; ');
  return `list ${definition.table}: no index reads these filters in these orders, so their pages are read the cheaper way the filter's counted rows say: ${shapes}`;
}
