import { errors } from '../../errors.js';
import type { Action, Controller } from '../../http/controller.js';

/**
 * BuildAdmin's module store, which installs PHP and Vue sources, is not part of this product (yet): its
 * screen opens and lists nothing installed, and every action that would change something says clearly
 * that it is not available.
 */

function unavailable(refusal: () => Error, names: string[]): Record<string, Action> {
  return Object.fromEntries(names.map((name) => [name, async () => {
    throw refusal();
  }]));
}

/** `module/*`: its permission nodes are the seeded `moduleStore/moduleStore/<action>` (BuildAdmin's never matched). */
export const moduleController: Controller = {
  name: 'Module',
  path: 'moduleStore/moduleStore',
  area: 'admin',
  actions: {
    index: async (ctx) => ({ sysVersion: await ctx.app.config.get('version'), installed: [] }),
    state: async () => ({ state: 0 }),
    ...unavailable(errors.moduleStoreUnavailable, ['install', 'dependentInstallComplete', 'changeState', 'uninstall', 'update', 'upload']),
  },
  noNeedLogin: [],
  noNeedPermission: ['state', 'dependentInstallComplete'],
};

/**
 * The store BuildAdmin's module screen reads at `<siteConfig.apiUrl>/api/v6.store/*` (buildadmin.com there,
 * this server here): its list is empty and its remark, which the screen shows above the list, says the
 * store is not available; looking a module up, ordering or paying is refused with the same words.
 */
export const moduleStoreApiController: Controller = {
  name: 'v6.store',
  path: 'v6/store',
  area: 'user',
  actions: {
    modules: async (ctx) => ({ rows: [], total: 0, category: [], remark: ctx.t(errors.moduleStoreUnavailable().msg) }),
    ...unavailable(errors.moduleStoreUnavailable, ['info', 'order', 'pay']),
  },
  noNeedLogin: ['*'],
  noNeedPermission: ['*'],
};
