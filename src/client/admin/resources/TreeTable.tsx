import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import { Box, Button, Checkbox, IconButton, LinearProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useMemo, useState } from 'react';
import {
  BulkActionsToolbar, RecordContextProvider, useCanAccess, useListContext, useResourceContext, useTranslate,
  type RaRecord,
} from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { fieldFor } from '../fields/field-for.js';
import { DragHandle, DragSortContext, dropTargetProps, useDragSortController } from './drag-sort.js';
import { listColumnsOf } from './list-columns.js';
import { NamedBulkDeleteButton } from './DeleteButtons.js';
import { ROW_ACTIONS_CELL_SX, RowActions } from './RowActions.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { flattenTree } from './tree-data.js';

/**
 * A tree list (rules, groups): the whole tree in one page, nested rows indented under their parent
 * with expand / collapse, selection with bulk delete, and drag-sort within one parent when the schema
 * has a weigh field and the admin holds `sortable`. As in the flat list, each row's actions come first.
 */
export function TreeTable({ definition, editable = true }: { definition: ResourceDefinition; editable?: boolean }) {
  const { data, isPending, selectedIds, onToggleItem, onSelect } = useListContext<RaRecord>();
  const resource = useResourceContext() ?? '';
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const tree = definition.list.tree;
  const labelField = tree?.labelField ?? definition.primaryKey;
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: canSort } = useCanAccess({ resource, action: 'sortable' });
  const controller = useDragSortController(resource, tree?.parentField);
  const draggable = !!definition.list.weighField && canSort === true;
  const selectable = canDelete === true;
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  const rows = useMemo(() => flattenTree((data ?? [])), [data]);
  const visible = rows.filter((row) => !row.path.some((id) => collapsed.has(id)));
  const allIds = rows.map((row) => row.node.id as RaRecord['id']);
  const columns = listColumnsOf(definition);
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const parents = rows.filter((row) => row.hasChildren).map((row) => String(row.node.id));

  if (isPending) return <LinearProgress />;

  return (
    <DragSortContext.Provider value={draggable ? controller : undefined}>
      {selectable && (
        <BulkActionsToolbar>
          <NamedBulkDeleteButton title={definition.title} />
        </BulkActionsToolbar>
      )}
      {parents.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ px: 1, py: 0.5 }}>
          <Button size="small" startIcon={<UnfoldMoreIcon />} onClick={() => setCollapsed(new Set())} disabled={collapsed.size === 0}>
            {translate('generated.tree.expandAll')}
          </Button>
          <Button size="small" startIcon={<UnfoldLessIcon />} onClick={() => setCollapsed(new Set(parents))} disabled={parents.every((id) => collapsed.has(id))}>
            {translate('generated.tree.collapseAll')}
          </Button>
        </Stack>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={t(definition.title)} data-tree-table sx={{ '& th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              {selectable && (
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={allIds.length > 0 && selectedIds.length === allIds.length}
                    indeterminate={selectedIds.length > 0 && selectedIds.length < allIds.length}
                    onChange={(event) => onSelect(event.target.checked ? allIds : [])}
                    slotProps={{ input: { 'aria-label': translate('ra.action.select_all') } }}
                  />
                </TableCell>
              )}
              {draggable && <TableCell padding="checkbox" />}
              <TableCell sx={ROW_ACTIONS_CELL_SX}>{translate('generated.list.operate')}</TableCell>
              {columns.map((field) => (
                <TableCell key={field.name}>{t(field.title)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map(({ node, depth, hasChildren }) => {
              const record = node as RaRecord;
              const id = String(record.id);
              const open = !collapsed.has(id);
              return (
                <RecordContextProvider key={id} value={record}>
                  <TableRow hover {...dropTargetProps(draggable ? controller : undefined, record)} data-depth={depth}>
                    {selectable && (
                      <TableCell padding="checkbox">
                        <Checkbox
                          size="small"
                          checked={selectedIds.includes(record.id)}
                          onChange={() => onToggleItem(record.id)}
                          slotProps={{ input: { 'aria-label': translate('ra.action.select_row') } }}
                        />
                      </TableCell>
                    )}
                    {draggable && (
                      <TableCell padding="checkbox">
                        <DragHandle />
                      </TableCell>
                    )}
                    <TableCell sx={ROW_ACTIONS_CELL_SX}>
                      <RowActions editable={editable} title={definition.title} />
                    </TableCell>
                    {columns.map((field) => (
                      <TableCell key={field.name}>
                        {field.name === labelField ? (
                          <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 3 }}>
                            {hasChildren ? (
                              <IconButton
                                size="small"
                                aria-expanded={open}
                                aria-label={translate(open ? 'generated.tree.collapse' : 'generated.tree.expand')}
                                onClick={() => toggle(id)}
                              >
                                {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                              </IconButton>
                            ) : (
                              <Box sx={{ width: 34, flexShrink: 0 }} />
                            )}
                            {fieldFor(field, definition)}
                          </Box>
                        ) : (
                          fieldFor(field, definition)
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                </RecordContextProvider>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </DragSortContext.Provider>
  );
}
