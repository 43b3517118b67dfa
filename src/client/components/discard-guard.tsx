import { useCallback, useRef, useState, type ReactElement } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

interface DiscardGuard {
  /** Close, or first ask, when the form holds input not yet saved. */
  requestClose(): void;
  /** The form says whether it holds unsaved input. */
  setDirty(dirty: boolean): void;
  /** The question, to render beside the form's dialog. */
  confirm: ReactElement;
}

/**
 * Guards a dialog's form: Escape, its close button and Cancel close it at once when nothing was typed;
 * with unsaved input they first ask (translated), "keep editing" being the answer focus starts on.
 */
export function useDiscardGuard(close: () => void, dirty?: boolean): DiscardGuard {
  const translate = useTranslate();
  const dirtyRef = useRef(false);
  if (dirty !== undefined) dirtyRef.current = dirty;
  const [asking, setAsking] = useState(false);
  const requestClose = useCallback(() => (dirtyRef.current ? setAsking(true) : close()), [close]);
  const setDirty = useCallback((value: boolean) => {
    dirtyRef.current = value;
  }, []);
  const confirm = (
    <Dialog open={asking} onClose={() => setAsking(false)} role="alertdialog" aria-labelledby="discard-title" aria-describedby="discard-text" maxWidth="xs">
      <DialogTitle id="discard-title">{translate('a11y.discard.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="discard-text">{translate('ra.message.unsaved_changes')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button autoFocus onClick={() => setAsking(false)}>
          {translate('a11y.discard.keep')}
        </Button>
        <Button
          color="error"
          onClick={() => {
            setAsking(false);
            close();
          }}
        >
          {translate('a11y.discard.discard')}
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { requestClose, setDirty, confirm };
}
