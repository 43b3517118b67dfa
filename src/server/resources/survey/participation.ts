import type { Row } from '../../../schema/definition.js';
import { RECONCILE_MODES, type ReconcileAnswer, type ReconcileMode, type ReconcileRow } from '../../../contract/reconcile.js';
import { errors, Success } from '../../errors.js';
import { participationLabel } from '../../services/survey/participations.js';
import { applyReconciliation, planReconciliation, RECONCILE_LIMIT, type ReconcileInput, type ReconcilePlan, type ReconcileStep } from '../../services/survey/reconcile.js';
import { checkListedIds, idsFromFile, idsFromPaste, type ListedIds } from '../../services/survey/reconcile-ids.js';
import { readOnly } from '../read-only.js';
import { resourceByTable, type RequestContext, type Operator, type ResourceHooks } from '../../app-context.js';
import { relatedRows } from '../present.js';

/**
 * `survey.Participation`: read-only records; the details carry the event history. A final status
 * changes only through `reconcile` (docs/survey-domain.md#reconciliation): a dry run first, then the
 * apply of exactly that plan, in one transaction.
 */

/**
 * The change as a person reads it, by the statuses' labels: "Terminate → Complete"; when the status stays,
 * the credit tells the change: "Complete (Held for review) → Complete (Credited)". A refusal reads the
 * current status alone, a participation left as it is its status and credit.
 */
function changeText(ctx: RequestContext, step: ReconcileStep): string {
  const status = (value: string) => participationLabel(ctx.app, 'status', value);
  const credit = (value: string) => participationLabel(ctx.app, 'credit_state', value);
  if (step.outcome === 'refused') return step.from ? status(step.from)[ctx.lang] : '';
  if (step.outcome === 'unchanged') return ctx.t('%s (%s)', [status(step.from), credit(step.fromCredit)]);
  if (step.from !== step.to) return ctx.t('%s → %s', [status(step.from), status(step.to)]);
  return ctx.t('%s (%s) → %s (%s)', [status(step.from), credit(step.fromCredit), status(step.to), credit(step.credit)]);
}

/** Why a row is refused, or the quota a confirmed approval raises. */
function messageText(ctx: RequestContext, step: ReconcileStep): string {
  if (step.error) return ctx.t(step.error.msg, step.error.params);
  const raised = step.raised;
  return raised ? ctx.t('Raises the quota of survey #%d from %d to %d', [raised.surveyId, raised.from, raised.to]) : '';
}

function wire(ctx: RequestContext, step: ReconcileStep): ReconcileRow {
  const participation = step.participation;
  return {
    id: step.listed, matched: step.matched, rid: participation?.rid ?? step.listed,
    participation_id: participation ? Number(participation.id) : null, user_id: participation ? Number(participation.user_id) : null,
    from: step.from, to: step.to, credit: step.credit, outcome: step.outcome, ok: step.outcome !== 'refused', quota_full: step.quotaFull === true,
    money_cents: step.money, score: step.score, pending_money_cents: step.pendingMoney, pending_score: step.pendingScore,
    change: changeText(ctx, step),
    message: messageText(ctx, step),
  };
}

/** The answer of a dry run or an apply: counts, refusals by reason, each member's change, and the rows as listed. */
function answerOf(ctx: RequestContext, plan: ReconcilePlan, listed: ListedIds, dryRun: boolean): ReconcileAnswer {
  // The listed ids in their order, then the completes the list left out.
  const steps = [...plan.steps.filter((step) => step.listed !== ''), ...plan.steps.filter((step) => step.listed === '')];
  const rows = steps.map((step) => wire(ctx, step));
  const refusals = new Map<string, number>();
  for (const row of rows) if (!row.ok) refusals.set(row.message, (refusals.get(row.message) ?? 0) + 1);
  const members = plan.members.map((member) => ({
    user_id: member.userId, username: member.username, money_cents: member.money, score: member.score, pending_money_cents: member.pendingMoney, pending_score: member.pendingScore,
  }));
  const total = (column: 'money_cents' | 'score' | 'pending_money_cents' | 'pending_score') => members.reduce((sum, member) => sum + member[column], 0);
  return {
    dryRun, mode: plan.input.mode, survey_id: plan.input.surveyId,
    listed: { ids: listed.ids.length, column: listed.column },
    applied: plan.counts.complete + plan.counts.reversed,
    refused: plan.counts.refused,
    counts: plan.counts,
    refusals: [...refusals].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count),
    members,
    totals: { money_cents: total('money_cents'), score: total('score'), pending_money_cents: total('pending_money_cents'), pending_score: total('pending_score') },
    held: plan.steps.filter((step) => step.change === 'approve' && (step.pendingMoney > 0 || step.pendingScore > 0)).length,
    rows,
    plan: plan.token,
  };
}

/** A yes of a form or JSON body: `true`, `'true'`, `1` or `'1'`. */
function flagOf(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

/** `mode`, or the `action` (reverse or approve) callers sent before modes existed. */
function modeOf(body: Row): ReconcileMode {
  const mode = body.mode ?? body.action;
  if (!RECONCILE_MODES.includes(mode as ReconcileMode) || (body.mode === undefined && mode === 'complete_only')) throw errors.reconcileModeInvalid();
  return mode as ReconcileMode;
}

/** The chosen survey: none (every survey) when empty. */
function surveyOf(value: unknown): number | null {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0') return null;
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw errors.reconcileSurveyInvalid();
  return id;
}

/** The ids pasted (`rids`) or read from the provider's file (`file`, its text): one of the two. */
function listedOf(body: Row): ListedIds {
  const file = body.file;
  if (file !== undefined && file !== null && typeof file !== 'string') throw errors.parameterError();
  const pasted = idsFromPaste(body.rids);
  const listed = typeof file === 'string' && file.trim() !== '' ? idsFromFile(file) : pasted;
  if (listed !== pasted && pasted.ids.length > 0) throw errors.reconcileTwoLists();
  checkListedIds(listed, RECONCILE_LIMIT);
  return listed;
}

async function reconcile(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const mode = modeOf(ctx.body);
  const surveyId = surveyOf(ctx.body.survey_id);
  if (mode === 'complete_only' && surveyId === null) throw errors.reconcileSurveyRequired();
  const listed = listedOf(ctx.body);
  const reason = typeof ctx.body.reason === 'string' ? ctx.body.reason.trim().slice(0, 255) : '';
  if (reason === '') throw errors.reconcileReasonRequired();
  const dryRun = flagOf(ctx.body.dryRun);
  const input: ReconcileInput = { mode, surveyId, ids: listed.ids, raiseQuota: flagOf(ctx.body.raiseQuota) };
  if (dryRun) return answerOf(ctx, await planReconciliation(ctx.app, input), listed, true);
  // The callers of `mode` apply what their dry run showed; those of `action` (one list, one action) may apply at once.
  const plan = typeof ctx.body.plan === 'string' && ctx.body.plan !== '' ? ctx.body.plan : undefined;
  if (ctx.body.mode !== undefined && plan === undefined) throw errors.reconcileDryRunFirst();
  const applied = await applyReconciliation(ctx.app, input, { adminId: ctx.identity?.id ?? 0, reason, ip: ctx.ip, plan });
  const data = answerOf(ctx, applied, listed, false);
  return new Success(data, '%d of %d records reconciled', [data.applied, data.rows.length]);
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
    .execute());
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
