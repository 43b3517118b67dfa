import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { useTheme } from '@mui/material/styles';
import { createContext, forwardRef, useCallback, useContext, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  DataTableBody, DataTableRow, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate,
  type DataTableBodyProps, type DataTableRowProps, type RaRecord,
} from 'react-admin';
import type { SortableDataProvider } from '../../providers/data-provider.js';
import { useNotifyError } from './error-report.js';

/**
 * Drag-sort by weigh (docs/wire-contract.md#sortable): dropping row A on row B posts `sortable {id: A, targetId: B}`,
 * which swaps their weights, then the list reloads. Tree lists only sort within one parent, as
 * BuildAdmin's `dragSortLimitField` does.
 */
export interface DragSortController {
  start(record: RaRecord): void;
  end(): void;
  over(record: RaRecord): void;
  drop(record: RaRecord): Promise<void>;
  overId: RaRecord['id'] | undefined;
  dragging: boolean;
}

/** Whether two rows may swap: always in a flat list; in a tree only under the same parent. */
function canSwap(source: RaRecord, target: RaRecord, parentField?: string): boolean {
  if (source.id === target.id) return false;
  if (!parentField) return true;
  return String(source[parentField] ?? 0) === String(target[parentField] ?? 0);
}

export function useDragSortController(resource: string, parentField?: string): DragSortController {
  const dataProvider = useDataProvider<SortableDataProvider>();
  const refresh = useRefresh();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const dragged = useRef<RaRecord | undefined>(undefined);
  const [overId, setOverId] = useState<RaRecord['id'] | undefined>(undefined);
  const [dragging, setDragging] = useState(false);

  const end = useCallback(() => {
    dragged.current = undefined;
    setOverId(undefined);
    setDragging(false);
  }, []);

  const drop = useCallback(
    async (target: RaRecord) => {
      const source = dragged.current;
      end();
      if (!source || source.id === target.id) return;
      if (!canSwap(source, target, parentField)) {
        notify('generated.sort.sameLevel', { type: 'warning' });
        return;
      }
      try {
        await dataProvider.sortable(resource, { id: source.id, targetId: target.id });
        refresh();
      } catch (error) {
        notifyError(error);
      }
    },
    [dataProvider, end, notify, notifyError, parentField, refresh, resource],
  );

  return useMemo(
    () => ({
      start: (record: RaRecord) => {
        dragged.current = record;
        setDragging(true);
      },
      end,
      over: (record: RaRecord) => setOverId(record.id),
      drop,
      overId,
      dragging,
    }),
    [drop, end, overId, dragging],
  );
}

export const DragSortContext = createContext<DragSortController | undefined>(undefined);

/**
 * The same controller as one object that never changes, whose state and actions are the latest
 * render's: rows drawn once and kept (memoised) handle drags with it, and its context does not draw
 * every grip again each time the row under the pointer changes.
 */
export function useStableDragSort(controller: DragSortController): DragSortController {
  const latest = useRef(controller);
  // Set while drawing, before the rows draw and read it; handlers read it when called.
  latest.current = controller;
  return useMemo(
    () => ({
      start: (record: RaRecord) => latest.current.start(record),
      end: () => latest.current.end(),
      over: (record: RaRecord) => latest.current.over(record),
      drop: (record: RaRecord) => latest.current.drop(record),
      get overId() {
        return latest.current.overId;
      },
      get dragging() {
        return latest.current.dragging;
      },
    }),
    [],
  );
}

const DROP_TARGET_SX = { outline: '2px dashed', outlineColor: 'primary.main', outlineOffset: -2 } as const;

/**
 * Handlers that make a row a drop target while a row is dragged. `state` is what the row is drawn
 * with (by default the controller's): a memoised row passes the state it was given, so it draws again
 * when that changes.
 */
export function dropTargetProps(
  controller: DragSortController | undefined,
  record: RaRecord | undefined,
  state: Pick<DragSortController, 'dragging' | 'overId'> | undefined = controller,
) {
  if (!controller || !record || !state) return {};
  return {
    onDragOver: (event: DragEvent) => {
      if (!controller.dragging) return;
      event.preventDefault();
      if (controller.overId !== record.id) controller.over(record);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      void controller.drop(record);
    },
    sx: state.dragging && state.overId === record.id ? DROP_TARGET_SX : undefined,
    'data-drop-target': state.dragging ? 'true' : undefined,
  };
}

/** The grip a row is dragged by (shown only to admins holding the `sortable` node). */
export function DragHandle() {
  const record = useRecordContext();
  const controller = useContext(DragSortContext);
  const translate = useTranslate();
  const theme = useTheme();
  if (!record || !controller) return null;
  // A plain element, not a `Box`: every row of a list has a grip, and a `Box` is one more style to work out per row.
  return (
    <span
      draggable
      role="button"
      tabIndex={0}
      aria-label={translate('generated.sort.handle')}
      onClick={(event) => event.stopPropagation()}
      onDragStart={(event: DragEvent) => {
        event.dataTransfer?.setData('text/plain', String(record.id));
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
        controller.start(record);
      }}
      onDragEnd={() => controller.end()}
      style={{ cursor: 'grab', display: 'inline-flex', color: theme.palette.text.secondary }}
    >
      <DragIndicatorIcon fontSize="small" />
    </span>
  );
}

const DragSortRow = forwardRef<HTMLTableRowElement, DataTableRowProps>(function DragSortRow(props, ref) {
  const record = useRecordContext();
  const controller = useContext(DragSortContext);
  const { sx, ...handlers } = dropTargetProps(controller, record);
  return <DataTableRow ref={ref} {...props} {...handlers} sx={sx ?? props.sx} />;
});

/** DataTable body whose rows accept drops. */
export function DragSortBody(props: DataTableBodyProps) {
  return <DataTableBody {...props} row={DragSortRow} />;
}
