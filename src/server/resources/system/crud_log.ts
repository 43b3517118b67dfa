import type { ResourceHooks } from '../../app-context.js';
import { DESIGNER_NODES } from '../../crud/designer-nodes.js';
import { errors } from '../../errors.js';
import { readOnly } from '../read-only.js';

const written = readOnly(errors.crudLogReadOnly, () => crudLogHooks);

/**
 * `crud.Log`, the designer's history (it has no menu of its own): written by the designer alone, read by
 * whoever may use the designer.
 */
export const crudLogHooks: ResourceHooks = {
  ...written,
  permissions: { index: DESIGNER_NODES, edit: DESIGNER_NODES, export: DESIGNER_NODES },
};
