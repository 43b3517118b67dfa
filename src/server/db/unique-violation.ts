/** Whether a database error is a unique-key violation (PostgreSQL 23505, SQLite's unique and primary-key constraints). */
import { codeOf } from '../../contract/checks.js';
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
