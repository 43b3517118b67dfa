import type { Paged, PaymentDetails, PayoutRecord, WalletState } from '../../contract/member-api.js';
import { parseYuan } from '../../contract/money.js';
import { fieldOf, valueLabel, type Row } from '../../schema/definition.js';
import { resourceByTable, resourceOf, type AppContext } from '../app-context.js';
import type { Identity } from '../auth/identity.js';
import { MOBILE_PATTERN } from '../auth/credentials.js';
import { EMAIL_PATTERN } from '../../contract/credentials.js';
import { verifyPassword } from '../auth/passwords.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import { pageRows, type PageRequest } from '../db/pages.js';
import { centsToYuan, toJson, wireColumns, yuanToCents } from '../db/values.js';
import { propertyOf } from '../../contract/checks.js';
import { errors, type ApiError } from '../errors.js';
import { pendingTotals } from './holds.js';
import { applyLedgerEntry } from './ledger.js';
import { domainMoveAllowed, updateDomainRow } from '../writes/domain-writes.js';
import type { Actor } from '../writes/sensitive-log.js';

/**
 * How members are paid (docs/survey-domain.md#payouts): their payment details, payout requests frozen through the
 * ledger at once, and the review: approve, then mark paid (by another admin when the config says so),
 * or reject with a reason, which refunds through the ledger.
 */

/** The member fields each method needs (docs/survey-domain.md#payment-details). */
const PAYMENT_FIELDS = {
  bank: ['bank', 'bank_name', 'bank_address', 'bank_num'],
  alipay: ['zhifubao_name', 'zhifubao'],
} as const;
type PaymentMethod = keyof typeof PAYMENT_FIELDS;
const ALL_FIELDS = [...PAYMENT_FIELDS.bank, ...PAYMENT_FIELDS.alipay];
const ACCOUNT_NUMBERS = ['bank_num', 'zhifubao'];
const OPEN = ['pending', 'approved'] as const;

/** `6222 0000 1234` → `****1234`: account numbers never leave whole, except to an admin paying. */
export function maskAccount(value: unknown): string {
  const text = String(value ?? '');
  if (text === '') return '';
  return `${'*'.repeat(Math.max(4, text.length - 4))}${text.slice(-4)}`;
}

/** The payment details of a member row, account numbers masked. */
function paymentDetailsOf(row: Row): PaymentDetails {
  // every field is filled in below
  const details = { payment: isMethod(row.payment) ? row.payment : '' } as PaymentDetails;
  for (const field of ALL_FIELDS) details[field] = ACCOUNT_NUMBERS.includes(field) ? maskAccount(row[field]) : String(row[field] ?? '');
  return details;
}

function isMethod(value: unknown): value is PaymentMethod {
  return value === 'bank' || value === 'alipay';
}

/** Save how the member is paid: the method's own fields required and checked; a change needs the password. */
export async function savePaymentDetails(app: AppContext, member: Identity, input: Row): Promise<void> {
  if (!isMethod(input.payment)) throw errors.paymentMethodInvalid();
  const account = member.account;
  const values: Row = { payment: input.payment };
  for (const field of PAYMENT_FIELDS[input.payment]) {
    const value = typeof input[field] === 'string' ? input[field].trim() : '';
    // The form comes back filled in with the saved details, numbers masked: a mask sent back unchanged keeps the number.
    const saved = String(account[field] ?? '');
    values[field] = ACCOUNT_NUMBERS.includes(field) && saved !== '' && value === maskAccount(saved) ? saved : value;
  }
  // Titles and lengths are the member schema's (`system/user`).
  const users = resourceByTable(app, 'user');
  const titleOf = (field: string) => fieldOf(users, field)?.title ?? field;
  const missing = PAYMENT_FIELDS[input.payment].filter((field) => values[field] === '');
  if (missing.length > 0) throw errors.paymentFieldsRequired(missing, titleOf(missing[0]));
  for (const field of PAYMENT_FIELDS[input.payment]) {
    const length = fieldOf(users, field)?.storage?.length;
    if (length !== undefined && String(values[field]).length > length) throw errors.paymentFieldInvalid(field, titleOf(field));
  }
  if (values.bank_num !== undefined && !/^\d{8,30}$/.test(String(values.bank_num).replace(/\s/g, ''))) throw errors.paymentFieldInvalid('bank_num', titleOf('bank_num'));
  if (values.bank_num !== undefined) values.bank_num = String(values.bank_num).replace(/\s/g, '');
  if (values.zhifubao !== undefined && !MOBILE_PATTERN.test(String(values.zhifubao)) && !EMAIL_PATTERN.test(String(values.zhifubao))) {
    throw errors.paymentFieldInvalid('zhifubao', titleOf('zhifubao'));
  }
  if (String(account.payment ?? '') !== '') {
    const check = await verifyPassword(String(input.password ?? ''), String(account.password ?? ''), String(account.salt ?? ''));
    if (!check.ok) throw errors.paymentPasswordWrong();
  }
  // The other method's fields are cleared: one way of being paid at a time.
  for (const field of ALL_FIELDS) if (!(field in values)) values[field] = '';
  await app.db.updateTable('user').set({ ...values, update_time: nowSeconds() }).where('id', '=', member.id).execute();
}

