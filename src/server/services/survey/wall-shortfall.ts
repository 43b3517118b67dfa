import type { Db, DialectName } from '../../db/connection.js';
import { applyLedgerEntry, ledgerNotes, type LedgerEntry, type LedgerKind } from '../ledger.js';

/**
 * What a member owes from wall reversals their balance could not cover (`user.wall_shortfall_money|score`,
 * docs/survey-domain.md#reversals-of-wall-transactions) is taken from their next wall credit of the same
 * unit the moment that credit reaches the balance: paid at once by its callback, or released by the sweep
 * after its hold period. Both go through `settleFromWallCredit`, so a held credit settles exactly as one
 * paid at once does.
 */

/** A wall credit whose ledger entry was just written, under the member's lock, in the caller's transaction. */
interface CreditReachedBalance {
  /** the `survey_wall_transaction` row */
  rowId: number;
  userId: number;
  unit: LedgerKind;
  /** cents or points the credit brought */
  amount: number;
  /** the credit's ledger entry */
  entry: Pick<LedgerEntry, 'id' | 'after'>;
  /** for the settling entry's memo: the wall's name and its transaction id */
  providerName: string;
  transactionId: string;
}

function shortfallColumn(unit: LedgerKind) {
  return unit === 'money' ? 'wall_shortfall_money' : 'wall_shortfall_score';
}

/**
 * Settles what the member owes from this credit, as far as the credit and the balance go, by a ledger entry
 * of its own (`wall:<row>:settle`), lowers what they owe, and notes the credit's entries on its row.
 */
export async function settleFromWallCredit(trx: Db, dialect: DialectName, credit: CreditReachedBalance): Promise<void> {
  const { rowId, userId, unit, amount, entry } = credit;
  const column = shortfallColumn(unit);
  const owed = Number((await trx.selectFrom('user').select(column).where('id', '=', userId).executeTakeFirstOrThrow())[column]);
  // Never more than this credit brought, nor below zero a balance an allowed negative reversal left there.
  const settled = Math.max(0, Math.min(amount, owed, entry.after));
  let settleLogId: number | null = null;
  if (settled > 0) {
    const settle = await applyLedgerEntry(trx, dialect, {
      kind: unit, userId, amount: -settled, memo: ledgerNotes.wallShortfallSettled(credit.providerName, credit.transactionId), idempotencyKey: `wall:${rowId}:settle`,
    });
    settleLogId = settle.id;
    await trx.updateTable('user').set(unit === 'money' ? { wall_shortfall_money: owed - settled } : { wall_shortfall_score: owed - settled }).where('id', '=', userId).execute();
  }
  await trx.updateTable('survey_wall_transaction').set({ credit_log_id: entry.id, settle_log_id: settleLogId, settled }).where('id', '=', rowId).execute();
}

/**
 * A held wall credit the sweep just released (`holds.ts`): settled as `settleFromWallCredit` says, with
 * its transaction's row and wall read here.
 */
export async function settleFromReleasedWallCredit(trx: Db, dialect: DialectName, rowId: number, entry: Pick<LedgerEntry, 'id' | 'after'>): Promise<void> {
  const row = await trx
    .selectFrom('survey_wall_transaction as w')
    .leftJoin('survey_provider as p', 'p.id', 'w.provider_id')
    .select(['w.id', 'w.user_id', 'w.unit', 'w.money', 'w.score', 'w.transaction_id', 'p.name'])
    .where('w.id', '=', rowId)
    .executeTakeFirst();
  if (!row) return;
  await settleFromWallCredit(trx, dialect, {
    rowId, userId: Number(row.user_id), unit: row.unit, amount: Number(row.unit === 'money' ? row.money : row.score), entry, providerName: row.name ?? '', transactionId: row.transaction_id,
  });
}
