import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { useEditContext, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { Row } from '../../../schema/definition.js';

/** A save refused because the row changed since the form loaded it: the values sent and the row's current time. */
export interface StaleSave {
  values: Row;
  updateTime: number;
}

/**
 * Offered when someone else saved the row first: reload it (the other admin's version, discarding what was
 * typed here) or overwrite it (save what is typed here over their version). Rendered inside the form.
 */
export function StaleRecordDialog({ stale, stampField, onClose, onSubmit }: {
  stale: StaleSave | undefined;
  stampField: string;
  onClose: () => void;
  onSubmit: (values: Row) => Promise<Record<string, string> | undefined>;
}) {
  const translate = useTranslate();
  const { refetch } = useEditContext();
  const form = useFormContext();
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    setBusy(true);
    try {
      const { data } = await refetch();
      if (data) form.reset(data as Row);
      onClose();
    } finally {
      setBusy(false);
    }
  };

  const overwrite = async () => {
    if (!stale) return;
    setBusy(true);
    try {
      // Saved as if loaded now: the server checks the time again, so a third save meanwhile is caught too.
      form.setValue(stampField, stale.updateTime);
      onClose();
      const refused = await onSubmit({ ...stale.values, [stampField]: stale.updateTime });
      for (const [field, message] of Object.entries(refused ?? {})) form.setError(field, { type: 'server', message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={stale !== undefined} onClose={onClose} aria-labelledby="stale-record-title">
      <DialogTitle id="stale-record-title">{translate('generated.stale.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('generated.stale.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>{translate('ra.action.cancel')}</Button>
        <Button onClick={() => void reload()} disabled={busy}>{translate('generated.stale.reload')}</Button>
        <Button onClick={() => void overwrite()} disabled={busy} variant="contained" color="warning">{translate('generated.stale.overwrite')}</Button>
      </DialogActions>
    </Dialog>
  );
}