function lock<Q extends { forUpdate(): Q }>(app: AppContext, query: Q): Q {
  return app.handle.dialect === 'postgres' ? query.forUpdate() : query;
}

/** The least a payout may ask, in cents (config `payout_min`, never below one cent). */
async function payoutMinimum(app: AppContext): Promise<number> {
  return Math.max(yuanToCents(await app.config.get('payout_min', '10.00')), 1);
}

/**
 * What the payouts page shows above its forms: the balance, the least one may ask (yuan), what is still
 * pending (held credits are not in the balance, so a payout never draws on them), and each method's fields.
 */
export async function walletState(app: AppContext, member: Identity): Promise<WalletState> {
  const pending = await pendingTotals(app.db, member.id);
  return {
    details: paymentDetailsOf(member.account),
    balance: wireColumns(resourceOf(app, 'system/user'), { money: member.account.money }).money,
    minimum: centsToYuan(await payoutMinimum(app)),
    pending: centsToYuan(pending.money),
    fields: PAYMENT_FIELDS,
  };
}

/** The member's payouts, newest first, with status, reason and the account paid to (masked). */
export async function payoutRecordsOf(app: AppContext, userId: number, page: PageRequest): Promise<Paged<PayoutRecord>> {
  const definition = resourceOf(app, 'user/payout');
  const { rows, total } = await pageRows(page, app.db.selectFrom('payout').where('user_id', '=', userId), (base) =>
    base.select(['id', 'amount', 'method', 'account', 'status', 'reason', 'reference', 'create_time', 'paid_time']).orderBy('id', 'desc'),
  );
  const list = rows.map((stored) => {
    const row = wireColumns(definition, stored);
    return {
      id: row.id, amount: row.amount, method: row.method, status: row.status, reason: row.reason, reference: row.reference,
      account: maskAccount(propertyOf(row.account, 'bank_num') ?? propertyOf(row.account, 'zhifubao')), create_time: row.create_time, paid_time: row.paid_time,
    };
  });
  return { list, total };
}

/** Payouts waiting for an administrator (pending or approved): how many, and their sum in yuan. */
export async function openPayouts(app: AppContext): Promise<{ count: number; amount: string }> {
  const row = await app.db
    .selectFrom('payout')
    .select([(eb) => eb.fn.countAll<number | string>().as('count'), (eb) => eb.fn.sum<number | string | null>('amount').as('amount')])
    .where('status', 'in', OPEN)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), amount: centsToYuan(row.amount ?? 0) };
}

