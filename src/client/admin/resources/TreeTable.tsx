import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import { Box, Button, Checkbox, IconButton, LinearProgress, Stack, Table, TableBody, TableCell, tableCellClasses, TableHead, TableRow } from '@mui/material';
import { alpha, darken, lighten, styled, type Theme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import {
  BulkActionsToolbar, RecordContextProvider, useAuthProvider, useCanAccess, useListContext, useResourceContext, useTranslate,
  type RaRecord,
} from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { valueAt } from '../fields/field-props.js';
import { fieldFor } from '../fields/field-for.js';
import { rendererOf } from '../fields/renderer-of.js';
import { ONE_LINE_SX, textOf } from '../fields/TextValueField.js';
import { DragHandle, DragSortContext, dropTargetProps, useDragSortController, useStableDragSort, type DragSortController } from './drag-sort.js';
import { listColumnsOf } from './list-columns.js';
import { NamedBulkDeleteButton } from './DeleteButtons.js';
import { fillRowChecks } from './row-checks.js';
import { ROW_ACTIONS_CELL_SX, RowActions } from './RowActions.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { flattenTree } from './tree-data.js';
import { CELL_WORDS_SX } from '../../components/cell-words.js';

/*
 * The body's cells are plain `<td>`s, styled once by the table as MUI's small body `TableCell` styles
 * its own (the same rules and class names, then the theme's overrides of `MuiTableCell`, as in the
 * header): a tree of 170 rules has some 1,500 cells, and drawing a `TableCell` component for each
 * (its theme lookups, its own styles) was a large part of the time the rows took to draw.
 */
const CELL = `${tableCellClasses.root} ${tableCellClasses.body} ${tableCellClasses.sizeSmall}`;
const CHECKBOX_CELL = `${CELL} ${tableCellClasses.paddingCheckbox}`;
const ACTIONS_CELL = 'tree-row-actions';
/** The label cell's line (its toggle, or the room of one, then the label) and a plain text value. */
const LABEL = 'tree-label';
const NO_TOGGLE = 'tree-no-toggle';
const TEXT = 'tree-text';
/** How far each level of the tree is indented. */
const LEVEL_INDENT_PX = 24;
const TreeTableRoot = styled(Table)(({ theme }) => ({
  '& th': { whiteSpace: 'nowrap' },
  '& > tbody > tr > td': {
    ...theme.typography.body2,
    display: 'table-cell',
    verticalAlign: 'inherit',
    textAlign: 'left',
    color: theme.palette.text.primary,
    // MUI's own cell border: the divider colour, made opaque, lightened (darkened in the dark theme)
    borderBottom: `1px solid ${theme.palette.mode === 'light' ? lighten(alpha(theme.palette.divider, 1), 0.88) : darken(alpha(theme.palette.divider, 1), 0.68)}`,
    padding: '6px 16px',
    ...CELL_WORDS_SX,
  },
  [`& > tbody > tr > td.${tableCellClasses.paddingCheckbox}`]: { width: 24, padding: '0 12px 0 16px', '& > *': { padding: 0 } },
  [`& > tbody > tr > td.${ACTIONS_CELL}`]: theme.unstable_sx(ROW_ACTIONS_CELL_SX),
  [`& > tbody > tr > td.${tableCellClasses.root}`]: themeCellOverrides(theme),
  [`& .${LABEL}`]: { display: 'flex', alignItems: 'center' },
  [`& .${NO_TOGGLE}`]: { width: 34, flexShrink: 0 },
  [`& .${TEXT}`]: { ...theme.typography.body2, ...ONE_LINE_SX },
}));

/*
 * A plain value's cell: the text the list's own `TextValueField` shows, as a `<span>` styled once by
 * the table (that field draws a `Typography` for each, three in each row of a tree of 170 rules).
 * Every other renderer is the list's own.
 */
function cellOf(field: FieldDefinition, definition: ResourceDefinition, record: RaRecord): ReactElement {
  if (rendererOf(field) !== 'text') return fieldFor(field, definition);
  const text = textOf(valueAt(record, field.name));
  return (
    <span className={TEXT} title={text}>
      {text}
    </span>
  );
}

/** The theme's own rules for every table cell (`components.MuiTableCell.styleOverrides.root`), when given as rules. */
function themeCellOverrides(theme: Theme) {
  const root = theme.components?.MuiTableCell?.styleOverrides?.root;
  return typeof root === 'object' && root !== null && !Array.isArray(root) ? root : {};
}

/**
 * A tree list (rules, groups): the whole tree in one page, nested rows indented under their parent
 * with expand / collapse, selection with bulk delete, and drag-sort within one parent when the schema
 * has a weigh field and the admin holds `sortable`. As in the flat list, each row's actions come first.
 *
 * The rows are drawn when the list and every check their buttons make are in (a tree of 170 rules
 * took seconds when each row asked for its own checks and drew again with each answer), a screenful
 * first and the rest right after, and each row is memoised: expanding, selecting or dragging draws
 * again only the rows it changes.
 */
export function TreeTable({ definition, editable = true }: { definition: ResourceDefinition; editable?: boolean }) {
  const { data, isPending, selectedIds, onToggleItem, onSelect } = useListContext<RaRecord>();
  const resource = useResourceContext() ?? '';
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const tree = definition.list.tree;
  const labelField = tree?.labelField ?? definition.primaryKey;
  const { canAccess: canDelete, isPending: deleteChecking } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: canSort, isPending: sortChecking } = useCanAccess({ resource, action: 'sortable' });
  const controller = useStableDragSort(useDragSortController(resource, tree?.parentField));
  const draggable = !!definition.list.weighField && canSort === true;
  const selectable = canDelete === true;
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  const rows = useMemo(() => flattenTree<RaRecord>(data ?? []), [data]);
  const records = useMemo(() => rows.map((row) => row.node), [rows]);
  const rowsChecked = useRowChecksAhead(resource, records, !isPending);
  const visible = rows.filter((row) => !row.path.some((id) => collapsed.has(id)));
  const allIds = records.map((record) => record.id);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const columns = useMemo(() => listColumnsOf(definition), [definition]);
  const toggle = useCallback(
    (id: string) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const parents = rows.filter((row) => row.hasChildren).map((row) => String(row.node.id));
  const ready = !isPending && !deleteChecking && !sortChecking && rowsChecked;
  const drawn = useFirstScreenFirst(ready, visible.length);

  if (!ready) return <LinearProgress />;

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
        <TreeTableRoot size="small" aria-label={t(definition.title)} data-tree-table>
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
            {visible.slice(0, drawn).map(({ node: record, depth, hasChildren }) => {
              const id = String(record.id);
              return (
                <TreeRow
                  key={id}
                  record={record}
                  depth={depth}
                  hasChildren={hasChildren}
                  open={!collapsed.has(id)}
                  selected={selectable ? selected.has(record.id) : undefined}
                  drag={draggable ? controller : undefined}
                  dragging={draggable && controller.dragging}
                  over={draggable && controller.dragging && controller.overId === record.id}
                  columns={columns}
                  labelField={labelField}
                  definition={definition}
                  editable={editable}
                  onToggleOpen={toggle}
                  onToggleSelected={onToggleItem}
                />
              );
            })}
          </TableBody>
        </TreeTableRoot>
      </Box>
    </DragSortContext.Provider>
  );
}

