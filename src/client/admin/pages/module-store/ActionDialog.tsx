import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, List, ListItem, ListItemText, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { conflictLines, descriptionOf, destructiveSteps, titleOf, type ModuleAction, type ModuleInfo } from './module-model.js';
import { refusalOf, storeApi, type InstallPreview } from './store-api.js';

/**
 * The confirmation of one action on one module. A refusal stays in the dialog: the server's message,
 * the conflict list (what is in the way of an install), or the steps of an upgrade that lose data, which
 * the admin confirms before the install is asked again.
 */

interface ActionDialogProps {
  module: ModuleInfo;
  action: ModuleAction;
  /** the action is done on the server; the page reloads what changed before the dialog goes */
  onDone(module: ModuleInfo, action: ModuleAction): Promise<void>;
  onClose(): void;
}

/** Enable is BuildAdmin's two calls: the state back to installed, then the install that makes it live again. */
async function run(action: ModuleAction, uid: string, options: { dropData: boolean; confirm: boolean }): Promise<void> {
  const extend = options.confirm ? { confirm: 1 } : {};
  switch (action) {
    case 'install':
      await storeApi.install(uid, extend);
      return;
    case 'disable':
      await storeApi.changeState(uid, false);
      return;
    case 'enable':
      await storeApi.changeState(uid, true);
      await storeApi.install(uid, extend);
      return;
    case 'uninstall':
      await storeApi.uninstall(uid, options.dropData);
  }
}

export function ActionDialog({ module, action, onDone, onClose }: ActionDialogProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [busy, setBusy] = useState(false);
  const [dropData, setDropData] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [conflicts, setConflicts] = useState<string[]>([]);
  const [destructive, setDestructive] = useState<string[]>([]);
  const [confirmed, setConfirmed] = useState(false);
  const [preview, setPreview] = useState<InstallPreview>();
  const name = titleOf(module, locale);
  const description = descriptionOf(module, locale);
  const requires = Array.isArray(module.requires) ? module.requires : [];
  const dangerous = action === 'disable' || action === 'uninstall';
  // An uploaded higher version of an installed module: the install is its upgrade.
  const wording = action === 'install' && module.newVersion ? 'upgrade' : action;

  // Before an install: what it would change and what is in the way (a preview failing leaves the plain confirmation).
  useEffect(() => {
    if (action !== 'install') return;
    let alive = true;
    storeApi.preview(module.uid).then(
      (answer) => {
        if (!alive) return;
        setPreview(answer);
        setConflicts(conflictLines(answer as unknown as Record<string, unknown>));
        setDestructive(answer.migration.destructive);
        if (answer.problem) setProblem(answer.problem);
      },
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [action, module.uid]);
  const missing = preview?.missing ?? [];
  const blocked = conflicts.length > 0 || missing.length > 0;

  const confirm = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await run(action, module.uid, { dropData, confirm: destructive.length > 0 && confirmed });
      await onDone(module, action);
    } catch (error) {
      const refusal = refusalOf(error);
      setProblem(refusal.message);
      setConflicts(conflictLines(refusal.data));
      const steps = destructiveSteps(refusal.data);
      if (steps.length > 0) {
        setDestructive(steps);
        setConfirmed(false);
      }
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} disableRestoreFocus fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="module-action-title" aria-describedby="module-action-explain">
      <DialogTitle id="module-action-title">{translate(`moduleStore.confirm.${wording}.title`, { name, version: module.newVersion ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText id="module-action-explain">{translate(`moduleStore.confirm.${wording}.explain`)}</DialogContentText>
        {action === 'install' && description && (
          <Typography variant="body2" sx={{ mt: 2 }}>
            {description}
          </Typography>
        )}
        {action === 'install' && requires.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('moduleStore.requires', { names: requires.join(', ') })}
          </Typography>
        )}
        {missing.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {translate('moduleStore.missing', { names: missing.join(', ') })}
          </Alert>
        )}
        {preview && preview.migration.steps.length > 0 && (
          <>
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {translate('moduleStore.steps')}
            </Typography>
            <List dense aria-label={translate('moduleStore.steps')}>
              {preview.migration.steps.map((step) => (
                <ListItem key={step} disableGutters>
                  <ListItemText primary={step} slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-word' } } }} />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {action === 'uninstall' && (
          <>
            <FormControlLabel
              sx={{ mt: 2 }}
              control={<Checkbox checked={dropData} onChange={(event) => setDropData(event.target.checked)} disabled={busy} />}
              label={translate('moduleStore.confirm.uninstall.dropData')}
            />
            {dropData && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {translate('moduleStore.confirm.uninstall.dropWarning')}
              </Alert>
            )}
          </>
        )}
        {problem && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
        {conflicts.length > 0 && (
          <>
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {translate('moduleStore.conflicts')}
            </Typography>
            <List dense aria-label={translate('moduleStore.conflicts')}>
              {conflicts.map((line) => (
                <ListItem key={line} disableGutters>
                  <ListItemText primary={line} slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }} />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {destructive.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {translate('moduleStore.destructive')}
            </Typography>
            <List dense aria-label={translate('moduleStore.destructive')}>
              {destructive.map((step) => (
                <ListItem key={step} disableGutters>
                  <ListItemText primary={step} />
                </ListItem>
              ))}
            </List>
            <FormControlLabel control={<Checkbox checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />} label={translate('moduleStore.confirmDestructive')} />
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {busy && <CircularProgress size={20} aria-label={translate('moduleStore.working')} sx={{ mr: 'auto', ml: 1 }} />}
        <Button color="inherit" onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" color={dangerous ? 'error' : 'primary'} onClick={() => void confirm()} disabled={busy || blocked || (destructive.length > 0 && !confirmed)}>
          {translate(`moduleStore.confirm.${wording}.button`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
