import type { Language } from '../../contract/headers.js';
import type { LedgerPage, LedgerRow } from '../../contract/member-api.js';
import { resourceByTable, resourceOf, type AppContext } from '../app-context.js';
import type { Db, DialectName } from '../db/connection.js';
import { pageRows, type PageRequest } from '../db/pages.js';
import { rowFromStorage, wireColumns } from '../db/values.js';
import { nowSeconds } from '../clock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { valueById } from '../db/value-by-id.js';
import { errors } from '../errors.js';
import { readStoredText, storedMessage, textsParam, type StoredParam } from '../stored-text.js';

/** A survey or quick task: its title, and its English one when written. */
type TitledRow = Readonly<Record<string, unknown>> & { title: string; title_en?: string | null };

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
  // A survey's or task's title as members read it (in their language when it has two), never its id.
  surveyReward: (survey: TitledRow) => storedMessage('Survey reward: %s', [textsParam(survey, 'title')]),
  // A reconciliation's notes carry its reason (the administrator's words, or a provider's reversal reason): the member reads it in their ledger.
  surveyRewardReversed: (survey: TitledRow, reason: StoredParam) => storedMessage('Survey reward reversed: %s (reason: %s)', [textsParam(survey, 'title'), reason]),
  surveyRewardReconciled: (survey: TitledRow, reason: StoredParam) => storedMessage('Survey reward after reconciliation: %s (reason: %s)', [textsParam(survey, 'title'), reason]),
  quickTaskReward: (task: TitledRow) => storedMessage('Quick task reward: %s', [textsParam(task, 'title')]),
  payoutRequested: (id: number) => storedMessage('Payout #%d requested', [id]),
  payoutRejected: (id: number, reason: string) => storedMessage('Payout #%d rejected: %s', [id, reason]),
  pointsExchanged: (points: number, yuan: string) => storedMessage('Points exchanged for balance: %d points for ¥%s', [points, yuan]),
  wallCredit: (provider: string, transaction: string) => storedMessage('Survey wall %s: transaction %s', [provider, transaction]),
  wallReversal: (provider: string, transaction: string) => storedMessage('Survey wall %s: transaction %s reversed', [provider, transaction]),
  wallShortfallSettled: (provider: string, transaction: string) => storedMessage('Survey wall %s: earlier reversal settled from transaction %s', [provider, transaction]),
};

interface LedgerEntryInput {
  kind: LedgerKind;
  userId: number;
  /** cents for money, points for score; signed */
  amount: number;
  /** a note from `ledgerNotes`, or an administrator's own words */
  memo: string;
  idempotencyKey?: string;
  /**
   * Let this entry take the balance below zero. Only a survey wall's reversal passes it, for a provider whose
   * `allow_negative` says so (`services/survey/walls.ts`); every other debit that would go below zero is refused.
   */
  allowNegative?: boolean;
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
  // A debit may not take the balance below zero unless asked; a credit is always taken, even to a balance
  // that a wall's reversal left below zero and that stays there after it.
  if (after < 0 && input.amount < 0 && !input.allowNegative) throw errors.balanceNegative(ledger.title);
  const entry = { user_id: input.userId, before, after, memo: input.memo.slice(0, 255), idempotency_key: input.idempotencyKey ?? null, create_time: nowSeconds() };
  const inserted = input.kind === 'money'
    ? await trx.insertInto('user_money_log').values({ ...entry, money: input.amount }).returning('id').executeTakeFirstOrThrow()
    : await trx.insertInto('user_score_log').values({ ...entry, score: input.amount }).returning('id').executeTakeFirstOrThrow();
  const balance = input.kind === 'money' ? { money: after } : { score: after };
  await trx.updateTable('user').set({ ...balance, update_time: nowSeconds() }).where('id', '=', input.userId).execute();
  return { id: Number(inserted.id), before, after, applied: true };
}

/** An entry of a batch: its idempotency key is required, and names the entry once written. */
interface KeyedLedgerEntryInput extends LedgerEntryInput {
  idempotencyKey: string;
}

/** Values of one `in (…)` list, rows of one insert, members of one update: well inside what SQLite and PostgreSQL take as parameters. */
const BATCH = 500;

function slices<T>(list: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < list.length; start += BATCH) result.push(list.slice(start, start + BATCH));
  return result;
}

/** An entry of a batch about to be written. */
interface PendingEntry {
  index: number;
  kind: LedgerKind;
  userId: number;
  amount: number;
  before: number;
  after: number;
  memo: string;
  key: string;
}

/** The entries of a batch whose keys were used before: each answers with its first entry. */
async function earlierEntries(trx: Db, inputs: readonly KeyedLedgerEntryInput[]): Promise<Map<string, LedgerEntry>> {
  const earlier = new Map<string, LedgerEntry>();
  for (const kind of ['money', 'score'] as const) {
    const keys = [...new Set(inputs.filter((input) => input.kind === kind).map((input) => input.idempotencyKey))];
    for (const slice of slices(keys)) {
      const rows = await trx.selectFrom(LEDGER[kind].table).select(['id', 'before', 'after', 'idempotency_key']).where('idempotency_key', 'in', slice).execute();
      for (const row of rows) earlier.set(`${kind}:${row.idempotency_key}`, { id: Number(row.id), before: Number(row.before), after: Number(row.after), applied: false });
    }
  }
  return earlier;
}

