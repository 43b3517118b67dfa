import type { PayoutAnswer, PayoutRecord, TaggedPage, WalletState } from '../../../contract/member-api.js';
import { centsToYuan, fromJson } from '../../db/values.js';
import { errors, Success } from '../../errors.js';
import { maskAccount, PAYMENT_FIELDS, paymentDetailsOf, payoutMinimum, requestPayout, savePaymentDetails } from '../../services/payouts.js';
import { valueTagsOf } from '../value-tags.js';
import type { Action, Controller, RequestContext } from '../../http/controller.js';
import { pageOf } from '../paging.js';
import { ledgerNotes } from '../../services/ledger.js';

/** `/api/paymentuser/*`: the member's payment details and payout requests; `account/paymentlog` lists them. */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}

const payment: Action = async (ctx) => {
  const identity = member(ctx);
  if (ctx.method !== 'POST') {
    // What the payouts page shows above its forms: the balance, the least one may ask, and each method's fields.
    const state: WalletState = { details: paymentDetailsOf(identity.account), balance: centsToYuan(identity.account.money), minimum: centsToYuan(await payoutMinimum(ctx.app)), fields: PAYMENT_FIELDS };
    return state;
  }
  await savePaymentDetails(ctx.app, identity, ctx.body);
  return new Success(null, 'Payment details saved');
};

const payout: Action = async (ctx) => {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const id = await requestPayout(ctx.app, member(ctx), ctx.body.amount, ledgerNotes.payoutRequested);
  const answer: PayoutAnswer = { id };
  return new Success(answer, 'Payout requested: the amount is frozen until it is paid');
};

/** `GET /api/account/paymentlog ?page&limit`: the member's payouts with status and reason. */
const paymentlog = async (ctx: RequestContext): Promise<TaggedPage<PayoutRecord>> => {
  const identity = member(ctx);
  const { rows, total } = await pageOf(ctx.query, ctx.app.db.selectFrom('payout').where('user_id', '=', identity.id), (base) =>
    base.select(['id', 'amount', 'method', 'account', 'status', 'reason', 'reference', 'create_time', 'paid_time']).orderBy('id', 'desc'),
  );
  return {
    list: rows.map((row) => {
      const account: Record<string, unknown> = fromJson(row.account || null, {});
      return {
        id: Number(row.id), amount: centsToYuan(row.amount), method: row.method, status: row.status, reason: row.reason, reference: row.reference,
        account: maskAccount(account.bank_num ?? account.zhifubao), create_time: Number(row.create_time), paid_time: row.paid_time === null ? null : Number(row.paid_time),
      };
    }),
    total,
    tags: valueTagsOf(ctx, 'user/payout', ['status']),
  };
};

export const paymentLogActions: Record<string, Action> = { paymentlog };

export const paymentUserController: Controller = {
  name: 'paymentuser',
  path: 'paymentuser',
  area: 'user',
  actions: { payment, payout },
  noNeedLogin: [],
  // Being paid is every member's business: login is the only requirement.
  noNeedPermission: ['*'],
};
