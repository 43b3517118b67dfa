import type { Row } from '../../schema/definition.js';
import type { PageRequest } from '../db/pages.js';
import { errors } from '../errors.js';

/** Largest page a member-centre list answers. */
const PAGE_LIMIT = 100;

/** `?page&limit` of member-centre lists (limit default 15, docs/wire-contract.md#member-endpoints). */
export function paging(query: Row): PageRequest {
  const page = query.page === undefined || query.page === '' ? 1 : Number(query.page);
  const limit = query.limit === undefined || query.limit === '' ? 15 : Number(query.limit);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000 || !Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT) {
    throw errors.invalidPaging(PAGE_LIMIT);
  }
  return { page, limit };
}
