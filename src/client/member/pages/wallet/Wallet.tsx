import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Box, Button, InputAdornment, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { isOneOf } from '../../../../contract/checks.js';
import { formatDateTime } from '../../../format/datetime.js';
import type { Translate } from '../../../i18n/translate.js';
import { fieldOf, messageOf, refusalDataOf } from '../../../http/error-body.js';
import { RecordTable, type RecordColumn } from '../common/RecordTable.js';
import { ValueChip } from '../../../components/ValueChip.js';
import { walletApi, type PaymentMethod, type PayoutRecord, type WalletApi, type WalletState } from './wallet-api.js';
import { OutcomeAlerts } from '../common/OutcomeAlerts.js';

const METHODS: readonly PaymentMethod[] = ['bank', 'alipay'];

type Errors = Record<string, string | undefined>;

/** Every field a refusal names: `data.fields` (all the empty ones at once), else `data.field`. */
function fieldsOf(error: unknown): string[] {
  const fields = refusalDataOf(error)?.fields;
  if (Array.isArray(fields) && fields.every((field): field is string => typeof field === 'string')) return fields;
  const field = fieldOf(error);
  return field ? [field] : [];
}

/** A heading of the wallet page. */
function SectionTitle({ children, gap = 1.5 }: { children: ReactNode; gap?: number }) {
  return (
    <Typography variant="subtitle1" component="h2" sx={{ mt: 3, mb: gap, fontWeight: 600 }}>
      {children}
    </Typography>
  );
}

/** A form of the wallet page under its heading, which also names the form for screen readers. */
function TitledForm({ title, onSubmit, children }: { title: string; onSubmit(event: FormEvent): void; children: ReactNode }) {
  return (
    <>
      <SectionTitle>{title}</SectionTitle>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={title}>
        {children}
      </Box>
    </>
  );
}

/**
 * The balance and the least one may withdraw, payment details (filled in as saved, numbers masked; a
 * change asks for the password; every empty field marked at once), a payout request and the payout log.
 */
