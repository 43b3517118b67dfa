import FactCheckIcon from '@mui/icons-material/FactCheck';
import {
  Alert, Button as MuiButton, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Radio, RadioGroup,
  Table, TableBody, TableCell, TableHead, TableRow, TextField,
} from '@mui/material';
import { useState } from 'react';
import { Button, useCanAccess, useDataProvider, useNotify, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';

type Action = 'reverse' | 'approve';

interface PlanRow {
  rid: string;
  /** the change by the statuses' labels, in the reader's language (the current status when refused) */
  change: string;
  ok: boolean;
  /** refused because its survey's quota is full: confirming the raise would accept it */
  quota_full?: boolean;
  /** why it is refused, or the quota a confirmed approval raises */
  message: string;
}

interface Plan {
  dryRun: boolean;
  applied: number;
  refused: number;
  rows: PlanRow[];
}

/**
 * Reconciliation of participations: paste RIDs (or load a text file of them), choose reverse or
 * approve, give a reason, preview what would happen (a dry run), then apply. Only with the node.
 * When a preview finds approvals refused for a full quota, the dialog offers to confirm raising the
 * quota by what they need; the next preview shows each raise.
 */
export function ReconcileButton() {
  const resource = useResourceContext() ?? '';
  const { canAccess } = useCanAccess({ resource, action: 'reconcile' });
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [action, setAction] = useState<Action>('reverse');
  const [rids, setRids] = useState('');
  const [reason, setReason] = useState('');
  const [raiseQuota, setRaiseQuota] = useState(false);
  const [offerRaise, setOfferRaise] = useState(false);
  const [plan, setPlan] = useState<Plan | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const tr = (key: string, fallback: string, options: Record<string, unknown> = {}) => translate(`survey.reconcile.${key}`, { _: fallback, ...options });
  if (canAccess !== true) return null;

  const edited = () => {
    setPlan(undefined);
    setError(undefined);
  };
  /** Another request altogether: a confirmation given for the last one does not carry over. */
  const changed = () => {
    edited();
    setRaiseQuota(false);
    setOfferRaise(false);
  };
  const send = async (dryRun: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const confirm = raiseQuota ? { raiseQuota: true } : {};
      const { data } = await dataProvider.action<Plan>(resource, 'reconcile', { data: { action, rids, reason, dryRun, ...confirm } });
      if (dryRun) {
        setPlan(data);
        if (data.rows.some((row) => row.quota_full)) setOfferRaise(true);
      } else {
        notify(tr('done', '%{applied} of %{total} records reconciled', { applied: data.applied, total: data.rows.length }), { type: 'success' });
        setOpen(false);
        setRids('');
        setReason('');
        changed();
        refresh();
      }
    } catch (failure) {
      setError(errorMessageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const loadFile = async (file: File | undefined) => {
    if (!file) return;
    setRids((await file.text()).trim());
    changed();
  };

  return (
    <>
      <Button label={tr('button', 'Reconcile')} onClick={() => setOpen(true)}>
        <FactCheckIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="md" aria-labelledby="reconcile-title">
        <DialogTitle id="reconcile-title">{tr('title', 'Reconcile participations')}</DialogTitle>
        <DialogContent>
          <RadioGroup row value={action} onChange={(event) => { setAction(event.target.value as Action); changed(); }}>
            <FormControlLabel value="reverse" control={<Radio />} label={tr('reverse', 'Reverse completes (debit the reward)')} />
            <FormControlLabel value="approve" control={<Radio />} label={tr('approve', 'Accept as complete (credit the reward)')} />
          </RadioGroup>
          <TextField
            label={tr('rids', 'RIDs, one per line')}
            value={rids}
            onChange={(event) => { setRids(event.target.value); changed(); }}
            multiline
            minRows={4}
            fullWidth
            margin="dense"
          />
          <MuiButton component="label" size="small">
            {tr('upload', 'Load a text file')}
            <input hidden type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(event) => void loadFile(event.target.files?.[0])} />
          </MuiButton>
          <TextField label={tr('reason', 'Reason')} value={reason} onChange={(event) => { setReason(event.target.value); edited(); }} fullWidth margin="dense" required />
          {action === 'approve' && offerRaise && (
            <FormControlLabel
              control={<Checkbox checked={raiseQuota} onChange={(event) => { setRaiseQuota(event.target.checked); edited(); }} />}
              label={tr('raiseQuota', 'Where a survey’s quota is full, raise it by what these approvals need')}
            />
          )}
          {error && <Alert severity="error" sx={{ mt: 2 }}>{error}</Alert>}
          {plan && (
            <>
              <Alert severity={plan.refused > 0 ? 'warning' : 'info'} sx={{ mt: 2 }}>
                {tr('preview', '%{applied} will change, %{refused} refused', { applied: plan.applied, refused: plan.refused })}
              </Alert>
              <Table size="small" aria-label={tr('previewTable', 'Preview')}>
                <TableHead>
                  <TableRow>
                    <TableCell>RID</TableCell>
                    <TableCell>{tr('change', 'Change')}</TableCell>
                    <TableCell>{tr('result', 'Result')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {plan.rows.map((row) => (
                    <TableRow key={row.rid}>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{row.rid}</TableCell>
                      <TableCell>{row.change || '-'}</TableCell>
                      <TableCell>{row.ok ? row.message || tr('willApply', 'Will change') : row.message}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton onClick={() => void send(true)} disabled={busy}>{tr('previewButton', 'Preview')}</MuiButton>
          <MuiButton variant="contained" onClick={() => void send(false)} disabled={busy || !plan || plan.applied === 0}>
            {tr('apply', 'Apply')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
