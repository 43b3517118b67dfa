import type { Action, ResourceHooks } from '../../app-context.js';
import type { Row } from '../../../schema/definition.js';
import { allows } from '../../auth/identity.js';
import { errors, Success } from '../../errors.js';
import type { Translate } from '../../i18n.js';
import { maskAccount, PAYOUT_STEPS, payoutNeedsTwoAdmins, payoutStepRefusal, reviewPayout, type PayoutDecision } from '../../services/payouts.js';
import { readOnly } from '../read-only.js';
import { actorOf } from '../security-events.js';
import { ledgerNotes } from '../../services/ledger.js';

/**
 * `user.Payout`: review steps (approve, pay with a reference, reject with a reason), each its own node;
 * the account paid to shows whole only to an admin holding `user/payout/account`.
 */

function idsOf(value: unknown): number[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > 100 || !list.every((id) => /^\d{1,15}$/.test(String(id)))) throw errors.parameterError();
  return [...new Set(list.map(Number))];
}

function step(decide: (body: Row, t: Translate, id: number) => PayoutDecision, done: string): Action {
  return async (ctx) => {
    if (ctx.method !== 'POST' || !ctx.identity) throw errors.parameterError();
    const ids = idsOf(ctx.body.ids ?? ctx.body.id);
    for (const id of ids) await reviewPayout(ctx.app, ctx.identity, actorOf(ctx), id, decide(ctx.body, ctx.t, id));
    return new Success(null, done, [ids.length]);
  };
}

function text(value: unknown, limit: number): string {
  return typeof value === 'string' ? value.trim().slice(0, limit) : '';
}

export const payoutHooks: ResourceHooks = {
  async present(operator, rows) {
    const identity = operator.identity;
    const reveal = identity !== undefined && allows(identity, 'user/payout/account');
    const twoAdmins = await payoutNeedsTwoAdmins(operator.app);
    // The steps this administrator may take on each row now (node, status, who approved it): the screen offers only these.
    const granted = PAYOUT_STEPS.filter((step) => identity?.area === 'admin' && allows(identity, `user/payout/${step}`));
    return rows.map((row) => {
      const account = (row.account ?? {}) as Row;
      return {
        ...row,
        account: reveal ? account : Object.fromEntries(Object.entries(account).map(([key, value]) => [key, key === 'bank_num' || key === 'zhifubao' ? maskAccount(value) : value])),
        actions: granted.filter((step) => identity && !payoutStepRefusal(operator.app, row, step, identity.id, twoAdmins)),
      };
    });
  },
  ...readOnly(errors.payoutReadOnly, () => payoutHooks, {
    approve: step(() => ({ action: 'approve' }), '%d payouts approved'),
    pay: step((body) => {
      const reference = text(body.reference, 100);
      if (reference === '') throw errors.payoutReferenceRequired();
      return { action: 'pay', reference };
    }, '%d payouts marked paid'),
    reject: step((body, t, id) => {
      const reason = text(body.reason, 255);
      if (reason === '') throw errors.reviewReasonRequired();
      return { action: 'reject', reason, memo: ledgerNotes.payoutRejected(id, reason) };
    }, '%d payouts rejected'),
  }),
};
