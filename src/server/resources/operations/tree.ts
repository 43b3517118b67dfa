import type { Operator, ResourceHooks } from '../../app-context.js';
import { dynamicDb } from '../../db/connection.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { nestRows, selectableRows } from '../../tree-rows.js';
import { accessConditions, applyConditions } from '../access.js';
import { parseListRequest } from '../list-query.js';
import { presentRows } from '../present.js';
import type { ListOptions } from './list.js';

/** Every row in order, for tree resources: nested by the parent field when no filter is applied. */
export async function treeRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions & { nest: boolean }): Promise<Row[]> {
  const tree = definition.list.tree;
  const request = parseListRequest(operator.app, definition, { ...query, page: undefined, limit: undefined }, options.timeZone, operator.identity);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  let listQuery = applyConditions(dynamicDb(operator.app.db).selectFrom(definition.table).selectAll(), conditions);
  for (const term of definition.list.defaultSort) listQuery = listQuery.orderBy(term.field, term.direction);
  const presented = await presentRows(operator, definition, hooks, (await listQuery.execute()) as Row[], options.view ?? 'list');
  // a select offers only the rows the schema's x-list.tree.selectable names, at every depth
  const rows = tree && options.view === 'select' ? selectableRows(tree, presented) : presented;
  if (!tree || !options.nest || request.conditions.length > 0) return rows;
  // As BuildAdmin's Tree::assembleChild: every top-level node carries `children`, possibly empty (docs/wire-contract.md#tree-resources).
  return nestRows(rows, definition.primaryKey, tree.parentField).map((root) => ({ ...root, children: root.children ?? [] }));
}
