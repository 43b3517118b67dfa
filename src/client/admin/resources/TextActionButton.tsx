import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState, type ReactElement } from 'react';
import {
  Button, useCanAccess, useDataProvider, useListContext, useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate, type Identifier,
} from 'react-admin';
import type { ActionDataProvider } from '../../providers/data-provider.js';
import { errorMessageOf } from './error-report.js';

/**
 * A resource's own action that needs one text from the admin (a rejection's reason, a payment's
 * reference): a dialog asks for it, posts `{ids, <field>: text}`, and shows the server's refusal on it.
 */
export interface TextAction {
  /** server action and permission node, e.g. `reject` */
  name: string;
  /** the body key of the text, e.g. `reason` */
  field: string;
  icon: ReactElement;
  color?: 'primary' | 'error';
  /** message keys (locales/<lang>/admin/…): the button, the text's field, the success message */
  label: string;
  input: string;
  done: string;
}

function TextActionDialogButton({ action, ids, onDone }: { action: TextAction; ids: Identifier[]; onDone?: () => void }) {
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const label = translate(action.label);
  const submit = async () => {
    setBusy(true);
    try {
      await dataProvider.action(resource, action.name, { data: { ids, [action.field]: text } });
      notify(action.done, { type: 'success' });
      setOpen(false);
      setText('');
      onDone?.();
      refresh();
    } catch (failure) {
      setError(errorMessageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button label={label} onClick={() => setOpen(true)} disabled={ids.length === 0}>
        {action.icon}
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={`${action.name}-title`}>
        <DialogTitle id={`${action.name}-title`}>{label}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label={translate(action.input)}
            value={text}
            onChange={(event) => { setText(event.target.value); setError(undefined); }}
            error={Boolean(error)}
            helperText={error}
            fullWidth
            multiline
            minRows={2}
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton variant="contained" color={action.color ?? 'primary'} onClick={() => void submit()} disabled={busy}>{label}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The row's button, with the node, on rows `when` accepts. */
export function TextActionRowButton({ action, when }: { action: TextAction; when: (record: Record<string, unknown>) => boolean }) {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource, action: action.name });
  if (canAccess !== true || !record || !when(record)) return null;
  return <TextActionDialogButton action={action} ids={[record.id]} />;
}

/** The button for the selected rows. */
export function BulkTextActionButton({ action }: { action: TextAction }) {
  const { selectedIds, onUnselectItems } = useListContext();
  return <TextActionDialogButton action={action} ids={selectedIds} onDone={() => onUnselectItems()} />;
}
