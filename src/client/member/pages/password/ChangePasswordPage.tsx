import { useState, type FormEvent } from 'react';
import { TextField } from '@mui/material';
import { useLogout, useTranslate } from 'react-admin';
import { PASSWORD_PATTERN } from '../../../../contract/credentials.js';
import { accountApi, type AccountApi } from '../../account-api.js';
import { leaveLoginNotice } from '../../login/login-notice.js';
import { PageCard } from '../common/PageCard.js';
import { SaveForm } from '../common/SaveForm.js';
import { useServerForm } from '../common/use-server-form.js';

/**
 * `account/changePassword`: the old password and the new one twice. The server ends every session of
 * the member, so a success leads to the login page, which says the password was changed and to sign in again.
 */
export function ChangePasswordPage({ api = accountApi }: { api?: AccountApi }) {
  const translate = useTranslate();
  const logout = useLogout();
  const form = useServerForm();
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirm: '' });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!values.oldPassword) local.oldPassword = translate('memberAccount.password.oldRequired');
    if (!PASSWORD_PATTERN.test(values.newPassword)) local.newPassword = translate('memberAccount.password.shape');
    else if (values.confirm !== values.newPassword) local.confirm = translate('memberAccount.password.mismatch');
    if (Object.keys(local).length > 0) return form.setErrors(local);
    let changed = '';
    const done = await form.submit(async () => {
      changed = await api.changePassword(values.oldPassword, values.newPassword);
      // said on the login page, where the member goes next: a toast here would leave with the page
      return '';
    });
    if (!done) return;
    leaveLoginNotice(changed);
    await logout();
  };

  const field = (name: keyof typeof values, autoComplete: string) => (
    <TextField
      type="password"
      name={name}
      autoComplete={autoComplete}
      label={translate(`memberAccount.password.${name}`)}
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      {...form.fieldProps(name)}
    />
  );

  return (
    <PageCard title={translate('memberAccount.password.title')} maxWidth={520}>
      <SaveForm label={translate('memberAccount.password.title')} onSubmit={onSubmit} busy={form.busy}>
        {field('oldPassword', 'current-password')}
        {field('newPassword', 'new-password')}
        {field('confirm', 'new-password')}
      </SaveForm>
    </PageCard>
  );
}
