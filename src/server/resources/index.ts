import type { ResourceHooks } from './hooks.js';
import { adminHooks } from './system/admin.js';
import { adminLogHooks } from './system/admin_log.js';
import { adminGroupHooks } from './system/admin_group.js';
import { adminRuleHooks } from './system/admin_rule.js';
import { userHooks } from './system/user.js';
import { userGroupHooks } from './system/user_group.js';
import { userRuleHooks } from './system/user_rule.js';
import { ledgerLogHooks } from './system/ledger-log.js';
import { attachmentHooks } from './system/attachment.js';
import { configHooks } from './system/config.js';
import { dataRecycleLogHooks } from './system/security_data_recycle_log.js';
import { dataRecycleHooks, sensitiveDataHooks } from './system/data-rules.js';
import { sensitiveDataLogHooks } from './system/security_sensitive_data_log.js';
import { participationHooks } from './survey/participation.js';
import { payoutHooks } from './user/payout.js';
import { providerHooks } from './survey/provider.js';
import { quickTaskHooks } from './survey/quick_task.js';
import { quickTaskSubmissionHooks } from './survey/quick_task_submission.js';
import { securityEventHooks } from './survey/security_event.js';
import { surveyHooks } from './survey/survey.js';
import { smsOutboxHooks } from './system/sms_outbox.js';

/**
 * Hooks by schema `$id`. A schema without an entry gets the generic behaviour only: that is all a new
 * module needs.
 */
export const RESOURCE_HOOKS: Readonly<Record<string, ResourceHooks>> = {
  'system/admin': adminHooks,
  'system/admin_log': adminLogHooks,
  'system/admin_group': adminGroupHooks,
  'system/admin_rule': adminRuleHooks,
  'system/user': userHooks,
  'system/user_group': userGroupHooks,
  'system/user_rule': userRuleHooks,
  'system/user_money_log': ledgerLogHooks('money'),
  'system/user_score_log': ledgerLogHooks('score'),
  'system/attachment': attachmentHooks,
  'system/config': configHooks,
  'system/security_data_recycle': dataRecycleHooks,
  'system/security_data_recycle_log': dataRecycleLogHooks,
  'system/security_sensitive_data': sensitiveDataHooks,
  'system/security_sensitive_data_log': sensitiveDataLogHooks,
  'user/payout': payoutHooks,
  'survey/provider': providerHooks,
  'survey/survey': surveyHooks,
  'survey/participation': participationHooks,
  'survey/quick_task': quickTaskHooks,
  'survey/quick_task_submission': quickTaskSubmissionHooks,
  'survey/security_event': securityEventHooks,
  'system/sms_outbox': smsOutboxHooks,
};
