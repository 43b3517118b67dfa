import { formDefinition } from '../../services/survey/quick-tasks.js';
import type { ResourceHooks } from '../hooks.js';

/** `survey.QuickTask`: the form must be a schema members can fill in (checked on every save). */
export const quickTaskHooks: ResourceHooks = {
  async beforeWrite(_operator, write) {
    if (typeof write.values.form === 'string') formDefinition(write.values.form);
  },
};
