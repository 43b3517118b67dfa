import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { crudApi, refusalOf, type Migration, type Preview } from './crud-api.js';
import { requestBodyOf, type DesignDraft } from './design-model.js';

/**
 * "Generate": first the migration the design implies (tables, columns, indexes), the steps that would
 * lose data named and held back until the admin confirms them, whether its deleted rows are kept in the
 * recycle bin (on for a new module, else as its rule stands), then the module made live.
 */

/** What the dialog says of the module's recycle rule as it stands before this generate. */
const RECYCLE_STATE = {
  enabled: 'crud.generate.recycleEnabled',
  disabled: 'crud.generate.recycleDisabled',
  none: 'crud.generate.recycleNone',
} as const;

interface GenerateDialogProps {
  design: DesignDraft;
  /** the dialog's heading, when not "Generate <table>" (restoring a version) */
  title?: string;
  onClose(): void;
  onGenerated(id: string): void;
}

export function GenerateDialog({ design, title, onClose, onGenerated }: GenerateDialogProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [migration, setMigration] = useState<Migration>();
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const [confirmed, setConfirmed] = useState(false);
  const [recycle, setRecycle] = useState<Preview['recycle']>();
  const [keep, setKeep] = useState(true);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    Promise.all([crudApi.preview(requestBodyOf(design)), crudApi.generateCheck(design.table.name)]).then(
      ([preview, check]) => {
        if (!alive) return;
        setMigration(preview.migration);
        setRecycle(preview.recycle);
        setKeep(preview.recycle.keep);
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
      const result = await crudApi.generate({
        ...requestBodyOf(design, destructive.length > 0 && confirmed),
        recycle: keep,
      });
      onGenerated(result.id);
    } catch (error) {
      setProblem(refusalOf(error).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="crud-generate-title"
    >
      <DialogTitle id="crud-generate-title">
        {title ?? translate('crud.generate.title', { name: design.table.name })}
      </DialogTitle>
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
                    <ListItemText
                      primary={step}
                      slotProps={{
                        primary: { sx: { fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-word' } },
                      }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </>
        )}
        {recycle && (
          <>
            <FormControlLabel
              sx={{ mt: 1 }}
              control={
                <Checkbox
                  checked={keep}
                  onChange={(event) => setKeep(event.target.checked)}
                  slotProps={{ input: { 'aria-describedby': 'crud-generate-recycle-state' } }}
                />
              }
              label={translate('crud.generate.recycle')}
            />
            <Typography id="crud-generate-recycle-state" variant="body2" color="text.secondary">
              {translate(RECYCLE_STATE[recycle.rule])}
            </Typography>
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
            <FormControlLabel
              control={<Checkbox checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />}
              label={translate('crud.generate.confirm')}
            />
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
        <Button
          variant="contained"
          onClick={() => void generate()}
          disabled={!migration || busy || (destructive.length > 0 && !confirmed)}
        >
          {translate('crud.generate.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
