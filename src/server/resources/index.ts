import type { ResourceHooks } from './hooks.js';
import { adminHooks } from './auth/admin.js';
import { adminLogHooks } from './auth/admin-log.js';
import { adminGroupHooks } from './auth/group.js';
import { adminRuleHooks } from './auth/rule.js';
import { userHooks } from './user/user.js';
import { userGroupHooks } from './user/group.js';
import { userRuleHooks } from './user/rule.js';
import { ledgerLogHooks } from './user/ledger-log.js';
import { attachmentHooks } from './routine/attachment.js';
import { configHooks } from './routine/config.js';
import { dataRecycleLogHooks } from './security/data-recycle-log.js';
import { dataRecycleHooks, sensitiveDataHooks } from './security/data-rules.js';
import { sensitiveDataLogHooks } from './security/sensitive-data-log.js';
import { participationHooks } from './survey/participation.js';
import { payoutHooks } from './user/payout.js';
import { providerHooks } from './survey/provider.js';
import { quickTaskHooks } from './survey/quick-task.js';
import { quickTaskSubmissionHooks } from './survey/quick-task-submission.js';
import { securityEventHooks } from './survey/security-event.js';
import { surveyHooks } from './survey/survey.js';
import { smsOutboxHooks } from './routine/sms-outbox.js';

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
