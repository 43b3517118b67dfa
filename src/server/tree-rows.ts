import type { Row, TreeList } from '../schema/definition.js';

/** Rows of a tree (admin rules, member rules, groups): nested by parent for lists and menus, flattened for selects. */

/** Assemble rows into `children` by parent id; rows whose parent is not present become roots. */
export function nestRows(rows: Row[], key: string, parentField: string): Row[] {
  const byId = new Map(rows.map((row) => [String(row[key]), { ...row } as Row]));
  const roots: Row[] = [];
  for (const row of rows) {
    const node = byId.get(String(row[key])) as Row;
    const parent = byId.get(String(row[parentField]));
    if (parent && parent !== node) ((parent.children ??= []) as Row[]).push(node);
    else roots.push(node);
  }
  return roots;
}

/** A nested tree flattened in display order, the label prefixed with box-drawing glyphs by depth. */
export function flattenTree(nodes: Row[], labelField: string, depth = 0, ancestorsLast: boolean[] = []): Row[] {
  return nodes.flatMap((node, index) => {
    const last = index === nodes.length - 1;
    const { children, ...row } = node;
    if (depth > 0) {
      const rails = ancestorsLast.slice(1).map((ancestorLast) => (ancestorLast ? '    ' : '│   ')).join('');
      row[labelField] = `${'    '}${rails}${last ? '└' : '├'}${String(row[labelField])}`;
    }
    const below = Array.isArray(children) ? flattenTree(children as Row[], labelField, depth + 1, [...ancestorsLast, last]) : [];
    return [row, ...below];
  });
}

/** The rows a tree select offers: those the schema's `x-list.tree.selectable` names (enabled groups…), or all. */
export function selectableRows(tree: TreeList, rows: Row[]): Row[] {
  const only = tree.selectable;
  return only ? rows.filter((row) => String(row[only.field]) === only.value) : rows;
}
