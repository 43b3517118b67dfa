import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '../../../format/datetime.js';
import type { Translate } from '../../../i18n/translate.js';
import { fieldOf, messageOf } from '../../../pages/survey/survey-api.js';
import { walletApi, type PaymentDetails, type PaymentMethod, type PayoutRecord, type WalletApi } from './wallet-api.js';

const FIELDS: Record<PaymentMethod, string[]> = {
  bank: ['bank', 'bank_name', 'bank_address', 'bank_num'],
  alipay: ['zhifubao_name', 'zhifubao'],
};

type Problem = { field?: string; message: string } | undefined;

/** Payment details (numbers masked; a change asks for the password), a payout request and the payment log. */
export function Wallet({ t, api = walletApi, onChanged }: { t: Translate; api?: WalletApi; onChanged?: () => void }) {
  const [details, setDetails] = useState<PaymentDetails | undefined>(undefined);
  const [method, setMethod] = useState<PaymentMethod>('bank');
  const [values, setValues] = useState<Record<string, string>>({});
  const [amount, setAmount] = useState('');
  const [log, setLog] = useState<PayoutRecord[]>([]);
  const [problem, setProblem] = useState<Problem>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  const reload = useCallback(async () => {
    const [loaded, payouts] = await Promise.all([api.details(), api.payouts(1, 10)]);
    setDetails(loaded);
    if (loaded.payment) setMethod(loaded.payment);
    setLog(payouts.list);
  }, [api]);

  useEffect(() => {
    reload().catch((error: unknown) => setProblem({ message: messageOf(error) }));
  }, [reload]);

  const run = async (work: () => Promise<string>) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      setNotice(await work());
      await reload();
      onChanged?.();
    } catch (error) {
      setProblem({ field: fieldOf(error), message: messageOf(error) });
    }
  };
  const fieldError = (name: string) => (problem?.field === name ? <span className="ba-member__error" role="alert">{problem.message}</span> : null);
  const saved = Boolean(details?.payment);

  return (
    <section className="ba-member__wallet" aria-label={t('memberHome.wallet.title')}>
      {notice && <p role="status" className="ba-member__notice">{notice}</p>}
      {problem && !problem.field && <p role="alert" className="ba-member__error">{problem.message}</p>}
      {saved && details && (
        <p className="ba-member__muted" data-testid="payment-details">
          {t(`memberHome.wallet.${details.payment}`)}: {details.payment === 'bank' ? `${details.bank_name} ${details.bank_num}` : details.zhifubao}
        </p>
      )}
      <form
        className="ba-member__form"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => api.saveDetails({ payment: method, ...Object.fromEntries(FIELDS[method].map((name) => [name, values[name] ?? ''])), ...(saved ? { password: values.password ?? '' } : {}) }));
        }}
      >
        <label>
          {t('memberHome.wallet.method')}
          <select value={method} onChange={(event) => setMethod(event.target.value as PaymentMethod)}>
            <option value="bank">{t('memberHome.wallet.bank')}</option>
            <option value="alipay">{t('memberHome.wallet.alipay')}</option>
          </select>
        </label>
        {[...FIELDS[method], ...(saved ? ['password'] : [])].map((name) => (
          <label key={name}>
            {t(`memberHome.wallet.fields.${name}`)}
            <input type={name === 'password' ? 'password' : 'text'} value={values[name] ?? ''} onChange={(event) => setValues({ ...values, [name]: event.target.value })} />
            {fieldError(name)}
          </label>
        ))}
        <button type="submit">{t('memberHome.wallet.save')}</button>
      </form>
      <form
        className="ba-member__form"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => api.requestPayout(amount));
        }}
      >
        <label>
          {t('memberHome.wallet.amount')}
          <input type="text" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
          {fieldError('amount')}
        </label>
        <button type="submit">{t('memberHome.wallet.request')}</button>
      </form>
      {log.length > 0 && (
        <table className="ba-member__table" aria-label={t('memberHome.wallet.log')}>
          <thead>
            <tr>
              <th>{t('memberHome.wallet.amount')}</th>
              <th>{t('memberHome.wallet.status')}</th>
              <th>{t('memberHome.wallet.reason')}</th>
              <th>{t('memberHome.wallet.time')}</th>
            </tr>
          </thead>
          <tbody>
            {log.map((payout) => (
              <tr key={payout.id}>
                <td>¥{payout.amount}</td>
                <td>{t(`memberHome.wallet.states.${payout.status}`)}</td>
                <td>{payout.reason || payout.reference || '-'}</td>
                <td>{formatDateTime(payout.paid_time ?? payout.create_time)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
