import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslate } from 'react-admin';

/** What a send leaves the dialog to do: close (undefined), stay open, or stay open with a message on the address. */
export type TestSendOutcome = undefined | { stay: true; error?: string };

interface TestSendButtonProps {
  /** names the dialog's title element */
  id: string;
  icon: ReactElement;
  size?: 'small' | 'medium';
  texts: { button: string; title: string; explain: string; address: string };
  addressType: 'email' | 'tel';
  /** sends a test message to the address typed (trimmed), telling the admin how it went */
  send(address: string): Promise<TestSendOutcome>;
  /** after every try: the server keeps its outcome as the channel's health */
  onTested(): void;
}

/** A "send a test message" button: a dialog asking for one address, sent by `send`. */
export function TestSendButton({ id, icon, size, texts, addressType, send, onTested }: TestSendButtonProps) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    // the dialog may sit inside the settings form, which must not be submitted with it
    event.preventDefault();
    event.stopPropagation();
    setSending(true);
    setError(undefined);
    try {
      const outcome = await send(address.trim());
      if (outcome) setError(outcome.error);
      else setOpen(false);
    } finally {
      setSending(false);
      onTested();
    }
  };

  return (
    <>
      <Button size={size} startIcon={icon} onClick={() => setOpen(true)}>
        {texts.button}
      </Button>
      <Dialog open={open} onClose={() => !sending && setOpen(false)} fullWidth maxWidth="xs" aria-labelledby={id}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogTitle id={id}>{texts.title}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{texts.explain}</DialogContentText>
            <TextField
              autoFocus
              fullWidth
              type={addressType}
              label={texts.address}
              value={address}
              onChange={(event) => setAddress(event.target.value)}
              error={error !== undefined}
              helperText={error}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)} disabled={sending}>
              {translate('ra.action.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={sending || address.trim() === ''}>
              {translate(sending ? 'config.testMail.sending' : 'config.testMail.send')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
