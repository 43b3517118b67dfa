import { sql, type RawBuilder } from 'kysely';

/**
 * One column set to a value of its own in each of many rows, in one update:
 * `CASE id WHEN $1 THEN $2 … ELSE <column> END`, every id and value a parameter. Kysely's CASE builder
 * copies the whole expression at each WHEN; this builds it once, for the few updates that write hundreds
 * of rows at a time (a batch of ledger entries, a reconciliation). No values: the column keeps its own.
 */
export function valueById<T>(column: string, values: readonly (readonly [number, T])[]): RawBuilder<T> {
  if (values.length === 0) return sql<T>`${sql.ref(column)}`;
  const whens = values.map(([id, value]) => sql`WHEN ${id} THEN ${value}`);
  return sql<T>`CASE ${sql.ref('id')} ${sql.join(whens, sql` `)} ELSE ${sql.ref(column)} END`;
}
