import FactCheckIcon from '@mui/icons-material/FactCheck';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert, Box, Button as MuiButton, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, FormLabel,
  Radio, RadioGroup, Stack, TextField, Typography, useMediaQuery, type Theme,
} from '@mui/material';
import { useRef, useState } from 'react';
import { Button, useCanAccess, useDataProvider, useNotify, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import { isOneOf } from '../../../../../contract/checks.js';
import { RECONCILE_MODES, type ReconcileAnswer, type ReconcileMode, type ReconcileRequest } from '../../../../../contract/reconcile.js';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';
import { ReconcileSummary } from './ReconcileSummary.js';
import { SurveyPicker, type SurveyOption } from './SurveyPicker.js';

/**
 * A provider's file is sent as its text in a JSON body, which the server takes up to 1 MB; quotes and
 * line breaks grow a little in JSON, so the file may hold a bit less.
 */
const FILE_LIMIT_BYTES = 900 * 1024;

/** Applying thousands of records takes seconds, more than the 10 s requests get on a busy server. */
const APPLY_TIMEOUT_MS = 120_000;

interface LoadedFile {
  name: string;
  text: string;
}

/**
 * Reconciliation of participations (docs/survey-domain.md#reconciliation): choose what to do (reverse,
 * approve, or "the listed are this survey's completes"), the survey, the ids (pasted, or a provider's CSV
 * file read here and sent as text), a reason the members will read; a dry run shows how many change and
 * each member's balance and points change; only then does Apply send exactly that plan. Only with the node.
 * When a dry run finds approvals refused for a full quota, the dialog offers to confirm raising it.
 */
export function ReconcileButton() {
  const resource = useResourceContext() ?? '';
  const { canAccess } = useCanAccess({ resource, action: 'reconcile' });
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const fileInput = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<ReconcileMode>('reverse');
  const [survey, setSurvey] = useState<SurveyOption | null>(null);
  const [rids, setRids] = useState('');
  const [file, setFile] = useState<LoadedFile | undefined>(undefined);
  const [reason, setReason] = useState('');
  const [raiseQuota, setRaiseQuota] = useState(false);
  const [offerRaise, setOfferRaise] = useState(false);
  const [plan, setPlan] = useState<ReconcileAnswer | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const tr = usePrefixedTranslate('survey.reconcile');
  if (canAccess !== true) return null;

  /** The request changed: the dry run shown no longer describes it. */
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
  const needsSurvey = mode === 'complete_only';
  const request = (dryRun: boolean): ReconcileRequest => ({
    mode,
    ...(survey ? { survey_id: survey.id } : {}),
    ...(file ? { file: file.text } : { rids }),
    reason,
    dryRun,
    ...(raiseQuota ? { raiseQuota: true } : {}),
    ...(!dryRun && plan ? { plan: plan.plan } : {}),
  });
  const send = async (dryRun: boolean) => {
    if (needsSurvey && !survey) {
      setError(tr('surveyRequired'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await dataProvider.action<ReconcileAnswer>(resource, 'reconcile', { data: { ...request(dryRun) }, ...(dryRun ? {} : { timeout: APPLY_TIMEOUT_MS }) });
      if (dryRun) {
        setPlan(data);
        if (data.rows.some((row) => row.quota_full)) setOfferRaise(true);
      } else {
        notify(tr('done', { applied: data.applied, smart_count: data.rows.length }), { type: 'success' });
        setOpen(false);
        setRids('');
        setFile(undefined);
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
  const loadFile = async (chosen: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!chosen) return;
    changed();
    if (chosen.size > FILE_LIMIT_BYTES) {
      setError(tr('fileTooLarge', {
        name: chosen.name, size: Math.ceil(chosen.size / 1024), limit: FILE_LIMIT_BYTES / 1024,
      }));
      return;
    }
    setFile({ name: chosen.name, text: await chosen.text() });
  };
  const modes: { value: ReconcileMode; label: string }[] = [
    { value: 'reverse', label: tr('reverse') },
    { value: 'approve', label: tr('approve') },
    { value: 'complete_only', label: tr('completeOnly') },
  ];

  return (
    <>
      <Button label={tr('button')} onClick={() => setOpen(true)}>
        <FactCheckIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth fullScreen={narrow} maxWidth="md" aria-labelledby="reconcile-title">
        <DialogTitle id="reconcile-title">{tr('title')}</DialogTitle>
        <DialogContent>
          <FormControl component="fieldset" margin="dense">
            <FormLabel component="legend">{tr('mode')}</FormLabel>
            <RadioGroup value={mode} onChange={(event) => { if (isOneOf(RECONCILE_MODES, event.target.value)) setMode(event.target.value); changed(); }}>
              {modes.map((option) => <FormControlLabel key={option.value} value={option.value} control={<Radio />} label={option.label} />)}
            </RadioGroup>
          </FormControl>
          <SurveyPicker
            value={survey}
            onChange={(chosen) => { setSurvey(chosen); changed(); }}
            label={tr('survey')}
            required={needsSurvey}
            helperText={needsSurvey ? tr('surveyHelpRequired') : tr('surveyHelp')}
          />
          {file ? (
            <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', my: 1 }}>
              <UploadFileIcon fontSize="small" aria-hidden />
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{tr('fileLoaded', { name: file.name })}</Typography>
              <MuiButton size="small" onClick={() => { setFile(undefined); changed(); }}>{tr('removeFile')}</MuiButton>
            </Stack>
          ) : (
            <TextField
              label={tr('rids')}
              value={rids}
              onChange={(event) => { setRids(event.target.value); changed(); }}
              multiline
              minRows={4}
              fullWidth
              margin="dense"
            />
          )}
          <Box>
            <MuiButton size="small" startIcon={<UploadFileIcon />} onClick={() => fileInput.current?.click()} disabled={busy}>
              {tr('upload')}
            </MuiButton>
            <input
              ref={fileInput}
              type="file"
              hidden
              tabIndex={-1}
              aria-label={tr('upload')}
              accept=".csv,.txt,text/csv,text/plain"
              onChange={(event) => void loadFile(event.target.files?.[0])}
            />
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {tr('fileHelp')}
            </Typography>
          </Box>
          <TextField label={tr('reason')} value={reason} onChange={(event) => { setReason(event.target.value); edited(); }} fullWidth margin="dense" required />
          {mode !== 'reverse' && offerRaise && (
            <FormControlLabel
              control={<Checkbox checked={raiseQuota} onChange={(event) => { setRaiseQuota(event.target.checked); edited(); }} />}
              label={tr('raiseQuota')}
            />
          )}
          {error && <Alert severity="error" sx={{ mt: 2 }} role="alert">{error}</Alert>}
          {plan && <ReconcileSummary plan={plan} />}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton onClick={() => void send(true)} disabled={busy}>{tr('previewButton')}</MuiButton>
          <MuiButton variant="contained" onClick={() => void send(false)} disabled={busy || !plan || plan.applied === 0}>
            {plan && plan.applied > 0 ? tr('applyCount', { smart_count: plan.applied }) : tr('apply')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
