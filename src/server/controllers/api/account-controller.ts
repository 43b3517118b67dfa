import type { Controller, RequestContext } from '../../app-context.js';
import type { LedgerPage } from '../../../contract/member-api.js';
import { errors, Success } from '../../errors.js';
import { exchangePoints, pointsExchangeState } from '../../services/points-exchange.js';
import { ledgerPageOf, type LedgerKind } from '../../services/ledger.js';
import { paging } from '../paging.js';
import { accountFigureActions } from './account-figures.js';
import { paymentLogActions } from './payment-user-controller.js';
import { memberAccountActions } from './account-member-actions.js';

/** `/api/account/*`: the member's own ledgers (docs/wire-contract.md#member-endpoints). */

function ledgerAction(kind: LedgerKind) {
  return async (ctx: RequestContext): Promise<LedgerPage> => {
    if (!ctx.identity) throw errors.needLogin();
    return ledgerPageOf(ctx.app, kind, ctx.identity.id, paging(ctx.query), ctx.lang);
  };
}

/** `GET /api/account/pointsExchange`: the rate, limits and what is left today; `POST exchangePoints {points, request_id}` exchanges. */
const pointsExchange = async (ctx: RequestContext) => {
  if (!ctx.identity) throw errors.needLogin();
  return pointsExchangeState(ctx.app, ctx.identity.id);
};

const exchangePointsAction = async (ctx: RequestContext) => {
  if (!ctx.identity) throw errors.needLogin();
  if (ctx.method !== 'POST') throw errors.parameterError();
  const answer = await exchangePoints(ctx.app, ctx.identity.id, ctx.body.points, ctx.body.request_id);
  return new Success(answer, answer.applied ? 'Exchanged %d points for ¥%s' : 'This exchange was already made', [answer.points, answer.amount]);
};

export const accountController: Controller = {
  name: 'account',
  path: 'account',
  area: 'user',
  actions: { balance: ledgerAction('money'), integral: ledgerAction('score'), pointsExchange, exchangePoints: exchangePointsAction, ...memberAccountActions, ...accountFigureActions, ...paymentLogActions },
  noNeedLogin: ['retrievePassword'],
  // verification, changeBind and language need a login but no permission node (docs/wire-contract.md#member-endpoints)
  noNeedPermission: ['retrievePassword', 'verification', 'changeBind', 'language'],
  // the calls of a member-centre page are granted with the page's rule
  permissions: { getUserData: ['account/overview'], getUserCharts: ['account/overview'], pendingCredits: ['account/overview'], getUserRanking: ['survey/ranking'], paymentLog: ['account/payout'], pointsExchange: ['account/integral'], exchangePoints: ['account/integral'] },
};