/** A payout request: at least the minimum, at most the balance, one open at a time, frozen at once. */
export async function requestPayout(app: AppContext, member: Identity, amountInput: unknown, memo: (id: number) => string): Promise<{ id: number; balanceCents: number }> {
  // A JSON number is read as written (12.345 stays 12.345 and is refused), never rounded to cents; no amount below zero.
  const cents = parseYuan(amountInput);
  if (cents === undefined || String(amountInput).trim().startsWith('-')) throw errors.payoutAmountInvalid();
  const minimum = await payoutMinimum(app);
  if (cents < minimum) throw errors.payoutBelowMinimum(centsToYuan(minimum));
  return app.db.transaction().execute(async (trx) => {
    // The member row's lock queues a member's requests behind each other: one open payout, never more than the balance.
    const account = await lock(app, trx.selectFrom('user').selectAll().where('id', '=', member.id)).executeTakeFirstOrThrow();
    if (!isMethod(account.payment)) throw errors.paymentDetailsMissing();
    const open = await trx.selectFrom('payout').select('id').where('user_id', '=', member.id).where('status', 'in', OPEN).executeTakeFirst();
    if (open) throw errors.payoutAlreadyOpen();
    if (cents > Number(account.money)) throw errors.payoutAboveBalance();
    const snapshot = Object.fromEntries(PAYMENT_FIELDS[account.payment].map((field) => [field, account[field]]));
    const now = nowSeconds();
    const inserted = await trx
      .insertInto('payout')
      .values({ user_id: member.id, amount: cents, method: account.payment, account: toJson(snapshot), status: 'pending', reason: '', reference: '', create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    const entry = await applyLedgerEntry(trx, app.handle.dialect, { kind: 'money', userId: member.id, amount: -cents, memo: memo(id), idempotencyKey: `payout:${id}:freeze` });
    await trx.updateTable('payout').set({ freeze_log_id: entry.id }).where('id', '=', id).execute();
    return { id, balanceCents: entry.after };
  });
}

async function lockPayout(app: AppContext, trx: Db, id: number): Promise<Row> {
  const payout = await lock(app, trx.selectFrom('payout').selectAll().where('id', '=', id)).executeTakeFirst();
  if (!payout) throw errors.recordNotFound();
  return payout;
}

/** Each review step and the status it moves a payout to; which status it may start from is the schema's `x-transitions`. */
const STEP_TARGETS = { approve: 'approved', pay: 'paid', reject: 'rejected' } as const;
export const PAYOUT_STEPS = Object.keys(STEP_TARGETS) as (keyof typeof STEP_TARGETS)[];
type PayoutStep = keyof typeof STEP_TARGETS;

export type PayoutDecision = { action: 'approve' } | { action: 'pay'; reference: string } | { action: 'reject'; reason: string; memo: string };

/** Whether paying needs a second administrator (config `payout_two_admins`, on by default). */
export async function payoutNeedsTwoAdmins(app: AppContext): Promise<boolean> {
  return app.config.flag('payout_two_admins', true);
}

/**
 * Why the administrator `adminId` may not take `step` on the payout as it stands (its status, and who
 * approved it when two administrators are needed), or undefined when they may. The step's own node is
 * checked apart. The review refuses by it, and the list offers each row only the steps it allows.
 */
export function payoutStepRefusal(app: AppContext, payout: Row, step: PayoutStep, adminId: number, twoAdmins: boolean): ApiError | undefined {
  const definition = resourceByTable(app, 'payout');
  const status = String(payout.status);
  if (!domainMoveAllowed(definition, 'status', payout, STEP_TARGETS[step])) return errors.payoutWrongStatus(valueLabel(fieldOf(definition, 'status'), status));
  return step === 'pay' && twoAdmins && Number(payout.approved_by) === adminId ? errors.payoutSameAdmin() : undefined;
}

/** One review step on one payout, checked against its status and, for paying, the approver. */
/** `actor` is who the sensitive-data log names (the administrator, their address and browser). */
export async function reviewPayout(app: AppContext, admin: Identity, actor: Actor, id: number, decision: PayoutDecision): Promise<void> {
  const definition = resourceByTable(app, 'payout');
  const twoAdmins = await payoutNeedsTwoAdmins(app);
  await app.db.transaction().execute(async (trx) => {
    const payout = await lockPayout(app, trx, id);
    const refusal = payoutStepRefusal(app, payout, decision.action, admin.id, twoAdmins);
    if (refusal) throw refusal;
    const now = nowSeconds();
    const status = STEP_TARGETS[decision.action];
    let changes: Row;
    if (decision.action === 'approve') changes = { status, approved_by: admin.id, approve_time: now, update_time: now };
    else if (decision.action === 'pay') changes = { status, paid_by: admin.id, paid_time: now, reference: decision.reference, update_time: now };
    else {
      const refund = await applyLedgerEntry(trx, app.handle.dialect, { kind: 'money', userId: Number(payout.user_id), amount: Number(payout.amount), memo: decision.memo, idempotencyKey: `payout:${id}:refund` });
      changes = { status, reason: decision.reason, refund_log_id: refund.id, update_time: now };
    }
    // Under the row's lock the status is still the one checked; the engine checks the move again and logs watched fields.
    if ((await updateDomainRow(actor, trx, { definition, existing: payout, changes })) !== 1) throw new Error('payout changed under its row lock');
  });
}
