import { sql } from 'kysely';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { checkResource } from '../../../schema/check.js';
import { widgetOf } from '../../../schema/widget-of.js';
import { resourceByTable, type AppContext } from '../../app-context.js';
import type { Identity } from '../../auth/identity.js';
import { nowSeconds } from '../../clock.js';
import type { StoredRow } from '../../db/connection.js';
import { toJson } from '../../db/values.js';
import { errors } from '../../errors.js';
import type { Translate } from '../../i18n.js';
import { inputValidatorOf } from '../../../schema/validate-input.js';
import { applyLedgerEntry } from '../ledger.js';
import { domainMoveAllowed, updateDomainRow } from '../../writes/domain-writes.js';
import type { Actor } from '../../writes/sensitive-log.js';
import { isOneOf, messageOf } from '../../../contract/checks.js';

/**
 * Quick tasks: an administrator writes the fields of a form as a JSON schema (the keywords of our
 * schema files), the member fills it in, and the answer is approved (credited through the ledger) or
 * rejected with a reason, by an administrator or at once when the task says so.
 */

/** The widgets a member's form may use. */
const MEMBER_FORM_WIDGETS = ['string', 'textarea', 'number', 'float', 'radio', 'select', 'switch', 'image', 'date'] as const;
const MAX_FIELDS = 30;

/** A quick task as stored (money in cents). */
type QuickTaskRow = StoredRow<'quick_task'>;
type SubmissionRow = StoredRow<'quick_task_submission'>;

const forms = new Map<string, ResourceDefinition>();

/**
 * The form of a task as a resource definition, so answers are checked by the same validator (and
 * translated messages) as every resource. A form the schema rules refuse answers with why, on `form`.
 */
export function formDefinition(text: string): ResourceDefinition {
  const known = forms.get(text);
  if (known) return known;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw errors.quickTaskFormInvalid('not JSON');
  }
  const form = raw as { type?: unknown; required?: unknown; properties?: Record<string, Row> };
  if (!form || typeof form !== 'object' || Array.isArray(form) || form.type !== 'object' || !form.properties || typeof form.properties !== 'object') {
    throw errors.quickTaskFormInvalid('an object schema with "properties" is expected');
  }
  const names = Object.keys(form.properties);
  if (names.length === 0 || names.length > MAX_FIELDS) throw errors.quickTaskFormInvalid(`1 to ${MAX_FIELDS} fields are expected`);
  let definition: ResourceDefinition;
  try {
    definition = checkResource('form', {
      $id: 'survey/quick_task_form', title: 'Quick task form', type: 'object', 'x-table': 'quick_task_form', 'x-timestamps': false,
      required: form.required ?? [],
      properties: { id: { type: 'integer', readOnly: true }, ...form.properties },
    });
  } catch (error) {
    throw errors.quickTaskFormInvalid(messageOf(error).replace(/^form: /, ''));
  }
  for (const field of definition.fields) {
    if (field.name === 'id') continue;
    const scalar = ['string', 'integer', 'number', 'boolean'].includes(field.wireType);
    const plain = !field.ref && !field.unique && !field.readOnly && !field.writeOnly && !field.transitions && field.storage !== null;
    if (!scalar || !plain) throw errors.quickTaskFormInvalid(`field "${field.name}" must be a plain text, number, choice, switch, date or image`);
    const widget = widgetOf(field);
    if (!isOneOf(MEMBER_FORM_WIDGETS, widget)) throw errors.quickTaskFormInvalid(`field "${field.name}": widget "${widget}" is not available to members`);
  }
  if (forms.size > 200) forms.clear();
  forms.set(text, definition);
  return definition;
}

/** The member-facing fields of a form (its `id` is ours). */
function formFields(definition: ResourceDefinition) {
  return definition.fields.filter((field) => field.name !== 'id');
}

