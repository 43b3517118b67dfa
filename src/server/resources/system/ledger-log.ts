import type { ResourceHooks } from '../../app-context.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { yuanToCents } from '../../db/values.js';
import { errors } from '../../errors.js';
import { recordLedgerEntry, type LedgerKind } from '../../services/ledger.js';
import { addedAnswer } from '../operations/add.js';
import { readRow } from '../operations/read.js';
import { validateInput } from '../write-checks.js';
import { readStoredText } from '../../stored-text.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';
import { userHooks } from './user.js';

/** The member's columns `add?userId=` answers: the form names the member and shows both balances. */
const LEDGER_FORM_COLUMNS = ['id', 'username', 'nickname', 'avatar', 'money', 'score'];

/**
 * `user.MoneyLog` and `user.ScoreLog` (docs/wire-contract.md#balance-and-points-ledgers): `add` goes through the ledger service; entries
 * can never be edited or deleted.
 */
export function ledgerLogHooks(kind: LedgerKind): ResourceHooks {
  const refuse = async () => {
    throw errors.ledgerNotEditable();
  };
  return {
    // Notes the system wrote are read in the reader's language (lists, the CSV export, BuildAdmin clients).
    async present(operator, rows) {
      const lang = operator.lang ?? DEFAULT_LANGUAGE;
      return rows.map((row) => ({ ...row, memo: readStoredText(row.memo, lang, operator.app.messages) }));
    },
    actions: {
      add: async (ctx) => {
        const definition = ctx.controller.resource as ResourceDefinition;
        const users = ctx.app.resources.get('system/user') as ResourceDefinition;
        if (ctx.method !== 'POST') {
          const userId = ctx.query.userId;
          if (userId === undefined || userId === '') throw errors.parameterEmpty('userId');
          let user: Row;
          try {
            user = await readRow(ctx, users, userHooks, userId);
          } catch {
            throw errors.userNotFound();
          }
          // What the add form shows of the member (who, and the balances the entry moves), not the whole row:
          // this node lets an administrator change a balance, not read the member's account.
          return { user: Object.fromEntries(LEDGER_FORM_COLUMNS.map((name) => [name, user[name]])) };
        }
        const values = validateInput(definition, ctx.body, 'add');
        const amount = kind === 'money' ? yuanToCents(values.money) : Number(values.score);
        const key = typeof ctx.body.idempotencyKey === 'string' ? ctx.body.idempotencyKey.slice(0, 64) : undefined;
        const entry = await recordLedgerEntry(ctx.app.db, ctx.app.handle.dialect, { kind, userId: Number(values.user_id), amount, memo: String(values.memo ?? ''), idempotencyKey: key });
        return addedAnswer(definition, entry.id);
      },
      edit: refuse,
      del: refuse,
      sortable: refuse,
    },
    // refused to every caller: no permission node to grant
    noNeedPermission: ['edit', 'del', 'sortable'],
  };
}
