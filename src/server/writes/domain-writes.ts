import { fieldOf, valueLabel, type FieldDefinition, type ResourceDefinition, type Row } from '../../schema/definition.js';
import { dynamicDb, type Db } from '../db/connection.js';
import { rowFromStorage } from '../db/values.js';
import { errors } from '../errors.js';
import { recordSensitiveChanges, type Actor, type StoredWrite } from './sensitive-log.js';

/**
 * The one way a domain operation (a payout's review, a quick-task submission's review, a participation's
 * return) changes a row of a schema table, so that what the engine guards on an edit guards it too: the
 * moves of `x-transitions` and the sensitive-data log. The row is the one the operation read (and locked)
 * in `trx`; the update holds only while its transition fields still have the values read, so a write
 * racing past the lock (another process on SQLite) changes nothing.
 */

/**
 * Whether `x-transitions` lets `field` move from `from` to `to`: staying put always may, a field without
 * transitions may move anywhere. The engine's one answer, for edits and for domain operations alike.
 */
function transitionAllowed(field: FieldDefinition, from: string, to: string): boolean {
  return from === to || !field.transitions || (field.transitions[from] ?? []).includes(to);
}

/** Refuses a write whose values move a field with `x-transitions` along a move it does not declare. */
export function checkTransitions(definition: ResourceDefinition, existing: Row, values: Row): void {
  for (const field of definition.fields) {
    if (!field.transitions || !(field.name in values)) continue;
    const from = String(existing[field.name]);
    const to = String(values[field.name]);
    if (!transitionAllowed(field, from, to)) throw errors.invalidTransition(field.title, valueLabel(field, from), valueLabel(field, to));
  }
}

interface DomainWrite extends StoredWrite {
  definition: ResourceDefinition;
}

/**
 * Whether the schema's `x-transitions` declare a move of the row's `field` from its value in `existing`
 * (stored) to `to`. A step of a domain operation is a move: staying put, or a field that declares no
 * transitions, is not one.
 */
export function domainMoveAllowed(definition: ResourceDefinition, field: string, existing: Row, to: string): boolean {
  const from = String(existing[field]);
  return from !== to && (fieldOf(definition, field)?.transitions?.[from] ?? []).includes(to);
}

/**
 * The engine's checks of domain writes, before they are stored: each write's transitions (an illegal move
 * is refused as an edit's is), then the sensitive-data log of their watched fields. For an operation that
 * stores many rows in one statement (a reconciliation); `updateDomainRow` does this for one row.
 */
export async function checkDomainWrites(actor: Actor, trx: Db, definition: ResourceDefinition, writes: readonly StoredWrite[]): Promise<void> {
  for (const { existing, changes } of writes) checkTransitions(definition, rowFromStorage(definition, existing), rowFromStorage(definition, changes));
  await recordSensitiveChanges(actor, trx, definition, writes);
}

/**
 * Checks the write (`checkDomainWrites`), then updates the row; answers how many rows changed (0 when its
 * transition fields moved meanwhile).
 */
export async function updateDomainRow(actor: Actor, trx: Db, write: DomainWrite): Promise<number> {
  return updateDomainRows(actor, trx, write.definition, [write.existing], write.changes);
}

/**
 * The same `changes` on several rows of one table, each as stored in `existing` (read, and locked, in
 * `trx`): every row's move is checked (`checkDomainWrites`), an illegal one refusing them all before any is
 * written; then the rows are updated, each only while its transition fields still have the values read.
 * Answers how many rows changed. The caller keeps `existing` within what one statement's parameters take.
 */
export async function updateDomainRows(actor: Actor, trx: Db, definition: ResourceDefinition, existing: readonly Row[], changes: Row): Promise<number> {
  await checkDomainWrites(actor, trx, definition, existing.map((row) => ({ existing: row, changes })));
  const guarded = definition.fields.filter((field) => field.transitions && field.name in changes).map((field) => field.name);
  // Rows read with the same values of the guarded fields are updated by one statement.
  const groups = new Map<string, Row[]>();
  for (const row of existing) {
    const key = JSON.stringify(guarded.map((name) => row[name]));
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let changed = 0;
  for (const rows of groups.values()) {
    let update = dynamicDb(trx).updateTable(definition.table).set(changes).where(definition.primaryKey, 'in', rows.map((row) => row[definition.primaryKey]));
    for (const name of guarded) update = update.where(name, '=', rows[0][name]);
    const result = await update.executeTakeFirst();
    changed += Number(result.numUpdatedRows);
  }
  return changed;
}
