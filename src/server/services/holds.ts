import type { Language } from '../../contract/headers.js';
import type { PendingCredit, PendingCredits } from '../../contract/member-api.js';
import { resourceByTable, type AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { Db, DialectName, StoredRow } from '../db/connection.js';
import { pageRows, type PageRequest } from '../db/pages.js';
import { centsToYuan } from '../db/values.js';
import { errors } from '../errors.js';
import { readStoredText } from '../stored-text.js';
import { applyLedgerEntry, ledgerEntryByKey, type LedgerKind } from './ledger.js';
import { settleFromReleasedWallCredit } from './survey/wall-shortfall.js';
import { updateDomainRows } from '../writes/domain-writes.js';
import type { Actor } from '../writes/sensitive-log.js';

/**
 * Hold periods (docs/survey-domain.md#hold-period): a credit of a provider (or survey) with a hold of N
 * days first lands as a pending row of `user_credit_hold`, and becomes available after N days unless it is
 * reversed in between. Pending money is in neither `user.money` nor the ledger: the balance stays the sum
 * of its log, and a payout (which draws on `user.money`) can draw only on what is available. The release
 * credits through the ledger under the idempotency key of the credit the hold stands for, so a released
 * hold and an immediate credit look the same to everything that reads the ledger, and a reversal finds
 * either by that key.
 */

/** What a credit is paid for: a survey participation, or a transaction of a provider's wall. */
interface HoldSource {
  type: StoredRow<'user_credit_hold'>['source_type'];
  /** the id of its row (the participation, the wall transaction) */
  id: number;
}

interface CreditOrHoldInput {
  kind: LedgerKind;
  userId: number;
  /** cents for money, points for score; more than zero */
  amount: number;
  /** a note from `ledgerNotes` (stored text); the release writes it on the ledger entry */
  memo: string;
  /** the credit's key: the ledger entry's when paid at once, the hold's (and later its release's) otherwise */
  idempotencyKey: string;
  /** days before the credit is available; 0 credits at once */
  holdDays: number;
  source: HoldSource;
  /** when the credit was earned (Unix seconds), now by default; one reward's money and points pass the same moment so both release together */
  earnedAt?: number;
}

/** Where a credit stands after `creditOrHold`; `applied` is false when the key had been used already. */
type CreditOutcome =
  | { state: 'available'; logId: number; applied: boolean }
  | { state: 'pending'; holdId: number; releaseAt: number; applied: boolean }
  | { state: 'cancelled'; holdId: number; applied: false };

/** Most days a hold may last (the schemas' bound). */
const MAX_HOLD_DAYS = 365;
const DAY = 86_400;
/** Longest idempotency key the ledgers and the holds keep. */
const MAX_KEY_LENGTH = 64;

type HoldRow = StoredRow<'user_credit_hold'>;

/** The release sweep moves holds as nobody: no administrator, no address (a reversal passes who reverses). */
const SWEEP: Actor = { adminId: 0, ip: '', userAgent: '' };

/**
 * Moves holds, each as read under its lock, to a new state: through the engine's check of the schema's
 * `x-transitions` (schemas/user/credit_hold.json: a pending hold is released or cancelled, once), so a
 * move it does not declare (cancelling a released hold) is refused and changes nothing. Answers how many
 * holds moved.
 */
async function moveHolds(app: AppContext, trx: Db, actor: Actor, holds: readonly HoldRow[], changes: Partial<HoldRow>): Promise<number> {
  return updateDomainRows(actor, trx, resourceByTable(app, 'user_credit_hold'), holds, changes);
}

function lockHold<Q extends { forUpdate(): Q }>(dialect: DialectName, query: Q): Q {
  // SQLite serialises writers per database; PostgreSQL needs the row lock.
  return dialect === 'postgres' ? query.forUpdate() : query;
}

async function holdByKey(trx: Db, dialect: DialectName, key: string): Promise<HoldRow | undefined> {
  return lockHold(dialect, trx.selectFrom('user_credit_hold').selectAll().where('idempotency_key', '=', key)).executeTakeFirst();
}

function outcomeOfHold(hold: HoldRow): CreditOutcome {
  if (hold.state === 'pending') return { state: 'pending', holdId: Number(hold.id), releaseAt: Number(hold.release_at), applied: false };
  if (hold.state === 'released') return { state: 'available', logId: Number(hold.log_id), applied: false };
  return { state: 'cancelled', holdId: Number(hold.id), applied: false };
}

/**
 * Credit a member at once (`holdDays` 0, through the ledger) or hold the credit for `holdDays` days.
 * Idempotent on the key whichever way it went the first time: a retry after the provider's hold period
 * changed still answers the first outcome and pays nothing more. Run it in the caller's transaction under
 * a lock of what is credited (the participation, the wall transaction), as `applyLedgerEntry` is.
 */
export async function creditOrHold(trx: Db, dialect: DialectName, input: CreditOrHoldInput): Promise<CreditOutcome> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw errors.parameterError();
  if (!Number.isInteger(input.holdDays) || input.holdDays < 0 || input.holdDays > MAX_HOLD_DAYS) throw errors.parameterError();
  if (input.idempotencyKey === '' || input.idempotencyKey.length > MAX_KEY_LENGTH) throw errors.parameterError();
  // The release writes this memo on the ledger entry: refused now rather than then.
  if (input.memo.trim() === '') throw errors.memoRequired();

  const held = await holdByKey(trx, dialect, input.idempotencyKey);
  if (held) return outcomeOfHold(held);
  const paid = await ledgerEntryByKey(trx, input.kind, input.idempotencyKey);
  if (paid) return { state: 'available', logId: paid.id, applied: false };

  if (input.holdDays === 0) {
    const entry = await applyLedgerEntry(trx, dialect, { kind: input.kind, userId: input.userId, amount: input.amount, memo: input.memo, idempotencyKey: input.idempotencyKey });
    return { state: 'available', logId: entry.id, applied: entry.applied };
  }
  const member = await trx.selectFrom('user').select('id').where('id', '=', input.userId).executeTakeFirst();
  if (!member) throw errors.userNotFound();
  const now = input.earnedAt ?? nowSeconds();
  const releaseAt = now + input.holdDays * DAY;
  const inserted = await trx
    .insertInto('user_credit_hold')
    .values({
      user_id: input.userId, kind: input.kind, amount: input.amount, state: 'pending', release_at: releaseAt,
      source_type: input.source.type, source_id: input.source.id, memo: input.memo.slice(0, 255), idempotency_key: input.idempotencyKey,
      log_id: null, cancel_memo: '', settle_time: null, create_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { state: 'pending', holdId: Number(inserted.id), releaseAt, applied: true };
}

/** Rows of one update of holds: well inside what SQLite and PostgreSQL take as parameters. */
const CANCEL_SLICE = 200;

/**
 * Cancel pending holds, with the reason (`memo`): how a reversal takes back a credit still pending
 * (nothing is written to the ledger; one already available is debited back through the ledger under
 * `<credit key>:reverse` instead). The caller has locked the holds (`FOR UPDATE` on PostgreSQL) and found
 * them pending, before locking the members, as a release locks them; so a release running at the same
 * moment either landed before (the credit is then available and debited) or finds the hold cancelled.
 * Every hold must still be pending: anything else throws, and the caller's transaction is undone.
 */
export async function cancelPendingHolds(app: AppContext, trx: Db, actor: Actor, holdIds: readonly number[], memo: string): Promise<void> {
  const now = nowSeconds();
  for (let start = 0; start < holdIds.length; start += CANCEL_SLICE) {
    const slice = holdIds.slice(start, start + CANCEL_SLICE);
    const holds = await trx.selectFrom('user_credit_hold').selectAll().where('id', 'in', slice).execute();
    const updated = await moveHolds(app, trx, actor, holds, { state: 'cancelled', cancel_memo: memo.slice(0, 255), settle_time: now });
    if (updated !== slice.length) throw new Error('holds: a hold to cancel was no longer pending under its lock');
  }
}

interface HeldCreditInput {
  kind: LedgerKind;
  userId: number;
  /** the key the credit was made with (`creditOrHold`'s `idempotencyKey`) */
  idempotencyKey: string;
  /** why, kept on the cancelled hold */
  memo: string;
}

/** A held credit's reversal: cancelled now (`applied`), or found cancelled before. */
interface HeldCreditOutcome {
  action: 'cancelled';
  amount: number;
  applied: boolean;
}

/**
 * Locks the hold of a credit, if it has one, before its member is locked: the order the sweep's release
 * takes (hold, then member), so a reversal racing the release waits for it instead of deadlocking it.
 */
export async function lockHeldCredit(trx: Db, dialect: DialectName, idempotencyKey: string): Promise<void> {
  await holdByKey(trx, dialect, idempotencyKey);
}

/**
 * A wall's reversal of one credit that may have been held: a pending hold is cancelled (nothing reaches the
 * ledger), one cancelled before answers so again; undefined when the credit was never held or has been
 * released, and so stands in the ledger for the caller to take back its own way (a wall's reversal may go
 * below zero or leave a shortfall).
 */
export async function cancelHeldCredit(app: AppContext, trx: Db, actor: Actor, input: HeldCreditInput): Promise<HeldCreditOutcome | undefined> {
  const hold = await holdByKey(trx, app.handle.dialect, input.idempotencyKey);
  if (hold && (Number(hold.user_id) !== input.userId || hold.kind !== input.kind)) throw errors.parameterError();
  if (hold?.state === 'cancelled') return { action: 'cancelled', amount: Number(hold.amount), applied: false };
  if (hold?.state !== 'pending') return undefined;
  await moveHolds(app, trx, actor, [hold], { state: 'cancelled', cancel_memo: input.memo.slice(0, 255), settle_time: nowSeconds() });
  return { action: 'cancelled', amount: Number(hold.amount), applied: true };
}

/** Holds released by one query's batch; a run goes on batch after batch up to `MAX_BATCHES`. */
const RELEASE_BATCH = 500;
const MAX_BATCHES = 20;

/**
 * Release every pending hold whose time has come by `now`: each in its own transaction, the hold row
 * locked and read again, credited through the ledger under the hold's key, marked released. Two
 * processes (or a manual run beside the scheduled one) running it at once release each hold once: the
 * second waits for the first's lock and finds it released, and the ledger's key would refuse a second
 * entry anyway. A hold whose member is gone (deleted, perhaps to be restored) waits. Answers how many
 * this call released.
 */
export async function releaseDueHolds(app: AppContext, now = nowSeconds()): Promise<number> {
  const dialect = app.handle.dialect;
  let released = 0;
  let afterId = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    // By id, so that a hold skipped in this run (its member gone) does not come back in the next batch.
    const due = await app.db
      .selectFrom('user_credit_hold as h')
      .innerJoin('user as u', 'u.id', 'h.user_id')
      .select('h.id as id')
      .where('h.state', '=', 'pending')
      .where('h.release_at', '<=', now)
      .where('h.id', '>', afterId)
      .orderBy('h.id', 'asc')
      .limit(RELEASE_BATCH)
      .execute();
    for (const { id } of due) {
      afterId = Number(id);
      const done = await app.db.transaction().execute(async (trx) => {
        const hold = await lockHold(dialect, trx.selectFrom('user_credit_hold').selectAll().where('id', '=', id)).executeTakeFirst();
        if (!hold || hold.state !== 'pending' || Number(hold.release_at) > now) return false;
        // Deleted since the batch was read: the hold waits, as the batch's join makes it.
        if (!(await trx.selectFrom('user').select('id').where('id', '=', hold.user_id).executeTakeFirst())) return false;
        const entry = await applyLedgerEntry(trx, dialect, { kind: hold.kind, userId: Number(hold.user_id), amount: Number(hold.amount), memo: hold.memo, idempotencyKey: hold.idempotency_key });
        await moveHolds(app, trx, SWEEP, [hold], { state: 'released', log_id: entry.id, settle_time: nowSeconds() });
        // A wall credit reaching the balance settles what the member owes from earlier wall reversals, as one paid at once does.
        if (hold.source_type === 'wall') await settleFromReleasedWallCredit(trx, dialect, Number(hold.source_id), entry);
        return true;
      });
      if (done) released += 1;
    }
    if (due.length < RELEASE_BATCH) break;
  }
  return released;
}

/** A member's pending credits: what is held of their balance (cents) and points. */
export async function pendingTotals(db: Db, userId: number): Promise<{ money: number; score: number }> {
  const rows = await db
    .selectFrom('user_credit_hold')
    .select(['kind', (eb) => eb.fn.sum<number | string | null>('amount').as('total')])
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .groupBy('kind')
    .execute();
  const total = (kind: LedgerKind) => Number(rows.find((row) => row.kind === kind)?.total ?? 0);
  return { money: total('money'), score: total('score') };
}

/** The member's pending credits, the soonest available first, with the totals; memos in `lang`. */
export async function pendingCreditsOf(app: AppContext, userId: number, page: PageRequest, lang: Language): Promise<PendingCredits> {
  const { rows, total } = await pageRows(page, app.db.selectFrom('user_credit_hold').where('user_id', '=', userId).where('state', '=', 'pending'), (base) =>
    base.select(['id', 'kind', 'amount', 'release_at', 'memo', 'create_time']).orderBy('release_at', 'asc').orderBy('id', 'asc'),
  );
  const list = rows.map((row): PendingCredit => ({
    id: Number(row.id),
    kind: row.kind,
    ...(row.kind === 'money' ? { money: centsToYuan(row.amount) } : { score: Number(row.amount) }),
    release_at: Number(row.release_at),
    memo: readStoredText(row.memo, lang, app.messages),
    create_time: row.create_time === null ? null : Number(row.create_time),
  }));
  const totals = await pendingTotals(app.db, userId);
  return { list, total, money: centsToYuan(totals.money), score: totals.score };
}
