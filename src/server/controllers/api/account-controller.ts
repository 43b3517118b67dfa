import type { LedgerRow, Paged } from '../../../contract/member-api.js';
import { errors } from '../../errors.js';
import { ledgerPageOf, type LedgerKind } from '../../services/ledger.js';
import { paging } from '../paging.js';
import { accountFigureActions } from './account-figures.js';
import { paymentLogActions } from './payment-user-controller.js';
import type { Controller, RequestContext } from '../../http/controller.js';
import { memberAccountActions } from './account-member-actions.js';

/** `/api/account/*`: the member's own ledgers (docs/wire-contract.md#member-endpoints). */

function ledgerAction(kind: LedgerKind) {
  return async (ctx: RequestContext): Promise<Paged<LedgerRow>> => {
    if (!ctx.identity) throw errors.needLogin();
    return ledgerPageOf(ctx.app, kind, ctx.identity.id, paging(ctx.query), ctx.lang);
  };
}

export const accountController: Controller = {
  name: 'account',
  path: 'account',
  area: 'user',
  actions: { balance: ledgerAction('money'), integral: ledgerAction('score'), ...memberAccountActions, ...accountFigureActions, ...paymentLogActions },
  noNeedLogin: ['retrievePassword'],
  // verification and changeBind need a login but no permission node (docs/wire-contract.md#member-endpoints)
  noNeedPermission: ['retrievePassword', 'verification', 'changeBind'],
  // the calls of a member-centre page are granted with the page's rule
  permissions: { getUserData: ['overview'], getUserCharts: ['overview'], pendingCredits: ['overview'], getUserRanking: ['survey/ranking'], paymentLog: ['payout'] },
};
