import type { Row } from '../../../schema/definition.js';
import { centsToYuan } from '../../db/values.js';
import { errors } from '../../errors.js';
import { readStoredText } from '../../stored-text.js';
import { paging } from '../paging.js';
import { accountFigureActions } from './account-figures.js';
import { paymentLogActions } from './payment-user-controller.js';
import type { Controller, RequestContext } from '../controller.js';
import { memberAccountActions } from './account-member-actions.js';

/** `/api/account/*`: the member's own ledgers (contract §7.2). */

function ledgerAction(table: 'user_money_log' | 'user_score_log', column: 'money' | 'score') {
  return async (ctx: RequestContext) => {
    const identity = ctx.identity;
    if (!identity) throw errors.needLogin();
    const { page, limit } = paging(ctx.query);
    const base = ctx.app.db.selectFrom(table).where('user_id', '=', identity.id);
    const total = (await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst()) as { total: number | string };
    const rows = (await base
      .select(['id', 'user_id', column, 'before', 'after', 'memo', 'create_time'])
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute()) as Row[];
    const list = rows.map((row) => {
      const memo = readStoredText(row.memo, ctx.lang, ctx.app.messages);
      return column === 'money'
        ? { ...row, memo, money: centsToYuan(row.money), before: centsToYuan(row.before), after: centsToYuan(row.after) }
        : { ...row, memo, score: Number(row.score), before: Number(row.before), after: Number(row.after) };
    });
    return { list, total: Number(total.total) };
  };
}

export const accountController: Controller = {
  name: 'account',
  path: 'account',
  area: 'user',
  actions: { balance: ledgerAction('user_money_log', 'money'), integral: ledgerAction('user_score_log', 'score'), ...memberAccountActions, ...accountFigureActions, ...paymentLogActions },
  noNeedLogin: ['retrievePassword'],
  // contract §7.2: verification and changeBind need a login but no permission node
  noNeedPermission: ['retrievePassword', 'verification', 'changeBind'],
};
