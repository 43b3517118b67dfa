import type { Db, DialectName } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import { errors } from '../errors.js';

/**
 * The one way a member's balance or points change: lock the member row, write the log entry with
 * before/after, update the member, all in one transaction. An idempotency key makes a retried request
 * return the first entry instead of applying twice.
 */

export type LedgerKind = 'money' | 'score';

const LEDGER: Record<LedgerKind, { table: string; column: string; title: string }> = {
  money: { table: 'user_money_log', column: 'money', title: 'Balance' },
  score: { table: 'user_score_log', column: 'score', title: 'Points' },
};

export interface LedgerEntryInput {
  kind: LedgerKind;
  userId: number;
  /** cents for money, points for score; signed */
  amount: number;
  memo: string;
  idempotencyKey?: string;
}

export interface LedgerEntry {
  id: number;
  before: number;
  after: number;
  /** false when the idempotency key had been used: nothing changed this time */
  applied: boolean;
}

/** Apply one entry inside the caller's transaction (a survey credit commits with its participation). */
export async function applyLedgerEntry(trx: Db, dialect: DialectName, input: LedgerEntryInput): Promise<LedgerEntry> {
  const ledger = LEDGER[input.kind];
  if (input.memo.trim() === '') throw errors.memoRequired();
  if (!Number.isSafeInteger(input.amount)) throw errors.parameterError();
  if (input.idempotencyKey) {
    const previous = (await trx.selectFrom(ledger.table).select(['id', 'before', 'after']).where('idempotency_key', '=', input.idempotencyKey).executeTakeFirst()) as
      | { id: number; before: number; after: number }
      | undefined;
    if (previous) return { id: Number(previous.id), before: Number(previous.before), after: Number(previous.after), applied: false };
  }
  let lookup = trx.selectFrom('user').select(['id', ledger.column]).where('id', '=', input.userId);
  // SQLite serialises writers per database; PostgreSQL needs the row lock.
  if (dialect === 'postgres') lookup = lookup.forUpdate();
  const user = (await lookup.executeTakeFirst()) as Record<string, number> | undefined;
  if (!user) throw errors.userNotFound();
  const before = Number(user[ledger.column]);
  const after = before + input.amount;
  if (after < 0) throw errors.balanceNegative(ledger.title);
  const inserted = (await trx
    .insertInto(ledger.table)
    .values({
      user_id: input.userId,
      [ledger.column]: input.amount,
      before,
      after,
      memo: input.memo.slice(0, 255),
      idempotency_key: input.idempotencyKey ?? null,
      create_time: nowSeconds(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number };
  await trx.updateTable('user').set({ [ledger.column]: after, update_time: nowSeconds() }).where('id', '=', input.userId).execute();
  return { id: Number(inserted.id), before, after, applied: true };
}

/** Apply one entry in a transaction of its own. */
export async function recordLedgerEntry(db: Db, dialect: DialectName, input: LedgerEntryInput): Promise<LedgerEntry> {
  return db.transaction().execute((trx) => applyLedgerEntry(trx, dialect, input));
}
