import type { Controller, RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { changeModuleState, installModule, listModules, moduleState, previewModule, uidOf, uninstallModule, uploadModule } from '../../modules/module-store.js';
import type { SchemaActor } from '../../schema-designs.js';

/**
 * `module/*`: BuildAdmin's module store calls, in its shapes, over our store (`modules/module-store.ts`):
 * modules are data (schemas, texts, seed rows, images), installed through the schema registry. Only super
 * administrators reach them; every change is written to the admin log under its title (BuildAdmin's).
 * The permission nodes are the seeded `moduleStore/moduleStore/<action>`.
 */

function requireSuper(ctx: RequestContext): SchemaActor {
  if (!ctx.identity?.isSuper) throw errors.moduleSuperOnly();
  return { id: ctx.identity.id, username: ctx.identity.username };
}

function requirePost(ctx: RequestContext): void {
  if (ctx.method !== 'POST') throw errors.parameterError();
}

/** PHP's `/b` filter, as BuildAdmin reads `state` and its flags. */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'on' || value === 'yes';
}

function extendOf(ctx: RequestContext): Record<string, unknown> {
  const extend = ctx.body.extend;
  return typeof extend === 'object' && extend !== null && !Array.isArray(extend) ? (extend as Record<string, unknown>) : {};
}

export const moduleController: Controller = {
  name: 'Module',
  path: 'moduleStore/moduleStore',
  area: 'admin',
  actions: {
    /** the catalogue and the store's modules (`installed`, BuildAdmin's key) and the system version */
    index: async (ctx) => {
      requireSuper(ctx);
      return { sysVersion: await ctx.app.config.get('version'), installed: await listModules(ctx.app, ctx.lang) };
    },
    state: async (ctx) => {
      requireSuper(ctx);
      return { state: await moduleState(ctx.app, uidOf(ctx.query.uid)) };
    },
    /** ours: what installing `uid` would do, nothing applied */
    preview: async (ctx) => {
      requireSuper(ctx);
      return previewModule(ctx.app, ctx.lang, uidOf(ctx.query.uid));
    },
    upload: async (ctx) => {
      ctx.logTitle = 'Upload install module';
      requireSuper(ctx);
      requirePost(ctx);
      return { info: await uploadModule(ctx.app, ctx.lang, ctx.query.file ?? ctx.body.file) };
    },
    install: async (ctx) => {
      ctx.logTitle = 'Install module';
      const actor = requireSuper(ctx);
      requirePost(ctx);
      const extend = extendOf(ctx);
      const options = { confirm: isTrue(extend.confirm) || isTrue(ctx.body.confirm), conflictAnswered: 'fileConflict' in extend || 'dependConflict' in extend };
      return { data: await installModule(ctx.app, ctx.lang, uidOf(ctx.query.uid ?? ctx.body.uid), options, actor) };
    },
    changeState: async (ctx) => {
      ctx.logTitle = 'Change module state';
      const actor = requireSuper(ctx);
      requirePost(ctx);
      return { info: await changeModuleState(ctx.app, ctx.lang, uidOf(ctx.body.uid), isTrue(ctx.body.state), actor) };
    },
    uninstall: async (ctx) => {
      ctx.logTitle = 'Unload module';
      requireSuper(ctx);
      requirePost(ctx);
      const result = await uninstallModule(ctx.app, uidOf(ctx.query.uid ?? ctx.body.uid), isTrue(ctx.query.dropData) || isTrue(ctx.body.dropData));
      return new Success(result, result.droppedTables.length ? 'The module was uninstalled and its data deleted for good' : 'The module was uninstalled; its data was kept');
    },
    /** BuildAdmin's step after installing npm or composer packages: a module here never has any */
    dependentInstallComplete: async (ctx) => {
      requireSuper(ctx);
      uidOf(ctx.query.uid ?? ctx.body.uid);
      return null;
    },
    /** BuildAdmin's update downloads from buildadmin.com: here a higher version is uploaded and installed */
    update: async (ctx) => {
      ctx.logTitle = 'Update module';
      requireSuper(ctx);
      throw errors.moduleStoreOnlineUnavailable();
    },
  },
  noNeedLogin: [],
  // the store checks for a super administrator in every action
  noNeedPermission: ['index', 'state', 'preview', 'upload', 'install', 'changeState', 'uninstall', 'dependentInstallComplete', 'update'],
};
