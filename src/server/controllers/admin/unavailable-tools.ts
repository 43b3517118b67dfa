import type { Action, Controller } from '../../app-context.js';
import { errors } from '../../errors.js';

/**
 * The online store of BuildAdmin's module screen: it buys and downloads modules from buildadmin.com, which
 * this product does not do (its modules come from the catalogue and uploads, `module/*`).
 */

function unavailable(refusal: () => Error, names: string[]): Record<string, Action> {
  return Object.fromEntries(names.map((name) => [name, async () => {
    throw refusal();
  }]));
}

/**
 * The store BuildAdmin's module screen reads at `<siteConfig.apiUrl>/api/v6.store/*` (buildadmin.com there,
 * this server here): its list is empty (the screen adds the modules of `module/index` to it) and its remark,
 * shown above the list, says buying online is not available; looking a module up, ordering or paying is
 * refused with the same words.
 */
export const moduleStoreApiController: Controller = {
  name: 'v6.store',
  path: 'v6/store',
  area: 'user',
  actions: {
    modules: async (ctx) => ({ rows: [], total: 0, category: [], remark: ctx.t(errors.moduleStoreOnlineUnavailable().msg) }),
    ...unavailable(errors.moduleStoreOnlineUnavailable, ['info', 'order', 'pay']),
  },
  noNeedLogin: ['*'],
  noNeedPermission: ['*'],
};
