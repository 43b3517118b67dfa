import { useEffect, useRef, useState } from 'react';
import { Avatar, Box, Card, CardContent, CardHeader, CircularProgress, Divider, IconButton, Tooltip, Typography } from '@mui/material';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import { email, Loading, PasswordInput, regex, required, SaveButton, SimpleForm, TextInput, Toolbar, useNotify, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { previousLoginText } from '../../../format/previous-login.js';
import { httpClient } from '../../../http/index.js';
import { readSession, writeAdminInfo } from '../../../http/session.js';
import { patchAdminInfo, useShellState } from '../../bootstrap-store.js';
import { fullUrl } from '../../fields/value-format.js';
import { uploadFile } from '../../inputs/admin-ajax.js';
import { checkUpload } from '../../inputs/upload-check.js';
import { serverFieldErrors } from '../../resources/server-errors.js';
import { DEFAULT_SITE_CONFIG } from '../../site-config-context.js';
import { CUSTOM_FORMATS } from '../../../../schema/formats.js';
import { TwoFactorCard } from './TwoFactorCard.js';
import { PASSWORD_PATTERN } from '../../../../contract/credentials.js';

/** `routine.AdminInfo/index` → `info` (docs/wire-contract.md#own-profile). */
interface AdminProfile {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  email: string;
  mobile: string;
  motto: string;
  last_login_time: string;
}

const PROFILE_URL = '/admin/routine.AdminInfo/';

/** The editable fields sent to `edit` (the server ignores the rest; the password only when typed). */
function profilePayload(values: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: values.id,
    nickname: typeof values.nickname === 'string' ? values.nickname.trim() : values.nickname,
    email: values.email ?? '',
    mobile: values.mobile ?? '',
    motto: values.motto ?? '',
  };
  if (typeof values.password === 'string' && values.password !== '') {
    payload.password = values.password;
    payload.oldPassword = values.oldPassword ?? '';
    // the server ends every other session of the admin; this one, with its refresh token, stays
    payload.refresh_token = readSession('admin').refreshToken;
  }
  return payload;
}

/** The current password, asked for once a new one is typed (the server refuses a change without it). */
function CurrentPasswordInput() {
  const translate = useTranslate();
  const password: unknown = useWatch({ name: 'password' });
  if (typeof password !== 'string' || password === '') return null;
  return <PasswordInput source="oldPassword" label={translate('profile.currentPassword')} validate={required()} autoComplete="current-password" fullWidth />;
}

/** The form's fields a refusal of the server may name. */
const PROFILE_FIELDS: ReadonlySet<string> = new Set(['nickname', 'email', 'mobile', 'motto', 'password', 'oldPassword']);

/**
 * The signed-in admin's own profile (menu component `routine/adminInfo`): avatar upload, nickname,
 * email, mobile, motto and an optional new password.
 */
