import SendIcon from '@mui/icons-material/Send';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useFormContext } from 'react-hook-form';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';

/** The group whose items are the mail settings. */
export const MAIL_GROUP = 'mail';
const RECIPIENT = 'testMail';

/**
 * "Send test mail" on the mail tab (docs/wire-contract.md#site-configuration `sendTestMail`): asks for a recipient and sends with
 * the tab's `settings` as they stand in the form, saved or not. A setting the server refuses shows on its field.
 */
export function TestMailButton({ resource, settings }: { resource: string; settings: ReadonlySet<string> }) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const form = useFormContext();
  const [open, setOpen] = useState(false);
  const [recipient, setRecipient] = useState('');
  const [recipientError, setRecipientError] = useState<string | undefined>(undefined);
  const [sending, setSending] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setSending(true);
    setRecipientError(undefined);
    try {
      await dataProvider.action(resource, 'sendTestMail', { data: { ...form.getValues(), [RECIPIENT]: recipient.trim() } });
      notify('config.testMail.sent', { type: 'success', messageArgs: { address: recipient.trim() } });
      setOpen(false);
    } catch (error) {
      const onFields = serverFieldErrors(error, new Set([...settings, RECIPIENT]));
      if (onFields?.[RECIPIENT]) setRecipientError(onFields[RECIPIENT]);
      else if (onFields) {
        for (const [name, message] of Object.entries(onFields)) form.setError(name, { type: 'server', message });
        setOpen(false);
      } else notify(errorMessageOf(error), { type: 'error' });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Button startIcon={<SendIcon />} onClick={() => setOpen(true)}>
        {translate('config.testMail.button')}
      </Button>
      <Dialog open={open} onClose={() => !sending && setOpen(false)} fullWidth maxWidth="xs" aria-labelledby="test-mail-title">
        <form onSubmit={(event) => void send(event)} noValidate>
          <DialogTitle id="test-mail-title">{translate('config.testMail.title')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{translate('config.testMail.explain')}</DialogContentText>
            <TextField
              autoFocus
              fullWidth
              type="email"
              label={translate('config.testMail.recipient')}
              value={recipient}
              onChange={(event) => setRecipient(event.target.value)}
              error={recipientError !== undefined}
              helperText={recipientError}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)} disabled={sending}>
              {translate('ra.action.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={sending || recipient.trim() === ''}>
              {translate(sending ? 'config.testMail.sending' : 'config.testMail.send')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
