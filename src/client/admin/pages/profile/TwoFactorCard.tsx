import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { httpClient } from '../../../http/index.js';
import { groupedSecret, qrImageSource } from '../../../components/two-factor-format.js';

/** `routine.AdminInfo/twoFactor` (docs/two-factor.md). */
interface TwoFactorState {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
}

const ADMIN_INFO_URL = '/admin/routine.AdminInfo/';

type Stage = { name: 'idle' } | { name: 'setup'; secret: string; uri: string } | { name: 'codes'; codes: string[] };

/**
 * The admin's own two-factor sign-in on the profile page: turn it on (QR code and key, then a code), see how
 * many recovery codes are left, make new ones or turn it off (each with a current code). New recovery codes
 * are shown once.
 */
export function TwoFactorCard() {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`profile.twoFactor.${key}`, options);
  const [state, setState] = useState<TwoFactorState>();
  const [failed, setFailed] = useState(false);
  const [stage, setStage] = useState<Stage>({ name: 'idle' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () =>
    httpClient.request<TwoFactorState>(`${ADMIN_INFO_URL}twoFactor`, { area: 'admin', showErrorMessage: false }).then(
      ({ data }) => {
        setState(data);
        setFailed(false);
      },
      () => setFailed(true),
    );
  useEffect(() => {
    void load();
  }, []);

  /** Posts `action`; the http client shows the server's refusal or success message. */
  const post = async <T,>(action: string, data: Record<string, unknown>): Promise<T | undefined> => {
    setBusy(true);
    try {
      return (
        await httpClient.request<T>(`${ADMIN_INFO_URL}${action}`, {
          method: 'POST',
          area: 'admin',
          data,
          showSuccessMessage: true,
        })
      ).data;
    } catch {
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const withCode = (action: 'twoFactorConfirm' | 'twoFactorRecovery' | 'twoFactorOff') => async (event: FormEvent) => {
    event.preventDefault();
    const answer = await post<{ recoveryCodes?: string[] } | null>(action, { code: code.trim() });
    if (answer === undefined) return;
    setCode('');
    setStage(answer?.recoveryCodes ? { name: 'codes', codes: answer.recoveryCodes } : { name: 'idle' });
    void load();
  };

  const codeField = (
    <TextField
      label={t('code')}
      value={code}
      onChange={(event) => setCode(event.target.value)}
      autoComplete="one-time-code"
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 40 } }}
      size="small"
      required
      sx={{ minWidth: 0, width: { xs: '100%', sm: 240 } }}
    />
  );

  let body;
  if (failed) body = <Alert severity="error">{t('loadFailed')}</Alert>;
  else if (!state) body = <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>;
  else if (stage.name === 'codes') {
    body = (
      <>
        <Alert severity="warning">{t('codesNote')}</Alert>
        <Box
          component="ul"
          aria-label={t('codesList')}
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
            gap: '6px 16px',
            listStyle: 'none',
            p: 2,
            m: 0,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            fontFamily: 'monospace',
            fontSize: 15,
          }}
        >
          {stage.codes.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </Box>
        <Box>
          <Button variant="contained" onClick={() => setStage({ name: 'idle' })}>
            {t('done')}
          </Button>
        </Box>
      </>
    );
  } else if (stage.name === 'setup') {
    body = (
      <Box component="form" onSubmit={withCode('twoFactorConfirm')} sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">{t('scan')}</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Box
            component="img"
            src={qrImageSource(stage.uri)}
            alt={t('qr')}
            width={180}
            height={180}
            sx={{ bgcolor: '#fff', border: 1, borderColor: 'divider', borderRadius: 1 }}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">
              {t('secret')}
            </Typography>
            <Typography sx={{ fontFamily: 'monospace', fontSize: 15, overflowWrap: 'anywhere' }}>
              {groupedSecret(stage.secret)}
            </Typography>
          </Box>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          {codeField}
          <Button type="submit" variant="contained" disabled={busy}>
            {t('confirm')}
          </Button>
          <Button onClick={() => setStage({ name: 'idle' })}>{translate('ra.action.cancel')}</Button>
        </Box>
      </Box>
    );
  } else if (!state.enabled) {
    body = (
      <>
        <Typography variant="body2">{state.required ? t('offRequired') : t('off')}</Typography>
        <Box>
          <Button
            variant="contained"
            disabled={busy}
            onClick={async () => {
              const setup = await post<{ secret: string; uri: string }>('twoFactorSetup', {});
              if (setup) setStage({ name: 'setup', ...setup });
            }}
          >
            {t('turnOn')}
          </Button>
        </Box>
      </>
    );
  } else {
    body = (
      <Box component="form" onSubmit={withCode('twoFactorRecovery')} sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          {t('on', { smart_count: state.recoveryCodesLeft })}
          {state.required ? ` ${t('requiredNote')}` : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('codeFirst')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          {codeField}
          <Button type="submit" variant="outlined" disabled={busy}>
            {t('newCodes')}
          </Button>
          {!state.required && (
            <Button
              color="error"
              variant="outlined"
              disabled={busy}
              onClick={(event) => void withCode('twoFactorOff')(event)}
            >
              {t('turnOff')}
            </Button>
          )}
        </Box>
      </Box>
    );
  }

  return (
    <Card>
      <CardHeader
        title={t('title')}
        slotProps={{ title: { variant: 'subtitle1', component: 'h2', sx: { fontWeight: 600 } } }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }}
      />
      <CardContent sx={{ display: 'grid', gap: 2 }}>{body}</CardContent>
    </Card>
  );
}
