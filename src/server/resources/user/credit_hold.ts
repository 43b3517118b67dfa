import type { ResourceHooks } from '../../app-context.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';
import { centsToYuan } from '../../db/values.js';
import { errors } from '../../errors.js';
import { readStoredText } from '../../stored-text.js';
import { readOnly } from '../read-only.js';

/**
 * `user.CreditHold`: the credits waiting out a hold period (docs/survey-domain.md#hold-period), written by
 * `services/holds.ts` only; the back office reads them. The amount shows as its ledger shows it: yuan for
 * the balance, whole points; the memos the system wrote read in the reader's language.
 */
export const creditHoldHooks: ResourceHooks = {
  async present(operator, rows) {
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    const read = (value: unknown) => readStoredText(String(value ?? ''), lang, operator.app.messages);
    return rows.map((row) => ({
      ...row,
      amount_shown: row.kind === 'money' ? centsToYuan(Number(row.amount ?? 0)) : String(row.amount ?? 0),
      memo: read(row.memo),
      cancel_memo: read(row.cancel_memo),
    }));
  },
  ...readOnly(errors.creditHoldReadOnly, () => creditHoldHooks),
};
