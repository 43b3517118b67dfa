import { cancelHeldCredit, creditOrHold, lockHeldCredit } from '../holds.js';
import { fieldOf } from '../../../schema/definition.js';
import { resourceByTable, type AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import type { Db, DialectName, StoredRow } from '../../db/connection.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { centsToYuan } from '../../db/values.js';
import { ApiError, errors } from '../../errors.js';
import { storedMessage } from '../../stored-text.js';
import { applyLedgerEntry, ledgerNotes, type LedgerKind } from '../ledger.js';
import { periodOf } from './figures.js';
import { mapProviderStatus } from './provider-status.js';
import { isReversal, reversalRuleOf } from './reversal-rules.js';
import { providerReversalReason } from './reversal-reasons.js';
import { memberOfWallId } from './wall-members.js';
import { settleFromWallCredit } from './wall-shortfall.js';
import { transactionIdIn } from './transaction-ids.js';
import { updateDomainRow } from '../../writes/domain-writes.js';

/** A survey provider as stored (its wall settings: the reward unit, the daily cap, the callback's parameters). */
type ProviderRow = StoredRow<'survey_provider'>;

/**
 * A survey wall's (or router's) callback, once the caller has checked the provider, its address allowlist
 * and the signature (docs/survey-domain.md#walls-and-routers). The wall names the member by their wall id,
 * the transaction by its own id, and the amount; each (provider, transaction id) is one row of
 * `survey_wall_transaction`, so a transaction is credited once and reversed once whatever arrives how often,
 * in which order and on how many processes:
 *
 * - everything of one callback happens in one transaction under the member's row lock (PostgreSQL
 *   `FOR UPDATE`; SQLite runs one writer at a time), so callbacks for one member run one after the other and
 *   each sees what the one before wrote; the unique index (provider_id, transaction_id) refuses the rest, and
 *   the loser answers as a repeat;
 * - the ledger entries are keyed `wall:<row id>:credit|settle|reverse`.
 *
 * A reversal debits exactly what its transaction credited. A reversal that comes first is kept as a reversed
 * row, so the credit arriving later is not paid. A debit the balance does not cover: with the provider's
 * `allow_negative` the balance goes below zero; otherwise what the balance covers is debited and the rest is
 * owed (`user.wall_shortfall_money|score`), taken first from the member's next wall credits by ledger
 * entries of their own, so every balance still equals the sum of its ledger.
 */

type WallTransactionRow = StoredRow<'survey_wall_transaction'>;

/** What the caller turns into the provider's answer. */
export type WallCallbackResult =
  /** taken now: credited (or refused by nothing), reversed, or test traffic recorded (`transaction` absent when it named no member) */
  | { answer: 'ok'; event: 'credited' | 'reversed' | 'test'; transaction?: WallTransactionRow }
  /** a repeat of what is recorded: nothing changed */
  | { answer: 'duplicate'; transaction: WallTransactionRow }
  /** refused: `transaction` is set when the refusal was recorded (above a cap, another member's transaction) */
  | { answer: 'refused'; error: ApiError; transaction?: WallTransactionRow };

interface WallCallbackInput {
  ip: string;
  /** the query (or form) as received, kept with the row */
  rawQuery: string;
}

const MAX_TRANSACTION_ID = 100;
const MAX_RAW_QUERY = 4000;
/** at most 12 digits before the point: far beyond any cap, and exact in a double once in cents */
const MAJOR_AMOUNT = /^([+-]?)(\d{1,12})(?:\.(\d+))?$/;
const MINOR_AMOUNT = /^([+-]?)(\d{1,14})(?:\.0+)?$/;

/** What one callback says, read from its parameters. */
interface WallCall {
  wallMemberId: string | undefined;
  transactionId: string;
  reversal: boolean;
  test: boolean;
  /** in our units (cents or points), as signed as sent; undefined when a reversal sent none */
  amount: number | undefined;
  /** the provider's own words (its reason parameter), as sent */
  providerReason: string;
  /** a reversal's reason of ours, stored text (`reversal-reasons.ts`); '' for a credit */
  reversalReason: string;
}

function settingTitle(app: AppContext, column: string) {
  return fieldOf(resourceByTable(app, 'survey_provider'), column)?.title ?? column;
}

/**
 * An amount as sent, in our units: `major` is decimal currency units (at most two decimals: 1.25 → 125
 * cents; for a points wall 1.25 → 125 points), `minor` whole cents or points. Read from the digits, never
 * through a float. An ApiError when it is not such a number.
 */
function amountInUnits(text: string, unitIn: 'major' | 'minor', param: string): number | ApiError {
  const value = text.trim();
  if (unitIn === 'minor') {
    const match = MINOR_AMOUNT.exec(value);
    if (!match) return errors.wallAmountNotWhole(value, param);
    const units = Number(match[2]);
    return match[1] === '-' ? -units : units;
  }
  const match = MAJOR_AMOUNT.exec(value);
  // "1.250" is 1.25; "1.255" is not a number of cents.
  const fraction = match?.[3] ?? '';
  if (!match || /[1-9]/.test(fraction.slice(2))) return errors.wallAmountNotDecimal(value, param);
  const units = Number(match[2]) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return match[1] === '-' ? -units : units;
}

/** Whether the provider marked the call as test traffic: its `test_param` holding `test_value` (default "true", either case). */
function isTestCall(provider: ProviderRow, params: (name: string) => string | undefined): boolean {
  if (provider.test_param === '') return false;
  const value = params(provider.test_param);
  return value !== undefined && value.toLowerCase() === (provider.test_value || 'true').toLowerCase();
}

/**
 * The transaction a call names: its transaction parameter, or for a reversal marked by a prefix, the
 * prefixed parameter's value without the prefix (`r-123` reverses `123`).
 */
function transactionIdOf(provider: ProviderRow, rule: ReturnType<typeof reversalRuleOf>, reversal: boolean, params: (name: string) => string | undefined): string {
  if (reversal && rule.by === 'prefix') return (params(rule.param)?.trim() ?? '').slice(rule.value.length);
  return transactionIdIn(provider.transaction_param, params);
}

/** The callback's parameters as a wall call, or the refusal of a call that is not one. Nothing is written for these. */
function readWallCall(app: AppContext, provider: ProviderRow, params: (name: string) => string | undefined): WallCall | ApiError {
  for (const column of ['member_param', 'transaction_param'] as const) {
    if (provider[column] === '') return errors.wallSettingMissing(settingTitle(app, column));
  }
  const rule = reversalRuleOf(provider);
  const reversal = isReversal(rule, params, provider.amount_param);
  const transactionId = transactionIdOf(provider, rule, reversal, params);
  if (transactionId === '' || transactionId.length > MAX_TRANSACTION_ID) return errors.wallTransactionMissing(provider.transaction_param);
  const test = isTestCall(provider, params);
  let amount: number | undefined;
  const amountText = provider.amount_param === '' ? undefined : params(provider.amount_param);
  if (amountText !== undefined && amountText.trim() !== '') {
    const read = amountInUnits(amountText, provider.amount_in, provider.amount_param);
    // A reversal's amount is only kept for the record: what is debited is what the transaction credited.
    if (read instanceof ApiError) {
      if (!reversal) return read;
    } else {
      amount = read;
    }
  }
  if (!reversal) {
    if (provider.amount_param === '') return errors.wallSettingMissing(settingTitle(app, 'amount_param'));
    if (amount === undefined) return errors.wallAmountMissing(provider.amount_param);
    if (amount < 0) return errors.wallAmountNegative(amountText ?? '');
  }
  const providerReason = provider.reason_param === '' ? '' : (params(provider.reason_param) ?? '').trim().slice(0, 255);
  // A reversal's status (a reason code, the new status) through the exit map gives our reason.
  const status = provider.status_param === '' ? undefined : mapProviderStatus(provider, params(provider.status_param) ?? '');
  const reversalReason = reversal ? providerReversalReason(status) : '';
  return { wallMemberId: params(provider.member_param), transactionId, reversal, test, amount, providerReason, reversalReason };
}

/** cents as yuan, points as they are: how a cap or a sum reads in a message */
function inUnits(unit: LedgerKind, amount: number): string {
  return unit === 'money' ? centsToYuan(amount) : String(amount);
}

function amountOf(row: WallTransactionRow): number {
  return row.unit === 'money' ? Number(row.money) : Number(row.score);
}

async function lockMember(trx: Db, dialect: DialectName, userId: number) {
  let lookup = trx.selectFrom('user').select(['id', 'money', 'score', 'wall_shortfall_money', 'wall_shortfall_score']).where('id', '=', userId);
  if (dialect === 'postgres') lookup = lookup.forUpdate();
  return lookup.executeTakeFirstOrThrow();
}

async function transactionRow(db: Db, providerId: number, transactionId: string): Promise<WallTransactionRow | undefined> {
  return db.selectFrom('survey_wall_transaction').selectAll().where('provider_id', '=', providerId).where('transaction_id', '=', transactionId).executeTakeFirst();
}

async function rowById(db: Db, id: number): Promise<WallTransactionRow> {
  return db.selectFrom('survey_wall_transaction').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

interface NewRow {
  state: WallTransactionRow['state'];
  unit: LedgerKind;
  amount: number;
  reason?: string;
  creditTime?: number;
  reverseTime?: number;
}

async function insertRow(trx: Db, provider: ProviderRow, userId: number, call: WallCall, input: WallCallbackInput, row: NewRow): Promise<number> {
  const now = nowSeconds();
  const inserted = await trx
    .insertInto('survey_wall_transaction')
    .values({
      provider_id: Number(provider.id),
      user_id: userId,
      transaction_id: call.transactionId,
      state: row.state,
      unit: row.unit,
      money: row.unit === 'money' ? row.amount : 0,
      score: row.unit === 'score' ? row.amount : 0,
      shortfall: 0,
      settled: 0,
      reason: row.reason ?? '',
      provider_reason: call.providerReason,
      ip: input.ip.slice(0, 50),
      raw_query: input.rawQuery.slice(0, MAX_RAW_QUERY),
      credit_time: row.creditTime ?? null,
      reverse_time: row.reverseTime ?? null,
      create_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The member's credits from this provider since midnight of the site's calendar, reversed ones included. */
async function creditedToday(trx: Db, provider: ProviderRow, userId: number, unit: LedgerKind, since: number): Promise<number> {
  const column = unit === 'money' ? 'money' : 'score';
  const row = await trx
    .selectFrom('survey_wall_transaction')
    .select((eb) => eb.fn.sum<number | string | null>(column).as('total'))
    .where('provider_id', '=', Number(provider.id))
    .where('user_id', '=', userId)
    .where('unit', '=', unit)
    .where('state', 'in', ['credited', 'reversed'])
    .where('credit_time', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/** A refusal beyond the caps, or undefined when the amount is within them. */
async function capRefusal(trx: Db, provider: ProviderRow, userId: number, unit: LedgerKind, amount: number, dayStart: number): Promise<ApiError | undefined> {
  const perTransaction = Number(provider.cap_transaction);
  if (perTransaction > 0 && amount > perTransaction) return errors.wallCapTransaction(inUnits(unit, perTransaction));
  const perDay = Number(provider.cap_member_day);
  if (perDay > 0) {
    const today = await creditedToday(trx, provider, userId, unit, dayStart);
    if (today + amount > perDay) return errors.wallCapMemberDay(inUnits(unit, perDay), inUnits(unit, today));
  }
  return undefined;
}

/** A credit to pay: the transaction's row (just written, `credited`) and what it pays. */
interface WallCredit {
  app: AppContext;
  provider: ProviderRow;
  transaction: WallTransactionRow;
  userId: number;
  unit: LedgerKind;
  /** cents or points, > 0 */
  amount: number;
}

/**
 * Pays one wall credit inside the callback's transaction, under the member's lock: the credit entry, then
 * what the member owes from earlier reversals (their wall shortfall) is taken from it, as far as the credit
 * and the balance go, by an entry of its own (`wall-shortfall.ts`). Under the provider's `hold_days` the
 * credit is held instead (`holds.ts`): nothing reaches the balance yet, so nothing settles until the sweep
 * releases it, which then settles the same way.
 *
 * This is the one place a wall pays, and `reverseWallCredit` the one place it takes back.
 */
async function creditWallAmount(trx: Db, credit: WallCredit): Promise<void> {
  const { app, provider, transaction, userId, unit, amount } = credit;
  const dialect = app.handle.dialect;
  const id = Number(transaction.id);
  const memo = ledgerNotes.wallCredit(provider.name, transaction.transaction_id);
  const holdDays = Number(provider.hold_days);
  if (holdDays > 0) {
    await creditOrHold(trx, dialect, { kind: unit, userId, amount, memo, idempotencyKey: `wall:${id}:credit`, holdDays, source: { type: 'wall', id } });
    return;
  }
  const entry = await applyLedgerEntry(trx, dialect, { kind: unit, userId, amount, memo, idempotencyKey: `wall:${id}:credit` });
  await settleFromWallCredit(trx, dialect, { rowId: id, userId, unit, amount, entry, providerName: provider.name, transactionId: transaction.transaction_id });
}

/**
 * Takes back a credited transaction: exactly what it credited, below zero when the provider allows it,
 * else what the balance covers, the rest owed by the member.
 */
async function reverseWallCredit(trx: Db, app: AppContext, provider: ProviderRow, row: WallTransactionRow, call: WallCall, input: WallCallbackInput): Promise<void> {
  // The provider's call moves the row, through the engine's check of the schema's `x-transitions`
  // (schemas/survey/wall_transaction.json: only a credited transaction is reversed, once).
  const actor = { adminId: 0, ip: input.ip, userAgent: '' };
  const definition = resourceByTable(app, 'survey_wall_transaction');
  const unit = row.unit;
  const userId = Number(row.user_id);
  const debt = amountOf(row);
  const member = await lockMember(trx, app.handle.dialect, userId);
  // A credit still held is cancelled: it never reached the balance, so nothing is debited or owed.
  const memo = ledgerNotes.wallReversal(provider.name, row.transaction_id);
  // Why, kept on the row for the member's records: our reason, and the provider's words when it sent some.
  const why = { reason: call.reversalReason, ...(call.providerReason !== '' ? { provider_reason: call.providerReason } : {}) };
  if (await cancelHeldCredit(app, trx, actor, { kind: unit, userId, idempotencyKey: `wall:${row.id}:credit`, memo })) {
    await updateDomainRow(actor, trx, { definition, existing: row, changes: { state: 'reversed', reversal_log_id: null, shortfall: 0, reverse_time: nowSeconds(), ...why } });
    return;
  }
  const balance = Number(unit === 'money' ? member.money : member.score);
  const allowNegative = Boolean(Number(provider.allow_negative));
  const taken = allowNegative ? debt : Math.min(debt, Math.max(balance, 0));
  const shortfall = debt - taken;
  let reversalLogId: number | null = null;
  if (taken > 0) {
    const entry = await applyLedgerEntry(trx, app.handle.dialect, {
      kind: unit, userId, amount: -taken, memo, idempotencyKey: `wall:${row.id}:reverse`, allowNegative,
    });
    reversalLogId = entry.id;
  }
  if (shortfall > 0) {
    const owed = Number(unit === 'money' ? member.wall_shortfall_money : member.wall_shortfall_score) + shortfall;
    await trx.updateTable('user').set(unit === 'money' ? { wall_shortfall_money: owed } : { wall_shortfall_score: owed }).where('id', '=', userId).execute();
  }
  await updateDomainRow(actor, trx, { definition, existing: row, changes: { state: 'reversed', reversal_log_id: reversalLogId, shortfall, reverse_time: nowSeconds(), ...why } });
}

/** A call naming a transaction already recorded. */
async function repeatOf(trx: Db, app: AppContext, provider: ProviderRow, call: WallCall, userId: number, row: WallTransactionRow, input: WallCallbackInput): Promise<WallCallbackResult> {
  if (Number(row.user_id) !== userId) return { answer: 'refused', error: errors.wallOtherMember(), transaction: row };
  if (call.reversal && !call.test && row.state === 'credited') {
    await reverseWallCredit(trx, app, provider, row, call, input);
    return { answer: 'ok', event: 'reversed', transaction: await rowById(trx, Number(row.id)) };
  }
  // A credit refused above a cap stays refused when the wall sends it again.
  if (!call.reversal && row.state === 'refused') return { answer: 'refused', error: errors.wallRefusedBefore(), transaction: row };
  return { answer: 'duplicate', transaction: row };
}

async function recordInTransaction(trx: Db, app: AppContext, provider: ProviderRow, call: WallCall, userId: number, input: WallCallbackInput, dayStart: number): Promise<WallCallbackResult> {
  if (call.reversal && !call.test) {
    // A reversal may cancel a held credit: its hold is locked before the member, as the sweep locks them.
    const credited = await transactionRow(trx, Number(provider.id), call.transactionId);
    if (credited?.state === 'credited') await lockHeldCredit(trx, app.handle.dialect, `wall:${credited.id}:credit`);
  }
  await lockMember(trx, app.handle.dialect, userId);
  const existing = await transactionRow(trx, Number(provider.id), call.transactionId);
  if (existing) return repeatOf(trx, app, provider, call, userId, existing, input);
  const unit: LedgerKind = provider.wall_credit;
  const now = nowSeconds();
  if (call.test) {
    const id = await insertRow(trx, provider, userId, call, input, { state: 'test', unit, amount: Math.abs(call.amount ?? 0) });
    return { answer: 'ok', event: 'test', transaction: await rowById(trx, id) };
  }
  if (call.reversal) {
    // Reversed before it was credited: kept, so that the credit arriving later is not paid.
    const id = await insertRow(trx, provider, userId, call, input, { state: 'reversed', unit, amount: Math.abs(call.amount ?? 0), reason: call.reversalReason, reverseTime: now });
    return { answer: 'ok', event: 'reversed', transaction: await rowById(trx, id) };
  }
  const amount = call.amount ?? 0;
  const refusal = await capRefusal(trx, provider, userId, unit, amount, dayStart);
  if (refusal) {
    const reason = storedMessage(refusal.msg, refusal.params.filter((param): param is string | number => typeof param !== 'object'));
    const id = await insertRow(trx, provider, userId, call, input, { state: 'refused', unit, amount, reason });
    return { answer: 'refused', error: refusal, transaction: await rowById(trx, id) };
  }
  const id = await insertRow(trx, provider, userId, call, input, { state: 'credited', unit, amount, creditTime: now });
  if (amount > 0) await creditWallAmount(trx, { app, provider, transaction: await rowById(trx, id), userId, unit, amount });
  return { answer: 'ok', event: 'credited', transaction: await rowById(trx, id) };
}

/**
 * Records one wall callback whose provider, address and signature the caller has checked. `params` reads a
 * parameter of the request (query first, then the form or JSON body). Never throws for what the wall sent:
 * a call that is not a wall call is refused without writing anything.
 */
export async function recordWallCallback(
  app: AppContext,
  provider: ProviderRow,
  params: (name: string) => string | undefined,
  input: WallCallbackInput,
): Promise<WallCallbackResult> {
  const call = readWallCall(app, provider, params);
  if (call instanceof ApiError) return { answer: 'refused', error: call };
  const userId = await memberOfWallId(app.db, call.wallMemberId);
  if (userId === undefined) {
    // A wall's own test tools send made-up member ids: answered, nothing to record it against.
    if (call.test) return { answer: 'ok', event: 'test' };
    return { answer: 'refused', error: errors.wallMemberUnknown(provider.member_param) };
  }
  // Read before the transaction: on SQLite's one connection a settings read inside it would wait for itself.
  const dayStart = periodOf(1, await app.config.timeZone()).since;
  try {
    return await app.db.transaction().execute((trx) => recordInTransaction(trx, app, provider, call, userId, input, dayStart));
  } catch (error) {
    // The same transaction id for another member, written by a concurrent call: the unique index refused it.
    if (!isUniqueViolation(error)) throw error;
    const winner = await transactionRow(app.db, Number(provider.id), call.transactionId);
    if (!winner) throw error;
    return Number(winner.user_id) === userId ? { answer: 'duplicate', transaction: winner } : { answer: 'refused', error: errors.wallOtherMember(), transaction: winner };
  }
}