/** How many rows the tree's first drawing holds: more than the tallest screen shows at once. */
const FIRST_SCREEN_ROWS = 40;

/**
 * How many of the rows to draw: once the tree can draw (`ready`), a screenful first, so the rows in
 * view show without waiting for the whole tree, then every row in the next task. The rows already
 * drawn are memoised, so the second drawing only adds the rest. (Drawn as an interruptible
 * transition instead, the rest of a tree of 170 rules came some five seconds after the first screen
 * on a loaded machine.)
 */
function useFirstScreenFirst(ready: boolean, rows: number): number {
  const [all, setAll] = useState(false);
  const more = ready && !all && rows > FIRST_SCREEN_ROWS;
  useEffect(() => {
    if (!more) return;
    // In a task after the next frame, so the browser shows the first screen before drawing the rest.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setAll(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [more]);
  return all ? Number.POSITIVE_INFINITY : FIRST_SCREEN_ROWS;
}

/**
 * Whether the checks each row's buttons make (`ROW_CHECKS`) are in the query cache for these rows:
 * put there once the list is in (`enabled`), before the rows draw. Stays true once it is: rows that
 * come with a later answer (a refresh) ask for themselves meanwhile, as any list's rows do.
 */
function useRowChecksAhead(resource: string, records: readonly RaRecord[], enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const authProvider = useAuthProvider();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const done = () => {
      if (live) setReady(true);
    };
    // A check that fails is asked again by the row itself, as without this.
    fillRowChecks(queryClient, { authProvider, resource, records }).then(done, done);
    return () => {
      live = false;
    };
  }, [queryClient, authProvider, resource, records, enabled]);
  return ready;
}

interface TreeRowProps {
  record: RaRecord;
  depth: number;
  hasChildren: boolean;
  /** its children are shown */
  open: boolean;
  /** whether it is selected; undefined when rows cannot be selected */
  selected: boolean | undefined;
  /** the drag-sort controller, when rows can be dragged (one object that never changes) */
  drag: DragSortController | undefined;
  /** a row is being dragged */
  dragging: boolean;
  /** the dragged row is over this one */
  over: boolean;
  columns: readonly FieldDefinition[];
  labelField: string;
  definition: ResourceDefinition;
  editable: boolean;
  onToggleOpen: (id: string) => void;
  onToggleSelected: (id: RaRecord['id']) => void;
}

/** One row of the tree, drawn again only when one of its props changes. */
const TreeRow = memo(function TreeRow({
  record, depth, hasChildren, open, selected, drag, dragging, over, columns, labelField, definition, editable, onToggleOpen, onToggleSelected,
}: TreeRowProps) {
  const translate = useTranslate();
  const id = String(record.id);
  return (
    <RecordContextProvider value={record}>
      <TableRow hover {...dropTargetProps(drag, record, { dragging, overId: over ? record.id : undefined })} data-depth={depth}>
        {selected !== undefined && (
          <td className={CHECKBOX_CELL}>
            <Checkbox
              size="small"
              checked={selected}
              onChange={() => onToggleSelected(record.id)}
              slotProps={{ input: { 'aria-label': translate('ra.action.select_row') } }}
            />
          </td>
        )}
        {drag && (
          <td className={CHECKBOX_CELL}>
            <DragHandle />
          </td>
        )}
        <td className={`${CELL} ${ACTIONS_CELL}`}>
          <RowActions editable={editable} title={definition.title} />
        </td>
        {columns.map((field) => (
          <td key={field.name} className={CELL}>
            {field.name === labelField ? (
              <div className={LABEL} style={{ paddingLeft: depth * LEVEL_INDENT_PX }}>
                {hasChildren ? (
                  <IconButton
                    size="small"
                    aria-expanded={open}
                    aria-label={translate(open ? 'generated.tree.collapse' : 'generated.tree.expand')}
                    onClick={() => onToggleOpen(id)}
                  >
                    {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                  </IconButton>
                ) : (
                  <span className={NO_TOGGLE} />
                )}
                {cellOf(field, definition, record)}
              </div>
            ) : (
              cellOf(field, definition, record)
            )}
          </td>
        ))}
      </TableRow>
    </RecordContextProvider>
  );
});