export function Wallet({ t, api = walletApi, onChanged }: { t: Translate; api?: WalletApi; onChanged?: () => void }) {
  const [state, setState] = useState<WalletState | undefined>(undefined);
  const [method, setMethod] = useState<PaymentMethod>('bank');
  const [values, setValues] = useState<Record<string, string>>({});
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // A new loader (not a new page number) makes the log start again from its first page.
  const logLoader = useCallback(() => (page: number, limit: number) => api.payouts(page, limit), [api]);
  const [loadLog, setLoadLog] = useState(logLoader);

  const reload = useCallback(async () => {
    const loaded = await api.details();
    setState(loaded);
    if (loaded.details.payment) setMethod(loaded.details.payment);
    // The saved details come back as they are shown: a number sent back masked keeps the saved one.
    const saved: Record<string, string> = {};
    for (const name of Object.values(loaded.fields).flat()) saved[name] = String(loaded.details[name as keyof typeof loaded.details] ?? '');
    setValues(saved);
  }, [api]);

  useEffect(() => {
    reload().catch((error: unknown) => setFailure(messageOf(error)));
  }, [reload]);

  const run = async (work: () => Promise<string>) => {
    setErrors({});
    setFailure(undefined);
    setNotice(undefined);
    try {
      setNotice(await work());
      await reload();
      setLoadLog(logLoader);
      onChanged?.();
    } catch (error) {
      const fields = fieldsOf(error);
      if (fields.length === 0) setFailure(messageOf(error));
      else setErrors(Object.fromEntries(fields.map((field, index) => [field, index === 0 ? messageOf(error) : t('memberHome.wallet.required')])));
    }
  };

  const saved = Boolean(state?.details.payment);
  const names = [...(state?.fields[method] ?? []), ...(saved ? ['password'] : [])];

  const saveDetails = (event: FormEvent) => {
    event.preventDefault();
    const missing = names.filter((name) => (values[name] ?? '').trim() === '');
    if (missing.length > 0) return setErrors(Object.fromEntries(missing.map((name) => [name, t('memberHome.wallet.required')])));
    void run(() => api.saveDetails({ payment: method, ...Object.fromEntries(names.map((name) => [name, values[name] ?? ''])) }));
  };

  const requestPayout = (event: FormEvent) => {
    event.preventDefault();
    if (amount.trim() === '') return setErrors({ amount: t('memberHome.wallet.required') });
    void run(async () => {
      const answer = await api.requestPayout(amount.trim());
      // A request made leaves nothing to send again: the amount empties and the balance left shows at once.
      setAmount('');
      setState((current) => (current ? { ...current, balance: answer.balance } : current));
      return answer.message;
    });
  };

  const fieldProps = (name: string) => ({ error: Boolean(errors[name]), helperText: errors[name], name, fullWidth: true, size: 'small' as const });
  const change = (name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const columns: RecordColumn<PayoutRecord>[] = [
    { key: 'amount', label: t('memberHome.wallet.amount'), render: (payout) => `¥${payout.amount}` },
    { key: 'status', label: t('memberHome.wallet.status'), render: (payout, tags) => <ValueChip tags={tags} field="status" value={payout.status} /> },
    { key: 'reason', label: t('memberHome.wallet.reason'), render: (payout) => payout.reason || payout.reference || '-' },
    { key: 'time', label: t('memberHome.wallet.time'), render: (payout) => formatDateTime(payout.paid_time ?? payout.create_time) },
  ];

  return (
    <Box component="section" aria-label={t('memberHome.wallet.title')}>
      <OutcomeAlerts notice={notice} failure={failure} />
      {state && (
        <div className="ba-member__stats">
          <div className="ba-member__stat" data-testid="wallet-balance">
            <span>{t('memberHome.balance')}</span>
            <strong>¥{state.balance}</strong>
          </div>
          <div className="ba-member__stat" data-testid="wallet-minimum">
            <span>{t('memberHome.wallet.minimum')}</span>
            <strong>¥{state.minimum}</strong>
          </div>
          {Boolean(state.pending) && state.pending !== '0.00' && (
            <div className="ba-member__stat" data-testid="wallet-pending">
              <span>{t('memberHome.pending.title')}</span>
              <strong>¥{state.pending}</strong>
              <span>{t('memberHome.wallet.pendingHint')}</span>
            </div>
          )}
        </div>
      )}

      <TitledForm title={t('memberHome.wallet.details')} onSubmit={saveDetails}>
        <Stack spacing={2}>
          <TextField
            select
            label={t('memberHome.wallet.method')}
            value={method}
            onChange={(event) => {
              if (isOneOf(METHODS, event.target.value)) setMethod(event.target.value);
              setErrors({});
            }}
            fullWidth
            size="small"
          >
            {METHODS.map((item) => (
              <MenuItem key={item} value={item}>
                {t(`memberHome.wallet.${item}`)}
              </MenuItem>
            ))}
          </TextField>
          {names.map((name) => (
            <TextField
              key={name}
              label={t(`memberHome.wallet.fields.${name}`)}
              type={name === 'password' ? 'password' : 'text'}
              autoComplete={name === 'password' ? 'current-password' : 'off'}
              value={values[name] ?? ''}
              onChange={(event) => change(name, event.target.value)}
              {...fieldProps(name)}
            />
          ))}
          <Box>
            <Button type="submit" variant="contained">
              {t('memberHome.wallet.save')}
            </Button>
          </Box>
        </Stack>
      </TitledForm>

      <TitledForm title={t('memberHome.wallet.request')} onSubmit={requestPayout}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('memberHome.wallet.amount')}
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
              if (errors.amount) setErrors((current) => ({ ...current, amount: undefined }));
            }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start">¥</InputAdornment> }, htmlInput: { inputMode: 'decimal' } }}
            {...fieldProps('amount')}
          />
          <Button type="submit" variant="contained" sx={{ flex: 'none', height: 40 }}>
            {t('memberHome.wallet.request')}
          </Button>
        </Stack>
      </TitledForm>

      <SectionTitle gap={1}>{t('memberHome.wallet.log')}</SectionTitle>
      <RecordTable load={loadLog} columns={columns} label={t('memberHome.wallet.log')} empty={t('memberHome.wallet.empty')} />
    </Box>
  );
}
