import type { Operator, ResourceHooks } from '../../app-context.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { findStored } from '../access.js';
import { presentRows } from '../present.js';

/** `edit` GET: one row for the form. */
export async function readRow(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, id: unknown): Promise<Row> {
  const stored = await findStored(operator, definition, hooks, id);
  const [row] = await presentRows(operator, definition, hooks, [stored], 'edit');
  return row;
}
