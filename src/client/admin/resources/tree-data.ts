/**
 * Tree resources (rules, groups) answer `index` with nested `children` (docs/wire-contract.md#tree-resources). These pure
 * helpers flatten them for selects and tables and derive the checked / half-checked state of the
 * permission tree the group forms post.
 */
export interface TreeNode {
  id?: unknown;
  children?: TreeNode[];
  [column: string]: unknown;
}

interface FlatNode<T extends TreeNode = TreeNode> {
  node: T;
  depth: number;
  /** ids of the ancestors, root first */
  path: string[];
  hasChildren: boolean;
}

export function childrenOf<T extends TreeNode>(node: T): T[] {
  return Array.isArray(node.children) ? (node.children as T[]) : [];
}

/** Depth-first, parents before children, in the server's order. */
export function flattenTree<T extends TreeNode>(nodes: readonly T[], key = 'id'): FlatNode<T>[] {
  const out: FlatNode<T>[] = [];
  const visit = (items: readonly T[], depth: number, path: string[]) => {
    for (const node of items) {
      const children = childrenOf(node);
      out.push({ node, depth, path, hasChildren: children.length > 0 });
      visit(children, depth + 1, [...path, String(node[key])]);
    }
  };
  visit(nodes, 0, []);
  return out;
}

interface Index {
  byId: Map<string, TreeNode>;
  leavesUnder: Map<string, string[]>;
  all: string[];
}

function indexTree(nodes: readonly TreeNode[]): Index {
  const byId = new Map<string, TreeNode>();
  const leavesUnder = new Map<string, string[]>();
  const all: string[] = [];
  const visit = (node: TreeNode): string[] => {
    const id = String(node.id);
    byId.set(id, node);
    all.push(id);
    const children = childrenOf(node);
    const leaves = children.length === 0 ? [id] : children.flatMap(visit);
    leavesUnder.set(id, leaves);
    return leaves;
  };
  nodes.forEach(visit);
  return { byId, leavesUnder, all };
}

/**
 * The checked leaves a stored rule set stands for. `*` is everything. A node listed without any of its
 * descendants stands for its whole subtree (el-tree's behaviour, and what `edit` sends: parents whose
 * children are selected are left out); a node listed with some descendants is only their ancestor.
 */
export function checkedLeavesOf(tree: readonly TreeNode[], value: readonly unknown[]): Set<string> {
  const index = indexTree(tree);
  const ids = new Set(value.map(String));
  if (ids.has('*')) return allLeaves(tree);
  const leaves = new Set<string>();
  for (const id of ids) {
    const under = index.leavesUnder.get(id);
    if (!under) continue;
    const node = index.byId.get(id) as TreeNode;
    if (childrenOf(node).length === 0) {
      leaves.add(id);
      continue;
    }
    const hasListedDescendant = flattenTree(childrenOf(node)).some((item) => ids.has(String(item.node.id)));
    if (!hasListedDescendant) under.forEach((leaf) => leaves.add(leaf));
  }
  return leaves;
}

export type CheckState = 'checked' | 'half' | 'unchecked';

export function checkStateOf(tree: readonly TreeNode[], leaves: ReadonlySet<string>): Map<string, CheckState> {
  const index = indexTree(tree);
  const states = new Map<string, CheckState>();
  for (const id of index.all) {
    const under = index.leavesUnder.get(id) ?? [];
    const count = under.filter((leaf) => leaves.has(leaf)).length;
    states.set(id, count === 0 ? 'unchecked' : count === under.length ? 'checked' : 'half');
  }
  return states;
}

/** What the group forms post: checked plus half-checked ids, in tree order (docs/wire-contract.md#list-requests). */
export function checkedAndHalfIds(tree: readonly TreeNode[], leaves: ReadonlySet<string>): string[] {
  const states = checkStateOf(tree, leaves);
  return [...states].filter(([, state]) => state !== 'unchecked').map(([id]) => id);
}

/** Check or uncheck a node with its whole subtree. */
export function toggleNode(tree: readonly TreeNode[], leaves: ReadonlySet<string>, id: string, checked: boolean): Set<string> {
  const under = indexTree(tree).leavesUnder.get(id) ?? [];
  const next = new Set(leaves);
  for (const leaf of under) {
    if (checked) next.add(leaf);
    else next.delete(leaf);
  }
  return next;
}

export function allLeaves(tree: readonly TreeNode[]): Set<string> {
  const index = indexTree(tree);
  return new Set(index.all.filter((id) => childrenOf(index.byId.get(id) as TreeNode).length === 0));
}
