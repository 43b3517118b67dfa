import type { SelectQueryBuilder } from 'kysely';
import type { AnySelect } from './connection.js';

/** Which page of a list, counted from 1, and how many rows a page holds. */
export interface PageRequest {
  page: number;
  limit: number;
}

/**
 * One page of the rows `base` selects, and their total: `rows` adds the columns and the order to `base`
 * (the count runs on `base` alone).
 */
export async function pageRows<Base extends AnySelect, Selected>(
  request: PageRequest,
  base: Base,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any tables: the rows keep the type the caller selected
  rows: (base: Base) => SelectQueryBuilder<any, any, Selected>,
): Promise<{ rows: Selected[]; total: number }> {
  const { page, limit } = request;
  const total = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const found = await rows(base).limit(limit).offset((page - 1) * limit).execute();
  return { rows: found, total: Number(total.total) };
}
