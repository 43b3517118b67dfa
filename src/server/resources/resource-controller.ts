import type { ResourceDefinition } from '../../schema/definition.js';
import type { Action, Controller, RequestContext } from '../http/controller.js';
import { errors, Success } from '../errors.js';
import { addRow } from './operations/add.js';
import { deleteRows } from './operations/delete.js';
import { editRow } from './operations/edit.js';
import { flattenTree } from '../tree-rows.js';
import { listRows } from './operations/list.js';
import { readRow } from './operations/read.js';
import { sortRows } from './operations/sort.js';
import { treeRows } from './operations/tree.js';
import { sendCsvExport } from './csv-export.js';
import type { ResourceHooks } from './hooks.js';

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
      const tree = definition.list.tree;
      if (tree) {
        if (select) {
          const hasStatus = definition.fields.some((field) => field.name === 'status');
          const rows = await treeRows(ctx, definition, hooks, ctx.query, { ...options, view: 'select', nest: !truthy(ctx.query.initValue) });
          const visible = hasStatus ? rows.filter((row) => String(row.status) === '1') : rows;
          return { options: flattenTree(visible, tree.labelField) };
        }
        const nest = ctx.query.isTree === undefined || truthy(ctx.query.isTree);
        return { list: await treeRows(ctx, definition, hooks, ctx.query, { ...options, nest }), remark: '' };
      }
      return listRows(ctx, definition, hooks, ctx.query, { ...options, view: select ? 'select' : 'list' });
    },
    add: async (ctx) => {
      if (ctx.method !== 'POST') throw errors.parameterError();
      await addRow(ctx, definition, hooks, ctx.body);
      return new Success(null, 'Added successfully!');
    },
    edit: async (ctx) => {
      if (ctx.method !== 'POST') return { row: await readRow(ctx, definition, hooks, ctx.query[definition.primaryKey]) };
      await editRow(ctx, definition, hooks, ctx.body);
      return new Success(null, 'Update successful!');
    },
    del: async (ctx) => {
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
 */
export function resourceController(definition: ResourceDefinition, hooks: ResourceHooks = {}): Controller {
  if (!definition.controller || !definition.controllerPath) throw new Error(`${definition.id} has no x-controller`);
  const buttons = definition.menu?.buttons;
  const generic = Object.entries(genericActions(definition, hooks)).filter(([name]) => !buttons || buttons.includes(name));
  return {
    name: definition.controller,
    path: definition.controllerPath,
    area: 'admin',
    actions: { ...Object.fromEntries(generic), ...hooks.actions },
    noNeedLogin: hooks.noNeedLogin ?? [],
    noNeedPermission: hooks.noNeedPermission ?? [],
    ...(hooks.permissions ? { permissions: hooks.permissions } : {}),
    resource: definition,
    hooks,
  };
}

