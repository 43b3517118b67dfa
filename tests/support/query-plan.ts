import { sql, type CompiledQuery } from 'kysely';
import type { DynamicDb } from '../../src/server/db/connection.js';

/**
 * A statement's plan as text: SQLite's EXPLAIN QUERY PLAN details, one a line; PostgreSQL's EXPLAIN
 * with sequential scans priced out (`enable_seqscan = off`: on the few rows of a test the planner would
 * otherwise read the whole table, whatever indexes there are) and, with `sortsPricedOut`, sorts too
 * (`enable_sort`, `enable_incremental_sort = off`: the planner then shows whether some index gives the order, as it would choose
 * on a table large enough for a sort to cost more than the walk).
 */
export async function queryPlan(db: DynamicDb, kind: string, query: CompiledQuery, options: { sortsPricedOut?: boolean } = {}): Promise<string> {
  if (kind === 'sqlite') {
    const rows = (await db.executeQuery({ ...query, sql: `EXPLAIN QUERY PLAN ${query.sql}` })).rows as { detail: string }[];
    return rows.map((row) => row.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    if (options.sortsPricedOut ?? true) {
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      await sql`SET LOCAL enable_incremental_sort = off`.execute(trx);
    }
    const rows = (await trx.executeQuery({ ...query, sql: `EXPLAIN ${query.sql}` })).rows as Record<string, string>[];
    return rows.map((row) => Object.values(row)[0]).join('\n');
  });
}
