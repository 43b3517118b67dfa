import type { RequestContext, ResourceHooks } from '../app-context.js';
import type { FieldDefinition, ResourceDefinition, Row } from '../../schema/definition.js';
import { flattenTree } from '../tree-rows.js';
import { errors } from '../errors.js';
import { formNodes, mayFillReference } from './access.js';
import { listRows, type ListOptions } from './operations/list.js';
import { treeRows } from './operations/tree.js';

/**
 * The labels of references (docs/architecture.md#references): an administrator who may fill a reference
 * (add or edit the record whose form holds it) may read the key and the label of the rows it may name,
 * and nothing else of them, without the right to read the referenced resource's list. So whoever may
 * add surveys can pick a survey's provider by name, and sees it named, but reads no other column of the
 * providers; and an operator who may not fill a reference to members reads no member's name through it.
 */

/** A field that a form fills with a key of another resource. */
type FillableRef = FieldDefinition & { ref: NonNullable<FieldDefinition['ref']> };

function fillableRefs(definition: ResourceDefinition): FillableRef[] {
  return definition.fields.filter((field): field is FillableRef => Boolean(field.ref && !field.readOnly));
}

/** Every node that lets its holder read the labels of `related`: the form nodes of the resources whose forms refer to it. */
export function labelReadingNodes(definitions: Iterable<ResourceDefinition>, related: ResourceDefinition): string[] {
  const nodes = new Set<string>();
  for (const definition of definitions) {
    if (fillableRefs(definition).some((field) => field.ref.resource === related.id)) for (const node of formNodes(definition)) nodes.add(node);
  }
  return [...nodes];
}

/** The key and label columns of `related` the identity may read as a chooser: one pair per reference it may fill. */
function readableLabels(ctx: RequestContext, related: ResourceDefinition): { keys: Set<string>; labels: Set<string> } {
  const keys = new Set<string>();
  const labels = new Set<string>();
  for (const definition of ctx.app.resources.values()) {
    for (const field of fillableRefs(definition)) {
      if (field.ref.resource !== related.id || !mayFillReference(ctx.identity, definition, field)) continue;
      keys.add(field.ref.key);
      labels.add(field.ref.label);
    }
  }
  return { keys, labels };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * `index` in select mode for an administrator who may fill a reference to `related` but not read its
 * list: rows cut to the key and the label, searched by the label alone (what the chooser types), looked
 * up by the key alone (the label of a current value), in key order, under the resource's data limit and
 * scope. Any other parameter is left out, so no other column can be searched, ordered by or guessed.
 */
export async function labelChoices(ctx: RequestContext, related: ResourceDefinition, hooks: ResourceHooks, options: ListOptions): Promise<unknown> {
  const { keys, labels } = readableLabels(ctx, related);
  if (keys.size === 0) throw errors.noPermission();
  const query: Row = { page: ctx.query.page, limit: ctx.query.limit };
  const typed = text(ctx.query.quickSearch);
  if (typed) query.search = [...labels].map((label) => ({ field: label, operator: 'LIKE', val: typed })).slice(0, 1);
  const initKey = text(ctx.query.initKey) || related.primaryKey;
  if (ctx.query.initValue !== undefined && ctx.query.initValue !== '') {
    if (!keys.has(initKey)) throw errors.unknownField(initKey);
    Object.assign(query, { initKey, initValue: ctx.query.initValue, initOperator: 'IN' });
  }
  if (related.list.sortable.includes(related.primaryKey)) query.order = `${related.primaryKey},asc`;
  const columns = [...new Set([...keys, ...labels, related.primaryKey])];
  const cut = (row: Row) => Object.fromEntries(columns.filter((name) => name in row).map((name) => [name, row[name]]));
  const tree = related.list.tree;
  if (tree) {
    const rows = await treeRows(ctx, related, hooks, query, { ...options, view: 'select', nest: query.initValue === undefined && !typed });
    return { options: flattenTree(rows, tree.labelField).map(cut) };
  }
  const listed = await listRows(ctx, related, hooks, query, { ...options, view: 'select' });
  return { ...listed, list: listed.list.map(cut), remark: '' };
}