export function ProfilePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const shell = useShellState();
  const siteConfig = shell?.siteConfig ?? { ...DEFAULT_SITE_CONFIG, siteName: '', version: '', apiUrl: '' };
  const [info, setInfo] = useState<AdminProfile>();
  const [failed, setFailed] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let alive = true;
    httpClient.request<{ info: AdminProfile }>(`${PROFILE_URL}index`).then(
      (response) => alive && setInfo(response.data.info),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, []);

  if (failed) {
    return (
      <Card sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{translate('profile.loadFailed')}</Typography>
      </Card>
    );
  }
  if (!info) return <Loading />;

  const save = async (values: Record<string, unknown>) => {
    const payload = profilePayload(values);
    try {
      await httpClient.request(`${PROFILE_URL}edit`, { method: 'POST', data: payload, showSuccessMessage: true });
    } catch (error) {
      // The http client has already shown the server's message; the form keeps what was typed and
      // marks the field it names (a wrong current password).
      return serverFieldErrors(error, PROFILE_FIELDS);
    }
    const next = { ...info, ...payload, password: undefined, oldPassword: undefined, refresh_token: undefined } as AdminProfile;
    setInfo(next);
    setFormKey((key) => key + 1);
    writeAdminInfo({ nickname: next.nickname });
    patchAdminInfo({ nickname: next.nickname });
  };

  const changeAvatar = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkUpload(file, siteConfig.upload);
    if (problem) {
      notify(translate(`generated.upload.${problem}`), { type: 'error' });
      return;
    }
    setUploading(true);
    try {
      const uploaded = await uploadFile(file);
      await httpClient.request(`${PROFILE_URL}edit`, { method: 'POST', data: { id: info.id, avatar: uploaded.url }, showSuccessMessage: true });
      setInfo({ ...info, avatar: uploaded.url });
      writeAdminInfo({ avatar: uploaded.url });
      patchAdminInfo({ avatar: uploaded.url });
    } catch {
      // The http client has already shown the server's message.
    } finally {
      setUploading(false);
      if (picker.current) picker.current.value = '';
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '320px 1fr' }, alignItems: 'start' }}>
      <Card>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', pt: 4 }}>
          <Box sx={{ position: 'relative', mb: 2 }}>
            <Avatar src={fullUrl(info.avatar, siteConfig.cdnUrl)} alt="" sx={{ width: 104, height: 104, boxShadow: 2 }} />
            <Tooltip title={translate('profile.changeAvatar')}>
              <IconButton
                aria-label={translate('profile.changeAvatar')}
                onClick={() => picker.current?.click()}
                disabled={uploading}
                size="small"
                sx={{ position: 'absolute', right: -2, bottom: -2, bgcolor: 'primary.main', color: '#fff', border: 2, borderColor: 'background.paper', '&:hover': { bgcolor: 'primary.dark' } }}
              >
                {uploading ? <CircularProgress size={18} color="inherit" aria-hidden="true" /> : <PhotoCameraOutlinedIcon fontSize="small" />}
              </IconButton>
            </Tooltip>
            <input ref={picker} type="file" accept="image/*" hidden data-testid="avatar-file" onChange={(event) => void changeAvatar(event.target.files?.[0])} />
          </Box>
          <Typography variant="h6">{info.nickname || info.username}</Typography>
          <Typography variant="body2" color="text.secondary">
            @{info.username}
          </Typography>
          {info.motto && (
            <Typography variant="body2" sx={{ mt: 1.5, fontStyle: 'italic' }} color="text.secondary">
              “{info.motto}”
            </Typography>
          )}
        </CardContent>
        <Divider />
        <CardContent sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, fontSize: 14 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('profile.email')}
          </Typography>
          <Typography variant="body2" noWrap color={info.email ? undefined : 'text.secondary'}>
            {info.email || translate('generated.notSet')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('profile.mobile')}
          </Typography>
          <Typography variant="body2" color={info.mobile ? undefined : 'text.secondary'}>
            {info.mobile || translate('generated.notSet')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('profile.lastLogin')}
          </Typography>
          <Typography variant="body2">{previousLoginText(translate, 'profile', shell?.previousLogin)}</Typography>
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={translate('profile.title')} slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }} sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }} />
        <SimpleForm
          key={formKey}
          record={{ ...info, password: '', oldPassword: '' }}
          onSubmit={save}
          sx={{ maxWidth: 560 }}
          toolbar={
            // Only saving: one's own account is not deleted from here. On a phone it stays under the form
            // rather than floating at the screen's foot, where it would cover the two-factor card below.
            <Toolbar sx={{ bgcolor: 'transparent', px: 2, '&.RaToolbar-mobileToolbar': { position: 'static', zIndex: 'auto' } }}>
              <SaveButton alwaysEnable={false} />
            </Toolbar>
          }
        >
          <TextInput source="username" label={translate('profile.username')} disabled fullWidth />
          <TextInput source="nickname" label={translate('profile.nickname')} validate={required()} fullWidth />
          <TextInput source="email" label={translate('profile.email')} validate={email('profile.emailInvalid')} fullWidth />
          <TextInput source="mobile" label={translate('profile.mobile')} validate={regex(CUSTOM_FORMATS.mobile, 'profile.mobileInvalid')} fullWidth />
          <TextInput source="motto" label={translate('profile.motto')} multiline minRows={2} fullWidth />
          <PasswordInput
            source="password"
            label={translate('profile.newPassword')}
            helperText={translate('profile.passwordHint')}
            validate={regex(PASSWORD_PATTERN, 'profile.passwordRule')}
            autoComplete="new-password"
            fullWidth
          />
          <CurrentPasswordInput />
        </SimpleForm>
      </Card>
      <Box sx={{ gridColumn: { md: 2 } }}>
        <TwoFactorCard />
      </Box>
    </Box>
  );
}
