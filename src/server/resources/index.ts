import type { ResourceHooks } from '../app-context.js';
import { adminHooks } from './system/admin.js';
import { adminLogHooks } from './system/admin_log.js';
import { adminGroupHooks } from './system/admin_group.js';
import { adminRuleHooks } from './system/admin_rule.js';
import { userHooks } from './system/user.js';
import { userGroupHooks } from './system/user_group.js';
import { userRuleHooks } from './system/user_rule.js';
import { moneyLogHooks } from './system/user_money_log.js';
import { scoreLogHooks } from './system/user_score_log.js';
import { attachmentHooks } from './system/attachment.js';
import { configHooks } from './system/config.js';
import { dataRecycleLogHooks } from './system/security_data_recycle_log.js';
import { dataRecycleHooks } from './system/security_data_recycle.js';
import { sensitiveDataHooks } from './system/security_sensitive_data.js';
import { sensitiveDataLogHooks } from './system/security_sensitive_data_log.js';
import { participationHooks } from './survey/participation.js';
import { payoutHooks } from './user/payout.js';
import { creditHoldHooks } from './user/credit_hold.js';
import { providerHooks } from './survey/provider.js';
import { quickTaskHooks } from './survey/quick_task.js';
import { quickTaskSubmissionHooks } from './survey/quick_task_submission.js';
import { securityEventHooks } from './survey/security_event.js';
import { surveyHooks } from './survey/survey.js';
import { wallTransactionHooks } from './survey/wall_transaction.js';
import { smsOutboxHooks } from './system/sms_outbox.js';
import { crudLogHooks } from './system/crud_log.js';
import { teamHooks } from './team/team.js';

/**
 * Hooks by schema `$id`; the hooks of `<area>/<name>` are exported by `./<area>/<name>.ts`, the path the
 * client's screen overrides follow too (`src/client/admin/resources/<area>/<name>/`). A schema without an
 * entry gets the generic behaviour only: that is all a new module needs.
 */
export const RESOURCE_HOOKS: Readonly<Record<string, ResourceHooks>> = {
  'system/admin': adminHooks,
  'system/admin_log': adminLogHooks,
  'system/admin_group': adminGroupHooks,
  'system/admin_rule': adminRuleHooks,
  'system/user': userHooks,
  'system/user_group': userGroupHooks,
  'system/user_rule': userRuleHooks,
  'system/user_money_log': moneyLogHooks,
  'system/user_score_log': scoreLogHooks,
  'system/attachment': attachmentHooks,
  'system/config': configHooks,
  'system/security_data_recycle': dataRecycleHooks,
  'system/security_data_recycle_log': dataRecycleLogHooks,
  'system/security_sensitive_data': sensitiveDataHooks,
  'system/security_sensitive_data_log': sensitiveDataLogHooks,
  'user/payout': payoutHooks,
  'user/credit_hold': creditHoldHooks,
  'survey/provider': providerHooks,
  'survey/survey': surveyHooks,
  'survey/participation': participationHooks,
  'survey/quick_task': quickTaskHooks,
  'survey/quick_task_submission': quickTaskSubmissionHooks,
  'survey/security_event': securityEventHooks,
  'survey/wall_transaction': wallTransactionHooks,
  'system/sms_outbox': smsOutboxHooks,
  'system/crud_log': crudLogHooks,
  'team/team': teamHooks,
};

/**
 * Refuses hooks registered for a schema that is not loaded. A renamed schema would otherwise lose its
 * hooks without a word: its checks, its presentation and, for the ledgers, the refusal of the generic
 * edit and delete.
 */
export function checkHookIds(loaded: Iterable<string>, hooks: Readonly<Record<string, unknown>> = RESOURCE_HOOKS): void {
  const ids = new Set(loaded);
  const unknown = Object.keys(hooks).filter((id) => !ids.has(id));
  if (unknown.length === 0) return;
  const files = unknown.map((id) => `src/server/resources/${id}.ts`).join(', ');
  throw new Error(`Hooks for unknown schema ${unknown.join(', ')} (${files}): no schema with that $id is loaded; rename the hook file and its registry key with the schema`);
}