function lockTask(app: AppContext, trx: AppContext['db'], id: number) {
  const query = trx.selectFrom('quick_task').selectAll().where('id', '=', id);
  return (app.handle.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

async function credit(app: AppContext, trx: AppContext['db'], submission: SubmissionRow, memo: string): Promise<{ money_log_id?: number; score_log_id?: number }> {
  const changes: { money_log_id?: number; score_log_id?: number } = {};
  const money = submission.reward_money;
  const score = submission.reward_score;
  if (money > 0) changes.money_log_id = (await applyLedgerEntry(trx, app.handle.dialect, { kind: 'money', userId: submission.user_id, amount: money, memo, idempotencyKey: `quicktask:${submission.id}:money` })).id;
  if (score > 0) changes.score_log_id = (await applyLedgerEntry(trx, app.handle.dialect, { kind: 'score', userId: submission.user_id, amount: score, memo, idempotencyKey: `quicktask:${submission.id}:score` })).id;
  return changes;
}

/**
 * A member's answer to a task: checked against its form, every field's problem reported at once (in
 * `t`'s language); an image must be a file uploaded to this site (identical files are stored once, so
 * who uploaded it first cannot be required).
 */
export async function submitQuickTask(app: AppContext, member: Identity, taskId: unknown, answers: unknown, context: { t: Translate; memo: (task: QuickTaskRow) => string; actor: Actor }): Promise<{ id: number; status: string }> {
  if (!/^\d{1,15}$/.test(String(taskId ?? ''))) throw errors.quickTaskUnavailable();
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) throw errors.parameterError();
  return app.db.transaction().execute(async (trx) => {
    const task = await lockTask(app, trx, Number(taskId));
    if (!task || task.status !== 'active') throw errors.quickTaskUnavailable();
    const open = await trx.selectFrom('quick_task_submission').select('id').where('task_id', '=', task.id).where('user_id', '=', member.id).where('status', 'in', ['pending', 'approved']).executeTakeFirst();
    if (open) throw errors.quickTaskAlreadySubmitted();
    const definition = formDefinition(task.form);
    const checked = inputValidatorOf(definition)(answers as Row, 'add');
    if (!checked.ok) throw errors.validationAll(checked.issues, context.t);
    const values = checked.value;
    for (const field of formFields(definition)) {
      if (widgetOf(field) !== 'image' || !values[field.name]) continue;
      const upload = await trx.selectFrom('attachment').select('id').where('url', '=', String(values[field.name])).where('mimetype', 'like', 'image/%').executeTakeFirst();
      if (!upload) throw errors.quickTaskImageNotUploaded(field.title, field.name);
    }
    const now = nowSeconds();
    const inserted = await trx
      .insertInto('quick_task_submission')
      .values({
        task_id: task.id, user_id: member.id, answers: toJson(values), status: 'pending', reason: '',
        reward_money: task.reward_money, reward_score: task.reward_score, reviewer_id: null, review_time: null,
        money_log_id: null, score_log_id: null, create_time: now, update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('quick_task').set({ submissions: sql`submissions + 1` }).where('id', '=', task.id).execute();
    if (task.review !== 'auto') return { id: Number(inserted.id), status: 'pending' };
    const submission = await trx.selectFrom('quick_task_submission').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    const logs = await credit(app, trx, submission, context.memo(task));
    await updateDomainRow(context.actor, trx, { definition: resourceByTable(app, 'quick_task_submission'), existing: submission, changes: { ...logs, status: 'approved', review_time: now } });
    return { id: Number(inserted.id), status: 'approved' };
  });
}

type ReviewDecision = 'approve' | 'reject';

/** Approve (credit) or reject pending submissions; returns how many changed. Decided ones are left alone. */
export async function reviewSubmissions(app: AppContext, ids: number[], decision: ReviewDecision, context: { actor: Actor; reason: string; memo: (task: QuickTaskRow) => string }): Promise<number> {
  const definition = resourceByTable(app, 'quick_task_submission');
  const status = decision === 'approve' ? ('approved' as const) : ('rejected' as const);
  let changed = 0;
  for (const id of ids) {
    changed += await app.db.transaction().execute(async (trx) => {
      let lookup = trx.selectFrom('quick_task_submission').selectAll().where('id', '=', id);
      if (app.handle.dialect === 'postgres') lookup = lookup.forUpdate();
      const submission = await lookup.executeTakeFirst();
      // Which submissions a review may decide is the schema's `x-transitions` (a pending one, once).
      if (!submission || !domainMoveAllowed(definition, 'status', submission, status)) return 0;
      const task = await trx.selectFrom('quick_task').selectAll().where('id', '=', submission.task_id).executeTakeFirstOrThrow();
      const changes = { status, reviewer_id: context.actor.adminId, review_time: nowSeconds(), reason: context.reason, update_time: nowSeconds() };
      if (decision === 'approve') Object.assign(changes, await credit(app, trx, submission, context.memo(task)));
      if ((await updateDomainRow(context.actor, trx, { definition, existing: submission, changes })) !== 1) throw new Error('submission changed under its row lock');
      return 1;
    });
  }
  return changed;
}
