import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Radio, RadioGroup } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { crudApi, moduleTitleOf, refusalOf, type LogEntry } from './crud-api.js';

/** Delete a designed module from the log: its menu, nodes, API and schema go; its table stays unless asked. */
export function DeleteDialog({ entry, onClose, onDeleted }: { entry: LogEntry; onClose(): void; onDeleted(): void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [drop, setDrop] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const remove = async () => {
    setBusy(true);
    try {
      await crudApi.remove(entry.id, drop);
      onDeleted();
    } catch (error) {
      setProblem(refusalOf(error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="crud-delete-title">
      <DialogTitle id="crud-delete-title">{translate('crud.delete.title', { name: moduleTitleOf(entry, locale) })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('crud.delete.explain')}</DialogContentText>
        <RadioGroup value={drop ? 'drop' : 'keep'} onChange={(event) => setDrop(event.target.value === 'drop')} aria-label={translate('crud.delete.table')}>
          <FormControlLabel value="keep" control={<Radio />} label={translate('crud.delete.keep')} />
          <FormControlLabel value="drop" control={<Radio />} label={translate('crud.delete.drop')} />
        </RadioGroup>
        {problem && <Alert severity="error">{problem}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button color="error" variant="contained" onClick={() => void remove()} disabled={busy}>
          {translate('crud.delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
