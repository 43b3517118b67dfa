import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Avatar, Box, Button, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { readUserInfo, writeUserInfo } from '../../../http/session.js';
import { messageOf } from '../../../http/error-body.js';
import { accountApi, type AccountApi, type VerificationType } from '../../account-api.js';
import { patchMemberInfo, useMemberBootstrap } from '../../shell/member-bootstrap.js';
import { PageCard } from '../common/PageCard.js';
import { SaveForm } from '../common/SaveForm.js';
import { useServerForm } from '../common/use-server-form.js';
import { DateTextField } from '../../../components/DateTextField.js';
import { BindDialog } from './BindDialog.js';

const GENDERS = [0, 1, 2] as const;

/**
 * `account/profile`: avatar (uploaded as the member), username, nickname, gender, birthday and motto
 * (`POST /api/account/profile`, refusals on their field), and the email address and mobile number,
 * changed through their own codes.
 */
export function ProfilePage({ api = accountApi }: { api?: AccountApi }) {
  const translate = useTranslate();
  const notify = useNotify();
  const info = useMemberBootstrap()?.userInfo ?? readUserInfo() ?? {};
  const form = useServerForm();
  const [values, setValues] = useState({
    avatar: info.avatar ?? '',
    username: info.username ?? '',
    nickname: info.nickname ?? '',
    gender: Number(info.gender ?? 0),
    birthday: info.birthday ?? '',
    motto: info.motto ?? '',
  });
  // the address types whose codes the site can deliver now; undefined until the server said
  const [types, setTypes] = useState<VerificationType[] | undefined>(undefined);
  const [binding, setBinding] = useState<VerificationType | undefined>(undefined);
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    api.verificationTypes().then(setTypes, () => setTypes([]));
  }, [api]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await form.submit(() => api.saveProfile({ id: Number(info.id), ...values }));
    if (saved) {
      writeUserInfo(values);
      patchMemberInfo(values);
    }
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const url = await api.uploadImage(file);
      setValues((current) => ({ ...current, avatar: url }));
    } catch (error) {
      notify(messageOf(error), { type: 'error', messageArgs: { _: messageOf(error) } });
    } finally {
      setUploading(false);
    }
  };

  const field = (name: 'username' | 'nickname' | 'motto') => (
    <TextField
      label={translate(`memberAccount.profile.${name}`)}
      name={name}
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      multiline={name === 'motto'}
      {...form.fieldProps(name)}
    />
  );

  return (
    <PageCard title={translate('memberAccount.profile.title')} maxWidth={720}>
      <SaveForm label={translate('memberAccount.profile.title')} onSubmit={onSubmit} busy={form.busy}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Avatar src={values.avatar || '/static/images/avatar.png'} alt={translate('memberAccount.profile.avatar')} sx={{ width: 72, height: 72 }} />
          <Button variant="outlined" size="small" disabled={uploading} onClick={() => fileRef.current?.click()}>
            {translate('memberAccount.profile.changeAvatar')}
          </Button>
          <input ref={fileRef} type="file" accept="image/*" hidden aria-label={translate('memberAccount.profile.avatar')} onChange={(event) => void upload(event.target.files?.[0])} />
          {form.errors.avatar && <Typography color="error" variant="caption">{form.errors.avatar}</Typography>}
        </Stack>
        {field('username')}
        {field('nickname')}
        <Box>
          <FormLabel id="gender-label">{translate('memberAccount.profile.gender')}</FormLabel>
          <RadioGroup row aria-labelledby="gender-label" value={String(values.gender)} onChange={(event) => setValues({ ...values, gender: Number(event.target.value) })}>
            {GENDERS.map((gender) => (
              <FormControlLabel key={gender} value={String(gender)} control={<Radio />} label={translate(`memberAccount.profile.genders.${gender}`)} />
            ))}
          </RadioGroup>
        </Box>
        <DateTextField
          kind="date"
          label={translate('memberAccount.profile.birthday')}
          value={values.birthday}
          onChange={(birthday) => setValues({ ...values, birthday })}
          {...form.fieldProps('birthday')}
        />
        {field('motto')}
        {(['email', 'mobile'] as const).map((type) => (
          <Box key={type}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography sx={{ minWidth: 90 }} color="text.secondary" id={`bound-${type}-label`}>
                {translate(`memberAccount.profile.${type}`)}
              </Typography>
              <Typography sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }} data-testid={`bound-${type}`}>
                {info[type] || translate('memberAccount.profile.notBound')}
              </Typography>
              {types?.includes(type) && (
                <Button size="small" onClick={() => setBinding(type)} aria-describedby={`bound-${type}-label`}>
                  {translate(info[type] ? 'memberAccount.profile.change' : 'memberAccount.profile.bind')}
                </Button>
              )}
            </Stack>
            {/* A code confirms every address: while its channel cannot deliver one, say so instead of offering nothing. */}
            {types && !types.includes(type) && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid={`bind-${type}-unavailable`}>
                {translate(`memberAccount.profile.unavailable.${type}`)}
              </Typography>
            )}
          </Box>
        ))}
      </SaveForm>
      {binding && (
        <BindDialog
          type={binding}
          current={String(info[binding] ?? '')}
          api={api}
          onClose={() => setBinding(undefined)}
          onBound={(address) => {
            setBinding(undefined);
            writeUserInfo({ [binding]: address });
            patchMemberInfo({ [binding]: address });
          }}
        />
      )}
    </PageCard>
  );
}
