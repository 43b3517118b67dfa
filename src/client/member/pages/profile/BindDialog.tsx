import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ClickCaptcha } from '../../../components/ClickCaptcha.js';
import { httpClient } from '../../../http/index.js';
import { messageOf } from '../../../http/error-body.js';
import { accountApi, type AccountApi, type CodeRequest, type VerificationType } from '../../account-api.js';
import { useCodeSender } from '../../use-code-sender.js';
import { useServerForm } from '../common/use-server-form.js';
import { useDiscardGuard } from '../../../components/discard-guard.js';

/** A code field with its "send code" button (waiting a minute between sends). */
function CodeInput({ request, api, value, onChange, error, helperText }: { request: () => CodeRequest; api: AccountApi; value: string; onChange(value: string): void; error?: boolean; helperText?: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const sender = useCodeSender(
    api,
    (message) => notify(message, { type: 'success', messageArgs: { _: message } }),
    (failure) => notify(messageOf(failure), { type: 'error', messageArgs: { _: messageOf(failure) } }),
  );
  const wait = sender.waitFor(request());
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField label={translate('memberAccount.bind.code')} value={value} onChange={(event) => onChange(event.target.value)} error={error} helperText={helperText} inputProps={{ inputMode: 'numeric', autoComplete: 'one-time-code' }} sx={{ flex: 1 }} />
      <Button
        variant="outlined"
        sx={{ mt: 1, whiteSpace: 'nowrap' }}
        disabled={sender.sending || wait > 0}
        onClick={() => sender.send(request())}
      >
        {wait > 0 ? translate('memberAccount.bind.resend', { seconds: wait }) : translate('memberAccount.bind.send')}
      </Button>
      {sender.pending && <ClickCaptcha client={httpClient} translate={translate} onClose={sender.cancel} onSuccess={sender.solved} />}
    </Stack>
  );
}

/**
 * Binding a new email address or mobile number (docs/wire-contract.md#member-endpoints `verification` + `changeBind`): a member
 * who has one proves it first with a code sent to it; one who has none proves the password. Then a
 * code sent to the new address confirms it. Closing with something typed asks first.
 */
export function BindDialog({ type, current, onClose, onBound, api = accountApi }: { type: VerificationType; current: string; onClose(): void; onBound(address: string): void; api?: AccountApi }) {
  const translate = useTranslate();
  const form = useServerForm();
  const [pass, setPass] = useState<string | undefined>(undefined);
  const [values, setValues] = useState({ oldCode: '', password: '', address: '', code: '' });
  const set = (name: keyof typeof values) => (value: string) => setValues({ ...values, [name]: value });
  const proving = current !== '' && pass === undefined;
  const what = translate(`memberAccount.profile.${type}`);
  const guard = useDiscardGuard(onClose, Object.values(values).some((value) => value !== ''));

  const confirm = async () => {
    if (proving) {
      await form.submit(async () => {
        setPass(await api.verify(type, values.oldCode));
        return '';
      });
      return;
    }
    const done = await form.submit(() =>
      api.changeBind({ type, address: values.address.trim(), captcha: values.code, ...(pass ? { accountVerificationToken: pass } : { password: values.password }) }),
    );
    if (done) onBound(values.address.trim());
  };

  return (
    <>
      <Dialog open onClose={guard.requestClose} fullWidth maxWidth="xs" aria-labelledby="bind-title">
        <DialogTitle id="bind-title">{translate(current ? 'memberAccount.bind.change' : 'memberAccount.bind.add', { what })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {proving ? (
              <>
                <Typography variant="body2" color="text.secondary">
                  {translate('memberAccount.bind.proveOld', { address: current })}
                </Typography>
                {type === 'email' && (
                  <TextField label={translate('memberAccount.bind.password')} type="password" value={values.password} onChange={(event) => set('password')(event.target.value)} {...form.fieldProps('password')} />
                )}
                {/* each step's code field is its own: the new address's code does not wait for the old one's */}
                <CodeInput
                  key="old"
                  api={api}
                  value={values.oldCode}
                  onChange={set('oldCode')}
                  {...form.fieldProps('captcha')}
                  request={() => ({ type, address: current, event: type === 'email' ? 'user_email_verify' : 'user_mobile_verify', ...(type === 'email' ? { password: values.password } : {}) })}
                />
              </>
            ) : (
              <>
                {current === '' && (
                  <TextField label={translate('memberAccount.bind.password')} type="password" value={values.password} onChange={(event) => set('password')(event.target.value)} {...form.fieldProps('password')} />
                )}
                <TextField label={translate('memberAccount.bind.newAddress', { what })} value={values.address} onChange={(event) => set('address')(event.target.value)} {...form.fieldProps(type)} />
                <CodeInput
                  key="new"
                  api={api}
                  value={values.code}
                  onChange={set('code')}
                  {...form.fieldProps('captcha')}
                  request={() => ({ type, address: values.address.trim(), event: type === 'email' ? 'user_change_email' : 'user_change_mobile' })}
                />
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={guard.requestClose}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={form.busy} onClick={() => void confirm()}>
            {translate(proving ? 'memberAccount.bind.next' : 'ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      {guard.confirm}
    </>
  );
}