/** The members' balances and points, locked (PostgreSQL `FOR UPDATE`, in id order; SQLite serialises writers). */
async function lockedBalances(trx: Db, dialect: DialectName, userIds: readonly number[]): Promise<Map<number, Record<LedgerKind, number>>> {
  const balances = new Map<number, Record<LedgerKind, number>>();
  for (const slice of slices([...new Set(userIds)].sort((a, b) => a - b))) {
    let lookup = trx.selectFrom('user').select(['id', 'money', 'score']).where('id', 'in', slice).orderBy('id');
    if (dialect === 'postgres') lookup = lookup.forUpdate();
    for (const user of await lookup.execute()) balances.set(Number(user.id), { money: Number(user.money), score: Number(user.score) });
  }
  return balances;
}

/** Write the entries of one ledger a slice at a time; their ids are read back by key (an insert does not promise the order of what it returns). */
async function writeEntries(trx: Db, kind: LedgerKind, entries: readonly PendingEntry[], now: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const slice of slices(entries)) {
    const rows = slice.map((entry) => ({ user_id: entry.userId, before: entry.before, after: entry.after, memo: entry.memo, idempotency_key: entry.key, create_time: now }));
    if (kind === 'money') await trx.insertInto('user_money_log').values(rows.map((row, index) => ({ ...row, money: slice[index].amount }))).execute();
    else await trx.insertInto('user_score_log').values(rows.map((row, index) => ({ ...row, score: slice[index].amount }))).execute();
    const written = await trx.selectFrom(LEDGER[kind].table).select(['id', 'idempotency_key']).where('idempotency_key', 'in', slice.map((entry) => entry.key)).execute();
    for (const row of written) ids.set(String(row.idempotency_key), Number(row.id));
  }
  return ids;
}

/**
 * Apply many entries inside the caller's transaction, in order, by the rules of `applyLedgerEntry`: a memo
 * is required, no balance goes below zero (the entry that would take it there fails the whole batch), and
 * a key used before, or earlier in the batch, answers with its first entry and changes nothing. Members
 * are locked first, entries written a slice at a time and each member updated once at the end, so a batch
 * of thousands (a reconciliation of a provider's file) takes a few statements a slice, not four an entry.
 */
export async function applyLedgerEntries(trx: Db, dialect: DialectName, inputs: readonly KeyedLedgerEntryInput[]): Promise<LedgerEntry[]> {
  for (const input of inputs) {
    if (input.memo.trim() === '') throw errors.memoRequired();
    if (!Number.isSafeInteger(input.amount)) throw errors.parameterError();
  }
  const earlier = await earlierEntries(trx, inputs);
  const balances = await lockedBalances(trx, dialect, inputs.map((input) => input.userId));
  const pending: PendingEntry[] = [];
  const firstOfKey = new Map<string, number>();
  inputs.forEach((input, index) => {
    const key = `${input.kind}:${input.idempotencyKey}`;
    if (earlier.has(key) || firstOfKey.has(key)) return;
    firstOfKey.set(key, index);
    const balance = balances.get(input.userId);
    if (!balance) throw errors.userNotFound();
    const before = balance[input.kind];
    const after = before + input.amount;
    if (after < 0) throw errors.balanceNegative(LEDGER[input.kind].title);
    balance[input.kind] = after;
    pending.push({ index, kind: input.kind, userId: input.userId, amount: input.amount, before, after, memo: input.memo.slice(0, 255), key: input.idempotencyKey });
  });
  const now = nowSeconds();
  const written = new Map<number, LedgerEntry>();
  for (const kind of ['money', 'score'] as const) {
    const entries = pending.filter((entry) => entry.kind === kind);
    const ids = await writeEntries(trx, kind, entries, now);
    for (const entry of entries) written.set(entry.index, { id: ids.get(entry.key) ?? 0, before: entry.before, after: entry.after, applied: true });
  }
  const changed = [...new Set(pending.map((entry) => entry.userId))].map((userId) => [userId, balances.get(userId) as Record<LedgerKind, number>] as const);
  for (const slice of slices(changed)) {
    await trx
      .updateTable('user')
      // Each member's balance after the batch, the members of the slice at once.
      .set({
        money: valueById('money', slice.map(([userId, balance]) => [userId, balance.money] as const)),
        score: valueById('score', slice.map(([userId, balance]) => [userId, balance.score] as const)),
        update_time: now,
      })
      .where('id', 'in', slice.map(([userId]) => userId))
      .execute();
  }
  return inputs.map((input, index) => {
    const key = `${input.kind}:${input.idempotencyKey}`;
    const previous = earlier.get(key);
    if (previous) return previous;
    const first = written.get(firstOfKey.get(key) ?? -1) as LedgerEntry;
    return index === firstOfKey.get(key) ? first : { ...first, applied: false };
  });
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
  return wireColumns(resourceOf(app, 'system/user'), row);
}

/** A member's entries of one ledger, newest first: amounts as the ledger's schema shows them (balance in yuan, points as integers), memos in `lang`. */
export async function ledgerPageOf(app: AppContext, kind: LedgerKind, userId: number, page: PageRequest, lang: Language): Promise<LedgerPage> {
  const { table, column } = LEDGER[kind];
  const { rows, total } = await pageRows(page, app.db.selectFrom(table).where('user_id', '=', userId), (base) =>
    base.select(['id', 'user_id', column, 'before', 'after', 'memo', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
  );
  const definition = resourceByTable(app, table);
  const list = rows.map((row) => ({ ...(rowFromStorage(definition, row) as Omit<LedgerRow, 'memo'>), memo: readStoredText(row.memo, lang, app.messages) }));
  const standing = await memberBalance(app, userId);
  return { list, total, current: kind === 'money' ? standing.money : standing.score };
}
