import type { Action, ResourceHooks } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { reviewSubmissions } from '../../services/survey/quick-tasks.js';
import { readOnly } from '../read-only.js';
import { actorOf } from '../security-events.js';
import { ledgerNotes } from '../../services/ledger.js';

/** `survey.QuickTaskSubmission`: answers are approved (credited) or rejected with a reason, never edited. */

function idsOf(value: unknown): number[] {
  const list = Array.isArray(value) ? value : [value];
  const ids = list.filter((id) => /^\d{1,15}$/.test(String(id))).map(Number);
  if (ids.length === 0 || ids.length > 1000 || ids.length !== list.length) throw errors.parameterError();
  return [...new Set(ids)];
}

function review(decision: 'approve' | 'reject'): Action {
  return async (ctx) => {
    if (ctx.method !== 'POST') throw errors.parameterError();
    const ids = idsOf(ctx.body.ids);
    const reason = typeof ctx.body.reason === 'string' ? ctx.body.reason.trim().slice(0, 255) : '';
    if (decision === 'reject' && reason === '') throw errors.reviewReasonRequired();
    const changed = await reviewSubmissions(ctx.app, ids, decision, {
      actor: actorOf(ctx),
      reason,
      memo: ledgerNotes.quickTaskReward,
    });
    if (changed === 0) throw errors.noRowsUpdated();
    return new Success({ changed }, decision === 'approve' ? '%d submissions approved' : '%d submissions rejected', [changed]);
  };
}

export const quickTaskSubmissionHooks: ResourceHooks = {
  ...readOnly(errors.submissionReadOnly, () => quickTaskSubmissionHooks, { approve: review('approve'), reject: review('reject') }),
};
