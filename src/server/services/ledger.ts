import type { Language } from '../../contract/headers.js';
import type { LedgerRow, Paged } from '../../contract/member-api.js';
import { resourceByTable, type AppContext } from '../app-context.js';
import type { Db, DialectName } from '../db/connection.js';
import { pageRows, type PageRequest } from '../db/pages.js';
import { rowFromStorage } from '../db/values.js';
import { nowSeconds } from '../clock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { errors } from '../errors.js';
import { readStoredText, storedMessage } from '../stored-text.js';

/**
 * The one way a member's balance or points change: lock the member row, write the log entry with
 * before/after, update the member, all in one transaction. An idempotency key makes a retried request
 * return the first entry instead of applying twice.
 */

export type LedgerKind = 'money' | 'score';

const LEDGER = {
  money: { table: 'user_money_log', column: 'money', title: 'Balance' },
  score: { table: 'user_score_log', column: 'score', title: 'Points' },
} as const satisfies Record<LedgerKind, { table: string; column: LedgerKind; title: string }>;

/**
 * The notes the system writes on ledger entries, stored as message keys with parameters
 * (`stored-text.ts`) so each reader sees them in their own language.
 */
export const ledgerNotes = {
  surveyReward: (survey: { id: number | string; title: string }) => storedMessage('Survey reward: %s', [`#${survey.id} ${survey.title}`]),
  surveyRewardReversed: (survey: { id: number | string; title: string }) => storedMessage('Survey reward reversed: %s', [`#${survey.id} ${survey.title}`]),
  quickTaskReward: (task: { id: number | string; title: string }) => storedMessage('Quick task reward: %s', [`#${task.id} ${task.title}`]),
  payoutRequested: (id: number) => storedMessage('Payout #%d requested', [id]),
  payoutRejected: (id: number, reason: string) => storedMessage('Payout #%d rejected: %s', [id, reason]),
};

interface LedgerEntryInput {
  kind: LedgerKind;
  userId: number;
  /** cents for money, points for score; signed */
  amount: number;
  /** a note from `ledgerNotes`, or an administrator's own words */
  memo: string;
  idempotencyKey?: string;
}

interface LedgerEntry {
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
    const previous = await entryByKey(trx, input.kind, input.idempotencyKey);
    if (previous) return previous;
  }
  let lookup = trx.selectFrom('user').select(['id', 'money', 'score']).where('id', '=', input.userId);
  // SQLite serialises writers per database; PostgreSQL needs the row lock.
  if (dialect === 'postgres') lookup = lookup.forUpdate();
  const user = await lookup.executeTakeFirst();
  if (!user) throw errors.userNotFound();
  const before = Number(user[ledger.column]);
  const after = before + input.amount;
  if (after < 0) throw errors.balanceNegative(ledger.title);
  const entry = { user_id: input.userId, before, after, memo: input.memo.slice(0, 255), idempotency_key: input.idempotencyKey ?? null, create_time: nowSeconds() };
  const inserted = input.kind === 'money'
    ? await trx.insertInto('user_money_log').values({ ...entry, money: input.amount }).returning('id').executeTakeFirstOrThrow()
    : await trx.insertInto('user_score_log').values({ ...entry, score: input.amount }).returning('id').executeTakeFirstOrThrow();
  const balance = input.kind === 'money' ? { money: after } : { score: after };
  await trx.updateTable('user').set({ ...balance, update_time: nowSeconds() }).where('id', '=', input.userId).execute();
  return { id: Number(inserted.id), before, after, applied: true };
}

async function entryByKey(db: Db, kind: LedgerKind, key: string): Promise<LedgerEntry | undefined> {
  const previous = await db.selectFrom(LEDGER[kind].table).select(['id', 'before', 'after']).where('idempotency_key', '=', key).executeTakeFirst();
  return previous ? { id: Number(previous.id), before: Number(previous.before), after: Number(previous.after), applied: false } : undefined;
}

/** The entry an idempotency key applied, with its signed amount, or undefined when the key was never used. */
export async function ledgerEntryByKey(db: Db, kind: LedgerKind, key: string): Promise<{ id: number; amount: number } | undefined> {
  const entry = await entryByKey(db, kind, key);
  return entry ? { id: entry.id, amount: entry.after - entry.before } : undefined;
}

/**
 * Apply one entry in a transaction of its own. Two requests with one idempotency key racing: the
 * loser's insert hits the unique key, and it answers with the winner's entry, as a retry would.
 */
export async function recordLedgerEntry(db: Db, dialect: DialectName, input: LedgerEntryInput): Promise<LedgerEntry> {
  try {
    return await db.transaction().execute((trx) => applyLedgerEntry(trx, dialect, input));
  } catch (error) {
    const winner = input.idempotencyKey && isUniqueViolation(error) ? await entryByKey(db, input.kind, input.idempotencyKey) : undefined;
    if (winner) return winner;
    throw error;
  }
}

/** A member's balance (yuan) and points as they stand. */
export async function memberBalance(app: AppContext, userId: number): Promise<{ money: string; score: number }> {
  const row = await app.db.selectFrom('user').select(['money', 'score']).where('id', '=', userId).executeTakeFirstOrThrow();
  return rowFromStorage(resourceByTable(app, 'user'), row) as { money: string; score: number };
}

/** A member's entries of one ledger, newest first: amounts as the ledger's schema shows them (balance in yuan, points as integers), memos in `lang`. */
export async function ledgerPageOf(app: AppContext, kind: LedgerKind, userId: number, page: PageRequest, lang: Language): Promise<Paged<LedgerRow>> {
  const { table, column } = LEDGER[kind];
  const { rows, total } = await pageRows(page, app.db.selectFrom(table).where('user_id', '=', userId), (base) =>
    base.select(['id', 'user_id', column, 'before', 'after', 'memo', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
  );
  const definition = resourceByTable(app, table);
  const list = rows.map((row) => ({ ...(rowFromStorage(definition, row) as Omit<LedgerRow, 'memo'>), memo: readStoredText(row.memo, lang, app.messages) }));
  return { list, total };
}
