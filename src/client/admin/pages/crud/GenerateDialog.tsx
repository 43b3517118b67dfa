import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, List, ListItem, ListItemText, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { crudApi, refusalOf, type Migration } from './crud-api.js';
import { requestBodyOf, type DesignDraft } from './design-model.js';

/**
 * "Generate": first the migration the design implies (tables, columns, indexes), the steps that would
 * lose data named and held back until the admin confirms them, then the module made live.
 */

interface GenerateDialogProps {
  design: DesignDraft;
  onClose(): void;
  onGenerated(id: string): void;
}

export function GenerateDialog({ design, onClose, onGenerated }: GenerateDialogProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [migration, setMigration] = useState<Migration>();
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    Promise.all([crudApi.preview(requestBodyOf(design)), crudApi.generateCheck(design.table.name)]).then(
      ([preview, check]) => {
        if (!alive) return;
        setMigration(preview.migration);
        setNotice(check);
      },
      (error: unknown) => alive && setProblem(refusalOf(error).message),
    );
    return () => {
      alive = false;
    };
  }, [design]);

  const destructive = migration?.destructive ?? [];
  const generate = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const result = await crudApi.generate(requestBodyOf(design, destructive.length > 0 && confirmed));
      onGenerated(result.id);
    } catch (error) {
      setProblem(refusalOf(error).message);
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="crud-generate-title">
      <DialogTitle id="crud-generate-title">{translate('crud.generate.title', { name: design.table.name })}</DialogTitle>
      <DialogContent dividers>
        {notice && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {notice}
          </Alert>
        )}
        {!migration && !problem && <CircularProgress size={24} aria-label={translate('crud.generate.planning')} />}
        {migration && (
          <>
            <Typography variant="subtitle2" component="h3">
              {translate('crud.generate.steps')}
            </Typography>
            {migration.steps.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {translate('crud.generate.noSteps')}
              </Typography>
            ) : (
              <List dense aria-label={translate('crud.generate.steps')}>
                {migration.steps.map((step) => (
                  <ListItem key={step} disableGutters>
                    <ListItemText primary={step} slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-word' } } }} />
                  </ListItem>
                ))}
              </List>
            )}
          </>
        )}
        {destructive.length > 0 && (
          <Alert severity="error" sx={{ mt: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {translate('crud.generate.destructive')}
            </Typography>
            <List dense aria-label={translate('crud.generate.destructive')}>
              {destructive.map((step) => (
                <ListItem key={step} disableGutters>
                  <ListItemText primary={step} />
                </ListItem>
              ))}
            </List>
            <FormControlLabel control={<Checkbox checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />} label={translate('crud.generate.confirm')} />
          </Alert>
        )}
        {problem && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void generate()} disabled={!migration || busy || (destructive.length > 0 && !confirmed)}>
          {translate('crud.generate.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
