import type { ResourceHooks } from '../../app-context.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';
import { errors } from '../../errors.js';
import { readStoredText } from '../../stored-text.js';
import { readOnly } from '../read-only.js';

/**
 * `survey.WallTransaction`: written by the walls' callbacks only (`services/survey/walls.ts`); the back office
 * reads it. A refusal's or a reversal's reason is stored as a message key and read in the reader's language.
 */
export const wallTransactionHooks: ResourceHooks = {
  async present(operator, rows) {
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    return rows.map((row) => ('reason' in row ? { ...row, reason: readStoredText(row.reason, lang, operator.app.messages) } : row));
  },
  ...readOnly(errors.wallTransactionsReadOnly, () => wallTransactionHooks),
};
