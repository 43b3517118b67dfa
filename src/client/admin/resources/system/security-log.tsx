import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import {
  Button, Confirm, Loading, useCanAccess, useDataProvider, useListContext, useNotify,
  useRecordContext, useRefresh, useResourceContext, useTranslate, type Identifier,
} from 'react-admin';
import type { ResourceDefinition } from '../../../../schema/definition.js';
import type { ActionDataProvider } from '../../../providers/data-provider.js';
import { useNotifyError } from '../error-report.js';
import { DetailsDialogButton } from '../DetailsDialog.js';
import { GeneratedTable } from '../GeneratedTable.js';

/**
 * What the recycle bin and the sensitive-data log screens share: the generated columns plus a row
 * and a bulk button for their own action (`restore` / `rollback`), and an info dialog. Every button
 * shows only where `canAccess` allows its node.
 */

type Row = Record<string, unknown>;

/** Texts of one log action, as message keys (locales/<lang>/admin/…). */
interface LogActionTexts {
  /** button label */
  label: string;
  /** confirmation question, `%{count}` rows */
  confirm: string;
  /** success toast */
  done: string;
}

export interface LogAction {
  /** server action and permission node, e.g. `restore` */
  name: string;
  icon: ReactElement;
  texts: LogActionTexts;
}

/** Post `{ids}` to the action; toast, refresh and clear the selection on success. */
function useRunLogAction(action: LogAction): { run: (ids: Identifier[]) => Promise<void>; running: boolean } {
  const resource = useResourceContext() ?? '';
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const refresh = useRefresh();
  const [running, setRunning] = useState(false);
  const run = async (ids: Identifier[]) => {
    setRunning(true);
    try {
      await dataProvider.action(resource, action.name, { data: { ids } });
      notify(action.texts.done, { type: 'success' });
      refresh();
    } catch (error) {
      notifyError(error);
    } finally {
      setRunning(false);
    }
  };
  return { run, running };
}

/** The action's button and its confirmation, for the given rows. */
function ConfirmedLogAction({ action, ids, onDone }: { action: LogAction; ids: Identifier[]; onDone?: () => void }) {
  const translate = useTranslate();
  const { run, running } = useRunLogAction(action);
  const [open, setOpen] = useState(false);
  const label = translate(action.texts.label);
  return (
    <>
      <Button label={label} onClick={() => setOpen(true)} disabled={running || ids.length === 0}>
        {action.icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={running}
        title={label}
        content={translate(action.texts.confirm, { smart_count: ids.length })}
        onConfirm={async () => {
          await run(ids);
          onDone?.();
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The action button of one row, behind a confirmation. */
export function LogActionButton({ action }: { action: LogAction }) {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource, action: action.name });
  if (canAccess !== true || !record) return null;
  return <ConfirmedLogAction action={action} ids={[record.id]} />;
}

/** The action on the selected rows, behind a confirmation. */
export function BulkLogActionButton({ action }: { action: LogAction }) {
  const { selectedIds, onUnselectItems } = useListContext();
  return <ConfirmedLogAction action={action} ids={selectedIds} onDone={() => onUnselectItems()} />;
}

/** The "Info" button of a row: a dialog with the row `info` answers, drawn by `render`. */
function LogInfoButton({ render }: { render: (row: Row) => ReactNode }) {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notifyError = useNotifyError();
  const { canAccess } = useCanAccess({ resource, action: 'info' });
  const [open, setOpen] = useState(false);
  const [row, setRow] = useState<Row | undefined>(undefined);
  const id = record?.id;

  useEffect(() => {
    if (!open || id === undefined) return;
    let alive = true;
    setRow(undefined);
    dataProvider.action<{ row: Row }>(resource, 'info', { params: { id } }).then(
      ({ data }) => alive && setRow(data.row),
      (error: unknown) => {
        if (!alive) return;
        notifyError(error);
        setOpen(false);
      },
    );
    return () => {
      alive = false;
    };
  }, [dataProvider, id, notifyError, open, resource]);

  if (canAccess !== true || !record) return null;
  return (
    <DetailsDialogButton title={translate('security.info')} open={open} onOpenChange={setOpen}>
      {row ? render(row) : <Loading />}
    </DetailsDialogButton>
  );
}

/** A field of a related row the log carries (`admin`, `recycle`…), or '' when there is none. */
export function relationText(value: unknown, name: string): unknown {
  return value && typeof value === 'object' ? (value as Row)[name] : '';
}

/** The generated table with info and the log action in each row, and the action on the selection. */
export function SecurityLogTable({ definition, action, renderInfo }: { definition: ResourceDefinition; action: LogAction; renderInfo: (row: Row) => ReactNode }) {
  const resource = useResourceContext() ?? '';
  const { canAccess: canRun } = useCanAccess({ resource, action: action.name });
  return (
    <GeneratedTable
      definition={definition}
      editable={false}
      rowActions={
        <>
          <LogInfoButton render={renderInfo} />
          <LogActionButton action={action} />
        </>
      }
      bulkActions={canRun === true ? <BulkLogActionButton action={action} /> : undefined}
    />
  );
}
