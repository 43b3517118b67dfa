import type { Action, Controller, RequestContext, ResourceHooks } from '../app-context.js';
import type { ResourceDefinition } from '../../schema/definition.js';
import { errors, Success } from '../errors.js';
import { addedAnswer, addRow } from './operations/add.js';
import { deleteRows } from './operations/delete.js';
import { editRow } from './operations/edit.js';
import { flattenTree } from '../tree-rows.js';
import { listRows } from './operations/list.js';
import { readRow } from './operations/read.js';
import { sortRows } from './operations/sort.js';
import { treeRows } from './operations/tree.js';
import { sendCsvExport } from './csv-export.js';
import { labelChoices } from './reference-labels.js';
import { recycleRuleOf } from './security-events.js';
import { allowsComputed } from '../auth/identity.js';

async function listOptions(ctx: RequestContext) {
  return { timeZone: await ctx.app.config.timeZone(), translate: (key: string) => ctx.t(key) };
}

export function truthy(value: unknown): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false' && value !== false && value !== 0;
}

/** The generic actions of a resource (the contract's five and the CSV export), with its hooks applied. */
export function genericActions(definition: ResourceDefinition, hooks: ResourceHooks): Record<string, Action> {
  return {
    index: async (ctx) => {
      const options = await listOptions(ctx);
      const select = truthy(ctx.query.select);
      // Admitted by the form node of a resource that refers to this one: its choices' keys and labels only.
      if (ctx.identity && !allowsComputed(ctx.identity, `${definition.controllerPath}/index`)) {
        if (!select) throw errors.noPermission();
        return labelChoices(ctx, definition, hooks, options);
      }
      const tree = definition.list.tree;
      if (tree) {
        if (select) {
          const rows = await treeRows(ctx, definition, hooks, ctx.query, { ...options, view: 'select', nest: !truthy(ctx.query.initValue) });
          return { options: flattenTree(rows, tree.labelField) };
        }
        const nest = ctx.query.isTree === undefined || truthy(ctx.query.isTree);
        return { list: await treeRows(ctx, definition, hooks, ctx.query, { ...options, nest }), remark: '' };
      }
      return listRows(ctx, definition, hooks, ctx.query, { ...options, view: select ? 'select' : 'list' });
    },
    add: async (ctx) => {
      if (ctx.method !== 'POST') throw errors.parameterError();
      return addedAnswer(definition, await addRow(ctx, definition, hooks, ctx.body));
    },
    edit: async (ctx) => {
      if (ctx.method !== 'POST') return { row: await readRow(ctx, definition, hooks, ctx.query[definition.primaryKey]) };
      await editRow(ctx, definition, hooks, ctx.body);
      return new Success(null, 'Update successful!');
    },
    del: async (ctx) => {
      // GET: what a confirmation tells before the delete, whether the rows go to the recycle bin.
      if (ctx.method === 'GET') return { recycle: (await recycleRuleOf(ctx.app.db, definition)) !== undefined };
      if (ctx.method !== 'DELETE') throw errors.parameterError();
      const count = await deleteRows(ctx, definition, hooks, ctx.query.ids);
      if (count === 0) throw errors.noRowsDeleted();
      return new Success(null, 'Deleted successfully!');
    },
    export: async (ctx) => {
      if (ctx.method !== 'GET' || definition.list.tree) throw errors.parameterError();
      await sendCsvExport(ctx, definition, hooks);
      return null;
    },
    sortable: async (ctx) => {
      if (ctx.method !== 'POST') throw errors.parameterError();
      await sortRows(ctx, definition, hooks, ctx.params.id, ctx.params.targetId);
      return new Success(null, '');
    },
  };
}

/**
 * A controller for a schema with `x-controller`: the generic actions its menu declares as buttons (each a
 * permission node with its rule; a schema without a menu answers them all, for super admins, as no rule
 * grants them), plus the resource's hooks. A generic action its menu's buttons leave out is not answered.
 * `labelNodes` are the nodes that let their holder read the labels of this resource's rows (`reference-labels.ts`).
 */
export function resourceController(definition: ResourceDefinition, hooks: ResourceHooks = {}, labelNodes: string[] = []): Controller {
  if (!definition.controller || !definition.controllerPath) throw new Error(`${definition.id} has no x-controller`);
  const buttons = definition.menu?.buttons;
  const generic = Object.entries(genericActions(definition, hooks)).filter(([name]) => !buttons || buttons.includes(name));
  // `index` also admits the holders of `labelNodes` (the forms that refer to this resource), to its choices alone.
  const indexReaders = labelNodes.length > 0 && generic.some(([name]) => name === 'index') && !hooks.permissions?.index ? labelNodes : undefined;
  return {
    name: definition.controller,
    path: definition.controllerPath,
    area: 'admin',
    actions: { ...Object.fromEntries(generic), ...hooks.actions },
    noNeedLogin: hooks.noNeedLogin ?? [],
    noNeedPermission: hooks.noNeedPermission ?? [],
    ...(hooks.permissions ? { permissions: hooks.permissions } : {}),
    ...(indexReaders ? { indexReaders } : {}),
    resource: definition,
    hooks,
  };
}

