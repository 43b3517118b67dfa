import BlockIcon from '@mui/icons-material/Block';
import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import {
  Button, useCanAccess, useDataProvider, useListContext, useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate, type Identifier,
} from 'react-admin';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';

/** Reject submissions with a reason the member will read; the server refuses an empty one. */
function RejectDialogButton({ ids, onDone }: { ids: Identifier[]; onDone?: () => void }) {
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const label = translate('survey.review.reject', { _: 'Reject' });
  const submit = async () => {
    setBusy(true);
    try {
      await dataProvider.action(resource, 'reject', { data: { ids, reason } });
      notify(translate('survey.review.rejected', { _: 'Rejected' }), { type: 'success' });
      setOpen(false);
      setReason('');
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
        <BlockIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="reject-title">
        <DialogTitle id="reject-title">{label}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label={translate('survey.review.reason', { _: 'Reason shown to the member' })}
            value={reason}
            onChange={(event) => { setReason(event.target.value); setError(undefined); }}
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
          <MuiButton variant="contained" color="error" onClick={() => void submit()} disabled={busy}>{label}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The row's reject button (pending rows, with the node). */
export function RejectRowButton() {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource, action: 'reject' });
  if (canAccess !== true || !record || record.status !== 'pending') return null;
  return <RejectDialogButton ids={[record.id]} />;
}

/** Reject on the selection. */
export function BulkRejectButton() {
  const { selectedIds, onUnselectItems } = useListContext();
  return <RejectDialogButton ids={selectedIds} onDone={() => onUnselectItems()} />;
}
