import type { Action, Controller, RequestContext } from '../../app-context.js';
import type { PayoutAnswer, PayoutRecord, TaggedPage, WalletState } from '../../../contract/member-api.js';
import { errors, Success } from '../../errors.js';
import { payoutRecordsOf, requestPayout, savePaymentDetails, walletState } from '../../services/payouts.js';
import { valueTagsOf } from '../value-tags.js';
import { paging } from '../paging.js';
import { ledgerNotes } from '../../services/ledger.js';
import { centsToYuan } from '../../db/values.js';

/** `/api/paymentuser/*`: the member's payment details and payout requests; `account/paymentlog` lists them. */

function member(ctx: RequestContext) {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity;
}

const payment: Action = async (ctx): Promise<WalletState | Success> => {
  const identity = member(ctx);
  if (ctx.method !== 'POST') {
    return walletState(ctx.app, identity);
  }
  await savePaymentDetails(ctx.app, identity, ctx.body);
  return new Success(null, 'Payment details saved');
};

const payout: Action = async (ctx) => {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const { id, balanceCents } = await requestPayout(ctx.app, member(ctx), ctx.body.amount, ledgerNotes.payoutRequested);
  const answer: PayoutAnswer = { id, balance: centsToYuan(balanceCents) };
  return new Success(answer, 'Payout requested: the amount is frozen until it is paid');
};

/** `GET /api/account/paymentlog ?page&limit`: the member's payouts with status and reason. */
const paymentlog = async (ctx: RequestContext): Promise<TaggedPage<PayoutRecord>> => {
  const page = await payoutRecordsOf(ctx.app, member(ctx).id, paging(ctx.query));
  return { ...page, tags: valueTagsOf(ctx, 'user/payout', ['status']) };
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
