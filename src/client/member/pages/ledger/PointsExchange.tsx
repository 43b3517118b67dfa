import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { fieldOf, messageOf } from '../../../http/error-body.js';
import { newRequestId, pointsExchangeApi, yuanOf, type PointsExchangeApi, type PointsExchangeState } from './points-exchange-api.js';
import { OutcomeAlerts } from '../common/OutcomeAlerts.js';
import '../../member-home.css';

/**
 * The points page's exchange: the member's points, the rate, the least per exchange, the daily limit and
 * what is left of it today, and a form to exchange; or, while the operator has not opened it, what points
 * are for. One request id per exchange: a second click while the first is on its way is the same exchange.
 */
export function PointsExchange({ api = pointsExchangeApi, onExchanged }: { api?: PointsExchangeApi; onExchanged?: () => void }) {
  const t = useTranslate();
  const [state, setState] = useState<PointsExchangeState | undefined>(undefined);
  const [points, setPoints] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  const reload = useCallback(async () => setState(await api.state()), [api]);
  useEffect(() => {
    reload().catch((cause: unknown) => setFailure(messageOf(cause)));
  }, [reload]);

  if (!state) return <OutcomeAlerts failure={failure} />;

  const title = t('memberAccount.exchange.title');
  if (!state.enabled) {
    return (
      <Box component="section" aria-label={title} sx={{ mb: 3 }} data-testid="points-exchange">
        <div className="ba-member__stats">
          <div className="ba-member__stat">
            <span>{t('memberAccount.exchange.points')}</span>
            <strong>{state.score}</strong>
          </div>
        </div>
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('memberAccount.exchange.closed')}
        </Alert>
      </Box>
    );
  }

  const preview = yuanOf(points, state.rate);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setFailure(undefined);
    setNotice(undefined);
    if (points.trim() === '') return setError(t('memberAccount.exchange.required'));
    setBusy(true);
    try {
      setNotice(await api.exchange(points.trim(), requestId));
      setPoints('');
      setRequestId(newRequestId());
      await reload();
      onExchanged?.();
    } catch (cause) {
      if (fieldOf(cause) === 'points') setError(messageOf(cause));
      else setFailure(messageOf(cause));
    } finally {
      setBusy(false);
    }
  };

  const figures: [string, string, string][] = [
    ['points', t('memberAccount.exchange.points'), String(state.score)],
    ['rate', t('memberAccount.exchange.rate'), t('memberAccount.exchange.rateValue', { smart_count: state.rate })],
    ['minimum', t('memberAccount.exchange.minimum'), t('memberAccount.exchange.pointsValue', { smart_count: state.minimum })],
    [
      'remaining',
      t('memberAccount.exchange.remaining'),
      state.remaining === null ? t('memberAccount.exchange.noLimit') : t('memberAccount.exchange.pointsValue', { smart_count: state.remaining }),
    ],
  ];
  const hint = [
    state.daily_limit > 0 ? t('memberAccount.exchange.dailyLimit', { smart_count: state.daily_limit }) : '',
    state.step > 1 ? t('memberAccount.exchange.step', { smart_count: state.step, yuan: yuanOf(String(state.step), state.rate) ?? '' }) : '',
  ].filter(Boolean).join(' ');

  return (
    <Box component="section" aria-label={title} sx={{ mb: 3 }} data-testid="points-exchange">
      <OutcomeAlerts notice={notice} failure={failure} />
      <div className="ba-member__stats">
        {figures.map(([key, label, value]) => (
          <div className="ba-member__stat" key={key} data-testid={`exchange-${key}`}>
            <span>{label}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 3, mb: 1.5, fontWeight: 600 }}>
        {title}
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label={title}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('memberAccount.exchange.amount')}
            name="points"
            value={points}
            onChange={(event) => {
              setPoints(event.target.value);
              setError(undefined);
            }}
            error={Boolean(error)}
            helperText={error ?? (preview ? t('memberAccount.exchange.preview', { yuan: preview }) : ' ')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            size="small"
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={busy} sx={{ flex: 'none', height: 40 }}>
            {t('memberAccount.exchange.submit')}
          </Button>
        </Stack>
        {hint && (
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {hint}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
