import type { LedgerRow, Paged } from '../../../contract/member-api.js';
import { resourceByTable } from '../../app-context.js';
import { rowFromStorage } from '../../db/values.js';
import { errors } from '../../errors.js';
import { readStoredText } from '../../stored-text.js';
import { pageOf } from '../paging.js';
import { accountFigureActions } from './account-figures.js';
import { paymentLogActions } from './payment-user-controller.js';
import type { Controller, RequestContext } from '../../http/controller.js';
import { memberAccountActions } from './account-member-actions.js';

/** `/api/account/*`: the member's own ledgers (docs/wire-contract.md#member-endpoints). */

function ledgerAction(table: 'user_money_log' | 'user_score_log', column: 'money' | 'score') {
  return async (ctx: RequestContext): Promise<Paged<LedgerRow>> => {
    const identity = ctx.identity;
    if (!identity) throw errors.needLogin();
    const { rows, total } = await pageOf(ctx.query, ctx.app.db.selectFrom(table).where('user_id', '=', identity.id), (base) =>
      base.select(['id', 'user_id', column, 'before', 'after', 'memo', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
    );
    // Amounts as the schema shows them (balance in yuan, points as integers), memos in the reader's language.
    const definition = resourceByTable(ctx.app, table);
    const list = rows.map((row) => ({ ...(rowFromStorage(definition, row) as Omit<LedgerRow, 'memo'>), memo: readStoredText(row.memo, ctx.lang, ctx.app.messages) }));
    return { list, total };
  };
}

export const accountController: Controller = {
  name: 'account',
  path: 'account',
  area: 'user',
  actions: { balance: ledgerAction('user_money_log', 'money'), integral: ledgerAction('user_score_log', 'score'), ...memberAccountActions, ...accountFigureActions, ...paymentLogActions },
  noNeedLogin: ['retrievePassword'],
  // verification and changeBind need a login but no permission node (docs/wire-contract.md#member-endpoints)
  noNeedPermission: ['retrievePassword', 'verification', 'changeBind'],
};
