import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Checkbox, CircularProgress, FormControl, FormControlLabel, FormHelperText, FormLabel, IconButton, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { InputHelperText, useGetList, useInput, useTranslate, type RaRecord } from 'react-admin';
import { listOf } from '../fields/value-format.js';
import {
  allLeaves, checkedAndHalfIds, checkedLeavesOf, checkStateOf, childrenOf, toggleNode, type CheckState, type TreeNode,
} from '../resources/tree-data.js';
import { keepValue, requiredMark } from './input-props.js';
import { useMenuTitle } from '../layout/use-shell-navigation.js';

interface RuleTreeInputProps {
  source: string;
  label: string;
  /** react-admin resource of the rule tree: `auth/rule` for admin groups, `user/rule` for member groups */
  ruleResource: string;
  labelField?: string;
  required?: boolean;
  helperText?: string;
}

/** The resource of the admin rules, whose menus the shell's pack names. */
const ADMIN_RULES = 'auth/rule';

function sameMembers(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a.map(String));
  return b.every((item) => set.has(String(item)));
}

/**
 * The permission picker of the group forms (docs/wire-contract.md#admin-groups, #list-requests): the whole rule tree with a checkbox
 * per node, parents checked or half-checked from their children. The field holds what is posted:
 * checked plus half-checked ids. `edit` answers with leaf ids (or `*`), which the tree expands and then
 * rewrites into that form without marking the form dirty.
 */
export function RuleTreeInput({ source, label, ruleResource, labelField = 'title', required = false, helperText }: RuleTreeInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const { setValue } = useFormContext();
  const translate = useTranslate();
  const { data, isPending } = useGetList<RaRecord>(ruleResource, {
    pagination: { page: 1, perPage: 10000 },
    sort: { field: 'weigh', order: 'DESC' },
    filter: {},
  });
  const tree = useMemo(() => (data ?? []), [data]);
  const value = useMemo(() => (Array.isArray(field.value) ? field.value.map(String) : listOf(field.value)), [field.value]);
  const leaves = useMemo(() => checkedLeavesOf(tree, value), [tree, value]);
  const states = useMemo(() => checkStateOf(tree, leaves), [tree, leaves]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  /**
   * A rule's title in the admin's language: a button by its action (`shell.buttons.<action>`), an admin
   * menu as the side menu names it (`useMenuTitle`); otherwise, or for an admin-made rule the
   * packs do not know, its stored title.
   */
  const menuTitle = useMenuTitle();
  const titleOf = (node: TreeNode): string => {
    const stored = String(node[labelField] ?? node.id);
    const name = String(node.name ?? '');
    if (node.type === 'button') return translate(`shell.buttons.${name.slice(name.lastIndexOf('/') + 1)}`, { _: stored });
    return ruleResource === ADMIN_RULES && name ? menuTitle({ key: name, title: stored }) : stored;
  };

  useEffect(() => {
    if (!data) return;
    const normal = checkedAndHalfIds(tree, leaves);
    if (!sameMembers(normal, value)) setValue(source, normal, { shouldDirty: false });
  }, [data, tree, leaves, value, setValue, source]);

  const write = (next: ReadonlySet<string>) => {
    field.onChange(checkedAndHalfIds(tree, next));
    field.onBlur();
  };
  const everything = allLeaves(tree);
  const allState: CheckState = leaves.size === 0 ? 'unchecked' : leaves.size === everything.size ? 'checked' : 'half';
  const error = fieldState.error?.message;

  /**
   * The read right a checked button needs beside it: its page's `index` (the list it acts on), when
   * that is not granted too. Without it the page does not open, so the button could never be used.
   */
  const missingRead = (node: TreeNode, siblings: TreeNode[]): TreeNode | undefined => {
    const name = String(node.name ?? '');
    const slash = name.lastIndexOf('/');
    if (node.type !== 'button' || slash < 0 || name.slice(slash + 1) === 'index') return undefined;
    const read = siblings.find((other) => other.type === 'button' && String(other.name ?? '') === `${name.slice(0, slash)}/index`);
    return read && states.get(String(read.id)) !== 'checked' ? read : undefined;
  };

  const renderNodes = (nodes: TreeNode[], depth: number) =>
    nodes.map((node) => {
      const id = String(node.id);
      const children = childrenOf(node);
      const state = states.get(id) ?? 'unchecked';
      const open = !collapsed.has(id);
      const title = titleOf(node);
      const read = state === 'checked' ? missingRead(node, nodes) : undefined;
      return (
        <Box key={id} role="treeitem" aria-expanded={children.length ? open : undefined} aria-selected={state === 'checked'}>
          <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 3 }}>
            {children.length > 0 ? (
              <IconButton
                size="small"
                aria-label={translate(open ? 'generated.tree.collapse' : 'generated.tree.expand')}
                onClick={() => setCollapsed((current) => {
                  const next = new Set(current);
                  if (open) next.add(id);
                  else next.delete(id);
                  return next;
                })}
              >
                {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
              </IconButton>
            ) : (
              <Box sx={{ width: 34 }} />
            )}
            <FormControlLabel
              label={title}
              control={
                <Checkbox
                  size="small"
                  checked={state === 'checked'}
                  indeterminate={state === 'half'}
                  onChange={(event) => write(toggleNode(tree, leaves, id, event.target.checked))}
                  slotProps={read ? { input: { 'aria-describedby': `needs-read-${id}` } } : undefined}
                />
              }
            />
            {read && (
              <Typography id={`needs-read-${id}`} variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                {translate('generated.tree.needsRead', { right: titleOf(read) })}
              </Typography>
            )}
          </Box>
          {children.length > 0 && open && <Box role="group">{renderNodes(children, depth + 1)}</Box>}
        </Box>
      );
    });

  return (
    <FormControl error={!!error} required={required} fullWidth sx={{ mb: 2 }} data-widget="rule-tree">
      <FormLabel sx={{ mb: 1 }}>{label}</FormLabel>
      {isPending ? (
        <CircularProgress size={20} aria-label={translate('ra.page.loading')} />
      ) : tree.length === 0 ? (
        <Typography variant="body2" color="text.secondary">{translate('ra.navigation.no_results')}</Typography>
      ) : (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1, maxHeight: 480, overflow: 'auto' }}>
          <FormControlLabel
            label={translate('generated.tree.selectAll')}
            control={
              <Checkbox
                size="small"
                checked={allState === 'checked'}
                indeterminate={allState === 'half'}
                onChange={(event) => write(event.target.checked ? everything : new Set())}
              />
            }
            sx={{ ml: '34px' }}
          />
          <Box role="tree" aria-label={label} aria-multiselectable="true">{renderNodes(tree, 0)}</Box>
        </Box>
      )}
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
