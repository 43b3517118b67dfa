import type { Row } from '../../../schema/definition.js';
import { errors, Success } from '../../errors.js';
import { participationLabel, previewReconcile, RECONCILE_LIMIT, reconcileParticipation, type ReconcileOutcome } from '../../services/survey/participations.js';
import type { RequestContext } from '../../http/controller.js';
import { readOnly } from '../read-only.js';
import type { Operator, ResourceHooks } from '../hooks.js';
import { ledgerNotes } from '../../services/ledger.js';
import { resourceByTable } from '../../app-context.js';
import { relatedRows } from '../present.js';

/**
 * `survey.Participation`: read-only records; the details carry the event history. A final status
 * changes only through `reconcile`, previewed first (`dryRun`) and applied one RID at a time.
 */

/** RIDs from a list or from pasted text (one per line, or separated by commas or spaces). */
function ridsOf(input: unknown): string[] {
  const items = Array.isArray(input) ? input.map(String) : typeof input === 'string' ? input.split(/[\s,;]+/) : [];
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

/**
 * The change as a person reads it, by the statuses' labels: "Terminate → Complete"; when the status stays,
 * the credit tells the change: "Complete (Held for review) → Complete (Credited)". A refusal reads the
 * current status alone.
 */
function changeText(ctx: RequestContext, outcome: ReconcileOutcome): string {
  const status = (value: string) => participationLabel(ctx.app, 'status', value);
  const credit = (value: string) => participationLabel(ctx.app, 'credit_state', value);
  if (!outcome.ok) return outcome.from ? status(outcome.from)[ctx.lang] : '';
  if (outcome.from !== outcome.to) return ctx.t('%s → %s', [status(outcome.from), status(outcome.to)]);
  return ctx.t('%s (%s) → %s (%s)', [status(outcome.from), credit(outcome.fromCredit), status(outcome.to), credit(outcome.credit)]);
}

/** Why a row is refused, or the quota a confirmed approval raises. */
function messageText(ctx: RequestContext, outcome: ReconcileOutcome): string {
  if (outcome.error) return ctx.t(outcome.error.msg, outcome.error.params);
  const raised = outcome.raised;
  return raised ? ctx.t('Raises the quota of survey #%d from %d to %d', [raised.surveyId, raised.from, raised.to]) : '';
}

function wire(ctx: RequestContext, outcome: ReconcileOutcome): Row {
  return {
    rid: outcome.rid, from: outcome.from, to: outcome.to, credit: outcome.credit, ok: outcome.ok,
    quota_full: outcome.quotaFull === true,
    change: changeText(ctx, outcome),
    message: messageText(ctx, outcome),
  };
}

/** A yes of a form or JSON body: `true`, `'true'`, `1` or `'1'`. */
function flagOf(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

async function reconcile(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const action = ctx.body.action;
  if (action !== 'reverse' && action !== 'approve') throw errors.parameterError();
  const rids = ridsOf(ctx.body.rids);
  if (rids.length === 0 || rids.length > RECONCILE_LIMIT || rids.some((rid) => rid.length > 64)) throw errors.reconcileListEmpty(RECONCILE_LIMIT);
  const reason = typeof ctx.body.reason === 'string' ? ctx.body.reason.trim().slice(0, 255) : '';
  if (reason === '') throw errors.reconcileReasonRequired();
  const dryRun = flagOf(ctx.body.dryRun);
  // The administrator's confirmation that approvals on a full survey raise its quota.
  const raiseQuota = flagOf(ctx.body.raiseQuota);
  const outcomes: ReconcileOutcome[] = [];
  if (dryRun) {
    outcomes.push(...(await previewReconcile(ctx.app, rids, action, raiseQuota)));
  } else {
    for (const rid of rids) {
      outcomes.push(await reconcileParticipation(ctx.app, rid, action, {
        adminId: ctx.identity?.id ?? 0, reason, ip: ctx.ip, raiseQuota,
        memo: action === 'reverse' ? ledgerNotes.surveyRewardReversed : ledgerNotes.surveyReward,
      }));
    }
  }
  const rows = outcomes.map((outcome) => wire(ctx, outcome));
  const applied = rows.filter((row) => row.ok).length;
  const data = { dryRun, applied, refused: rows.length - applied, rows };
  return dryRun ? data : new Success(data, '%d of %d records reconciled', [applied, rows.length]);
}

/**
 * The event history of each row, oldest first, with the name of the administrator behind an event: on
 * list rows too, so a row's details show it without another request (and without the `edit` node). The
 * name is the administrator's as a reference carries it (docs/architecture.md#references): empty for
 * a reader who may not list administrators, whose screen shows the id.
 */
async function withEvents(operator: Operator, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((row) => row.id as number);
  if (ids.length === 0) return rows;
  const events = (await operator.app.db
    .selectFrom('survey_participation_event as event')
    .select(['event.participation_id', 'event.from_status', 'event.to_status', 'event.source', 'event.admin_id', 'event.payload', 'event.ip', 'event.create_time'])
    .where('event.participation_id', 'in', ids)
    .orderBy('event.participation_id')
    .orderBy('event.id')
    .execute()) as Row[];
  const admins = await relatedRows(operator, resourceByTable(operator.app, 'admin'), { key: 'id', label: 'nickname', fields: [] }, events.map((event) => event.admin_id || null));
  const byRow = new Map<string, Row[]>();
  events.forEach(({ participation_id: owner, payload, ...event }, index) => {
    const list = byRow.get(String(owner)) ?? [];
    list.push({ ...event, admin_name: admins[index]?.nickname ?? '', payload: payload ? (JSON.parse(String(payload)) as unknown) : null });
    byRow.set(String(owner), list);
  });
  return rows.map((row) => ({ ...row, events: byRow.get(String(row.id)) ?? [] }));
}

export const participationHooks: ResourceHooks = {
  async present(operator, rows, view) {
    return view === 'select' ? rows : withEvents(operator, rows);
  },
  ...readOnly(errors.participationReadOnly, () => participationHooks, { reconcile }),
};
