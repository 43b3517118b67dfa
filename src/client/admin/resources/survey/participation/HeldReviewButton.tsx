import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { Button, useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
import type { ReconcileAnswer, ReconcileRequest } from '../../../../../contract/reconcile.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { useActionsWithText } from '../../DetailsDialog.js';
import { errorMessageOf } from '../../error-report.js';

/** What the review of a held credit does: approve (credit it now) or reject (reverse the complete, cancel the credit). */
type Decision = 'approve' | 'reverse';

/**
 * Approve or reject one participation whose credit is held for review (a speeder's complete), on its row
 * and in its details: the reconciliation of that one record (docs/survey-domain.md#reconciliation), with
 * the reason the member reads, a dry run and the apply of exactly its plan, behind the `reconcile` node.
 * Success and refusal both end in a message: the refusal on the dialog, the success as a notice.
 */
export function HeldReviewButton({ decision }: { decision: Decision }) {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource, action: 'reconcile' });
  const translate = useTranslate();
  const tr = usePrefixedTranslate('survey.held');
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const titleId = useId();
  const withText = useActionsWithText();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (canAccess !== true || !record || record.credit_state !== 'held') return null;
  const approve = decision === 'approve';
  const rid = String(record.rid);
  const label = approve ? tr('approve') : tr('reject');
  const icon = approve ? <CheckCircleOutlineIcon /> : <HighlightOffIcon />;
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    const request: ReconcileRequest = { mode: decision, survey_id: Number(record.survey_id), rids: rid, reason, dryRun: true };
    try {
      const { data: plan } = await dataProvider.action<ReconcileAnswer>(resource, 'reconcile', { data: { ...request } });
      const refused = plan.rows.find((row) => !row.ok);
      if (refused || plan.applied === 0) {
        setError(refused?.message || refused?.change || tr('nothing'));
        return;
      }
      await dataProvider.action<ReconcileAnswer>(resource, 'reconcile', { data: { ...request, dryRun: false, plan: plan.plan } });
      notify(approve ? tr('approved', { rid }) : tr('rejected', { rid }), { type: 'success' });
      setOpen(false);
      setReason('');
      refresh();
    } catch (failure) {
      setError(errorMessageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {withText ? (
        <MuiButton color={decision === 'approve' ? 'primary' : 'error'} startIcon={icon} onClick={() => setOpen(true)}>
          {label}
        </MuiButton>
      ) : (
        <Button label={label} color={decision === 'approve' ? 'primary' : 'error'} onClick={() => setOpen(true)}>
          {icon}
        </Button>
      )}
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{label}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{approve ? tr('approveQuestion', { rid }) : tr('rejectQuestion', { rid })}</DialogContentText>
          <TextField
            autoFocus
            required
            label={translate('survey.reconcile.reason')}
            value={reason}
            onChange={(event) => { setReason(event.target.value); setError(undefined); }}
            error={Boolean(error)}
            helperText={error}
            fullWidth
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton variant="contained" color={decision === 'approve' ? 'primary' : 'error'} onClick={() => void submit()} disabled={busy}>{label}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
