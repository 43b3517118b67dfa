import type { AdminNode } from '../../generated/permission-nodes.js';

/**
 * The CRUD designer's permission nodes. Holding any one of them opens the designer's screen, and with
 * it what the screen reads: the design calls, its log (`crud.Log`) and the tables' columns (`ajax/getTable*`).
 */
export const DESIGNER_NODES: readonly AdminNode[] = ['crud/crud/index', 'crud/crud/generate', 'crud/crud/delete'];
