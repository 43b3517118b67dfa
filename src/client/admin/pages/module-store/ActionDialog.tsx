import { useState } from 'react';
import { Alert, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, List, ListItem, ListItemText, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { conflictLines, destructiveSteps, moduleText, type ModuleAction, type ModuleInfo } from './module-model.js';
import { refusalOf, storeApi } from './store-api.js';

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
  const name = moduleText(module.title, locale) || module.uid;
  const description = moduleText(module.description, locale);
  const requires = Array.isArray(module.requires) ? module.requires : [];
  const dangerous = action === 'disable' || action === 'uninstall';

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
      <DialogTitle id="module-action-title">{translate(`moduleStore.confirm.${action}.title`, { name })}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText id="module-action-explain">{translate(`moduleStore.confirm.${action}.explain`)}</DialogContentText>
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
        <Button variant="contained" color={dangerous ? 'error' : 'primary'} onClick={() => void confirm()} disabled={busy || (destructive.length > 0 && !confirmed)}>
          {translate(`moduleStore.confirm.${action}.button`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
