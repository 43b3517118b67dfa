import type { ResourceHooks } from '../../app-context.js';
import { formDefinition } from '../../services/survey/quick-tasks.js';

/** `survey.QuickTask`: the form must be a schema members can fill in (checked on every save). */
export const quickTaskHooks: ResourceHooks = {
  async beforeWrite(_operator, write) {
    if (typeof write.values.form === 'string') formDefinition(write.values.form);
  },
};
